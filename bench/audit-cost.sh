#!/usr/bin/env bash
# What auditing costs (issue 6: under 10% of decision throughput), measured with JMH.
#
#   bash bench/audit-cost.sh [FORKS]              default 3 forks, about 2.5 minutes each
#   bash bench/audit-cost.sh --http [FORKS]       the same cases served over HTTP (AuditCostOverHttpBenchmark)
#   bash bench/audit-cost.sh --rounds [ROUNDS]    AuditCostBenchmark in separate forks; default 4 rounds, 4.5 minutes each
#
# By default runs AuditCostInterleavedBenchmark: the three cases (without recorder or log, recorder only, recorder and
# log) interleaved in each fork, each case's time in a JMH auxiliary counter. Then prints, per fork and over all
# iterations, the median cost of recording and of recording plus the log relative to the baseline of the same
# iteration. --rounds runs AuditCostBenchmark instead, one fork per case per round: on a shared two-core host its forks
# differ by more than auditing costs, so it mostly measures the host. Results are kept in target/audit-cost/ (JMH's
# JSON). Runs from the project root.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=interleaved
benchmark=AuditCostInterleavedBenchmark
if [ "${1:-}" = "--rounds" ]; then
    mode=rounds
    shift
elif [ "${1:-}" = "--http" ]; then
    benchmark=AuditCostOverHttpBenchmark
    shift
fi
count="${1:-}"
mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
classpath="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
rm -rf target/audit-cost && mkdir -p target/audit-cost
if [ "$mode" = interleaved ]; then
    java -cp "$classpath" org.openjdk.jmh.Main "$benchmark" -f "${count:-3}" \
        -rf json -rff target/audit-cost/interleaved.json > target/audit-cost/interleaved.txt
    exec java -cp "$classpath" io.arbiter.bench.AuditCostSummary target/audit-cost/interleaved.json
fi
rounds="${count:-4}"
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds"
    java -cp "$classpath" org.openjdk.jmh.Main 'AuditCostBenchmark\.' -f 1 \
        -rf json -rff "target/audit-cost/round-$round.json" > "target/audit-cost/round-$round.txt"
done
exec java -cp "$classpath" io.arbiter.bench.AuditCostSummary target/audit-cost/round-*.json
