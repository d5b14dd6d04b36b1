#!/usr/bin/env bash
# Soak: load on loopback for DURATION seconds (default 60) while the global policy is replaced every second.
# Reports request errors (target 0) and the heap after a full GC, before and after the run (target: < 10% growth).
#
#   bash bench/soak.sh [DURATION_SECONDS]
#
# Needs the jar (mvn -q -B package -DskipTests), curl and the JDK's jcmd. Sends traffic to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60}
port=18181
token=soak-token
log=$(mktemp -d)/arbiter.log
ARBITER_ADMIN_TOKEN=$token java -Xmx512m -jar target/arbiter.jar serve --host 127.0.0.1 --port $port \
    --decision-log "$(dirname "$log")/decisions.log" > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" > /dev/null; do sleep 0.2; done

heap() { jcmd $pid GC.run > /dev/null; sleep 1; jcmd $pid GC.heap_info | grep -m1 -o 'used [0-9]*K' | grep -o '[0-9]*K'; }
# warm up, then measure the baseline
seq 1 2000 | xargs -P 4 -I{} curl -s -o /dev/null "http://127.0.0.1:$port/v1/decisions/implementation" \
    -H 'Content-Type: application/json' -d '{"interface": {"path": "cap.interface.database.postgresql.install"}}'
before=$(heap)

policies=("$(cat fixtures/embedded/policy.yaml)" "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}")
end=$((SECONDS + duration))
(
  i=0
  while [ $SECONDS -lt $end ]; do
    curl -s -o /dev/null -w '%{http_code}\n' -X PUT "http://127.0.0.1:$port/v1/policy" -H "Authorization: Bearer $token" \
        -H 'Content-Type: application/yaml' --data-binary "${policies[$((i % 2))]}"
    i=$((i + 1)); sleep 1
  done
) > "$(dirname "$log")/reloads.txt" &
reloader=$!
while [ $SECONDS -lt $end ]; do echo request; done | xargs -P 8 -I{} curl -s -o /dev/null -w '%{http_code}\n' \
    "http://127.0.0.1:$port/v1/decisions/implementation" -H 'Content-Type: application/json' \
    -d '{"interface": {"path": "cap.interface.database.postgresql.install"}}' > "$(dirname "$log")/codes.txt" || true
wait $reloader || true
after=$(heap)

total=$(wc -l < "$(dirname "$log")/codes.txt")
errors=$(grep -vc '^200$' "$(dirname "$log")/codes.txt" || true)
reloads=$(grep -c '^200$' "$(dirname "$log")/reloads.txt" || true)
echo "decisions: $total, errors: $errors, policy replacements: $reloads"
echo "heap after full GC: before ${before}, after ${after}"
