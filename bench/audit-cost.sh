#!/usr/bin/env bash
# What auditing costs (issue 6: under 10% of decision throughput), measured with JMH.
#
#   bash bench/audit-cost.sh [ROUNDS]      default 4 rounds, about 4.5 minutes each
#
# Runs AuditCostBenchmark's three cases (without recorder or log, recorder only, recorder and log) ROUNDS times,
# one fork per case per round, so that every round measures the three cases minutes apart instead of the host's
# load drifting between whole benchmarks. Then prints each round's throughputs, the cost of recording and of
# recording plus the log relative to the same round's baseline, and the median of those costs over the rounds.
# Results are kept in target/audit-cost/round-N.json (JMH's JSON). Runs from the project root.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-4}"
mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
rm -rf target/audit-cost && mkdir -p target/audit-cost
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds"
    java -cp "$classpath" org.openjdk.jmh.Main AuditCostBenchmark -f 1 \
        -rf json -rff "target/audit-cost/round-$round.json" > "target/audit-cost/round-$round.txt"
done
exec java -cp "$classpath" io.arbiter.bench.AuditCostSummary target/audit-cost/round-*.json
