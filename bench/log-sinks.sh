#!/usr/bin/env bash
# Decisions per second with the file sink and the Kafka sink, in one run (LogSinksBenchmark).
#
#   bash bench/log-sinks.sh [SECONDS] [ROUNDS] [THREADS]     (defaults: 10 s turns, 3 rounds, 4 threads: ~3 min)
#
# Starts a real single-node Kafka broker (KRaft, from the kafka_2.13 test dependency) as a child process on this
# machine, then decides the embedded default's implementation request from THREADS threads, turn by turn: the file
# sink and the Kafka sink, each in REQUIRED and BEST_EFFORT mode, in rotating order, after a warm-up round. The
# broker shares the machine's cores with the service here, as the file sink's disk does not: read the ratio as an
# upper bound of what the Kafka sink costs next to a broker on its own machines.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    io.arbiter.bench.LogSinksBenchmark "$@"
