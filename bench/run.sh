#!/usr/bin/env bash
# JMH benchmarks in src/test/java/io/arbiter/bench (decisions of each policy type, parsing, audit cost, log sinks).
#
#   bash bench/run.sh [JMH args]
#
# e.g. `bash bench/run.sh`                       all benchmarks (forks and iterations as each class's annotations set)
#      `bash bench/run.sh noMatch -rf json`      one benchmark, results also written to jmh-result.json
#      `bash bench/run.sh -h`                    JMH options
#
# Compiles main and test code, resolves the test classpath, then runs org.openjdk.jmh.Main in a plain JVM
# (JMH forks its measurement JVM with that classpath), as pom.xml's exec:exec does, but with JMH arguments.
# Runs from the project root: the rule base is compiled from rules/ and decision-tables/ on disk. The benchmark
# classes are not tests: surefire runs only *Test classes (AuditCostSummaryTest is one) and excludes JMH's
# generated ones.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    org.openjdk.jmh.Main "$@"
