#!/usr/bin/env bash
# The timed fuzzing campaign over the hostile-input targets (`mvn test` and `mvn verify` only replay their seeds and
# past findings).
#   bash bench/fuzz.sh [duration] [target...]     e.g. bash bench/fuzz.sh 30m rollout
# Targets: parseJson parseYaml implementation step backend dependencies rollout validatePolicy (default: all, in turn).
# A finding stops that target and is written to
# src/test/resources/io/arbiter/http/HostileInputFuzzTestInputs/<target>/crash-*, where every later test run replays
# it; turn it into a named regression test next to the code it concerns. The growing corpus stays in .cifuzz-corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10m}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(parseJson parseYaml implementation step backend dependencies rollout validatePolicy)
fi
mvn -q -B test-compile
status=0
for target in "${targets[@]}"; do
  echo "== fuzzing ${target} for ${duration}"
  mvn -B surefire:test -Dtest="HostileInputFuzzTest#${target}" -Dmaven.test.redirectTestOutputToFile=false -DJAZZER_FUZZ=1 -Djazzer.max_duration="${duration}" \
      -Djazzer.instrumentation_includes='io.arbiter.**:com.fasterxml.jackson.core.**:com.fasterxml.jackson.dataformat.yaml.**:org.yaml.snakeyaml.**' \
      || status=1
done
exit "${status}"
