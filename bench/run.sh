#!/usr/bin/env bash
# JMH benchmark of one in-process implementation decision (ImplementationDecider.decide).
#
#   bash bench/run.sh [JMH args]
#
# e.g. `bash bench/run.sh`                       all benchmarks (1 fork, 8x2s warmup, 5x2s measurement each: ~2 min)
#      `bash bench/run.sh noMatch -rf json`      one benchmark, results also written to jmh-result.json
#      `bash bench/run.sh -h`                    JMH options
#
# Compiles main and test code, resolves the test classpath, then runs org.openjdk.jmh.Main in a plain JVM
# (JMH forks its measurement JVM with that classpath). Runs from the project root: the rule base is compiled
# from rules/ and decision-tables/ on disk. Never part of `mvn test` (surefire excludes **/bench/**).
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    org.openjdk.jmh.Main "$@"
