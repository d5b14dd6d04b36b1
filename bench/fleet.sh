#!/usr/bin/env bash
# Issue 47: fabric8's emulated Kubernetes API server (CRUD mode) and three replicas in one JVM
# (io.arbiter.bench.FleetBench); COUNT changes (policy PUTs through each replica in turn, alternating with edits of the
# backend decision table straight to its ConfigMap) while decisions flow to every replica. Prints the time until every
# replica serves each change and the number of answers given with a superseded revision after that time.
#
#   bash bench/fleet.sh [COUNT=20]
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -Djava.util.logging.config.file=target/test-classes/logging.properties -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.FleetBench "$@"
