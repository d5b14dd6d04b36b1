#!/usr/bin/env bash
# Times `arbiter test`: over the example suites (docs/examples/tests) and over the scenario files converted into
# one suite on the fly (io.arbiter.bench.ScenarioSuites, test code; scenarios with their own TypeInstance store are
# left out).
#
#   bash bench/suite.sh [ROUNDS]
#
# First the runner alone, in turns in one JVM after one snapshot load (io.arbiter.bench.SuiteTiming: load the
# suites, a new runner, run every test, then the coverage); then the whole command once per case, JVM start and
# rule compilation included.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
cp="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
java -cp "$cp" io.arbiter.bench.ScenarioSuites target/scenario-suites
java -cp "$cp" io.arbiter.bench.SuiteTiming "$rounds" docs/examples/tests target/scenario-suites/suites 2>/dev/null \
    | grep -v ' INFO '
for suite in docs/examples/tests target/scenario-suites/suites; do
    start=$(date +%s.%N)
    set +e
    java -cp "$cp" io.arbiter.cli.ArbiterCli test --coverage "$suite" 2>/dev/null | grep -E '^[0-9]+ tests:|^coverage:'
    set -e
    echo "arbiter test --coverage $suite: $(echo "$(date +%s.%N) - $start" | bc) s wall, JVM start and rule compilation included"
done
