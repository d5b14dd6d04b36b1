#!/usr/bin/env bash
# Compares this working tree's build with the build of another revision, in one JVM (CompareBuilds).
#
#   bash bench/compare-builds.sh REV [ROUNDS] [audit|dependencies|implementation|embedded|rollout]
#
# e.g. `bash bench/compare-builds.sh HEAD~1`                   the AuditCostBenchmark decision, unaudited and recorded
#      `bash bench/compare-builds.sh main 40 dependencies`     the 500-policy dependency decision, one session and partitioned
#      `bash bench/compare-builds.sh main 60 implementation`   1,000-Implementation catalog: Interface only, with policies
#      `bash bench/compare-builds.sh main 60 embedded`         embedded default: Interface only, with an Action policy
#      `bash bench/compare-builds.sh main 40 rollout`          5,000 clusters: All with every record, Progressive half way
#
# Checks REV out as a git worktree under target/compare/ (kept for the next run; `git worktree prune` after
# `mvn clean`), copies BuildCases.java into it, compiles both builds, and runs both with this build's dependency
# jars. A = REV, B = this tree. ~2 minutes for 100 rounds of the audit case on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
rev=$(git rev-parse --short "$1")
rounds=${2:-100}
which=${3:-audit}
other="target/compare/$rev"

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
if [ ! -d "$other" ]; then
    git worktree prune
    git worktree add --detach "$other" "$rev" >/dev/null
fi
cp src/test/java/io/arbiter/bench/BuildCases.java "$other/src/test/java/io/arbiter/bench/"
(cd "$other" && mvn -q -B test-compile)
exec java -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    io.arbiter.bench.CompareBuilds "$other" . target/bench-classpath.txt "$rounds" "$which"
