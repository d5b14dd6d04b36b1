#!/usr/bin/env bash
# The snapshot archive's cost (io.arbiter.bench.ArchiveCost): size on disk, write time (first, and after a
# policy-only change) for the embedded default and the 1,000-Implementation catalog, and the time to replay one
# logged decision. The packaged rules are precompiled first, as in the jar, so a replay loads them as serve does.
#
#   bash bench/archive-cost.sh [rounds=5]
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
precompiled=target/archive-cost/classes
rm -rf "$precompiled" && mkdir -p "$precompiled"
cp -r target/classes/rules target/classes/decision-tables "$precompiled/"
# the test classpath registers the plugin policy type test.greeting too: its rules are archived as well
cp -r target/test-classes/rules target/test-classes/decision-tables "$precompiled/"
java -cp "$classpath" io.arbiter.runtime.PrecompileRules "$precompiled" >/dev/null
exec java -Xmx2g -cp "$precompiled:$classpath" io.arbiter.bench.ArchiveCost "$@"
