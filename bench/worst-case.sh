#!/usr/bin/env bash
# Worst-case search of issue 44 (io.arbiter.bench.WorstCase): for each decision target (implementation, backend,
# rollout, dependencies) a greedy climb over the dimensions of its cost model, each up to its field limit, the work
# budget or the 1 MiB body, then its pathological requests, against the packaged jar served under -Xmx512m. Per
# request: status, server CPU time, the heap it held, a concurrent small decision's worst latency; per target the
# worst request decided and the slowest refusal; then OutOfMemoryErrors, 5xx and lost connections.
#
#   bash bench/worst-case.sh [targets...]     exit 0 when every target of the issue is met
#
# The server runs with a fixed 32 MiB young generation and a GC log, so that a decision that allocates more than
# that is collected while it runs and the log shows what it holds (the highest heap after a collection, over the
# heap after a full collection just before it); a decision that allocates less is given as "≤" what it allocated.
# Needs the JDK (jcmd), Maven and /proc. Sends traffic to 127.0.0.1 only; takes about ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18283}
work=$(mktemp -d)

. bench/lib.sh
build_jar_and_classpath
start_server "$port" "$work/server.log" -Xmn32m "-Xlog:gc:file=$work/gc.log"

status=0
java -cp "$(driver_classpath)" io.arbiter.bench.WorstCase "http://127.0.0.1:$port" "$server_pid" "$work/gc.log" \
    "$work" "$@" | tee "$work/summary.txt" || status=$?
kill -0 $server_pid 2>/dev/null || { echo "server gone"; status=1; }
ooms=$(grep -c OutOfMemoryError "$work/server.log" || true)
echo "OutOfMemoryErrors: $ooms"
echo "per request: $work/requests.tsv; server log: $work/server.log; GC log: $work/gc.log"
[ "$ooms" = 0 ] || status=1
grep -q "over 2 s CPU or 64 MiB heap 0, refused in 100 ms or more 0, 5xx 0, lost connections 0" "$work/summary.txt" || status=1
small=$(grep -o 'small decision worst [0-9]* ms' "$work/summary.txt" | grep -o '[0-9]*' || echo 999999)
[ "${small:-999999}" -le 1000 ] || status=1
exit $status
