#!/usr/bin/env bash
# Issue 27's impact target: a candidate policy against the live one over the 1,000-Implementation catalog plus N
# replayed decisions of all four kinds, timed from the candidate to the report (io.arbiter.bench.ImpactRun).
#
#   bash bench/impact.sh [replays=10000] [distinct|repeated]
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -Xmx2g -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    io.arbiter.bench.ImpactRun "$@"
