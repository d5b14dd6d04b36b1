#!/usr/bin/env bash
# Bytes per decision on the wire with the Kafka sink, by compression.type: lz4 (the default), zstd, none (issue 46).
#
#   bash bench/kafka-bytes.sh [DECISIONS] [ONE_BY_ONE]     (defaults: 20000 and 2000 decisions: ~4 min on a busy machine)
#
# Starts a real single-node Kafka broker (as bench/log-sinks.sh does), then sends four typical decisions of the
# embedded default in turn through the Kafka sink, once as fast as they are decided (many records a batch) and once one by
# one in REQUIRED mode (a record per batch), and prints per decision the record's bytes and the bytes the producer
# put on the wire (its own metrics) and the broker's log segments grew by (KafkaWireBytes).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -XX:+UseParallelGC -cp "$(driver_classpath)" \
    io.arbiter.bench.KafkaWireBytes "$@"
