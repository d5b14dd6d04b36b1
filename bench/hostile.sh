#!/usr/bin/env bash
# Hostile-input run: starts the service under -Xmx512m with a decision log on loopback, sends it classes of
# malformed, out-of-range, deep, huge, concurrent large and protocol-level requests (io.arbiter.bench.HostileInput), and reports per
# class: requests, 2xx, 4xx, 5xx, hangs (no answer in 60 s), error statuses without a JSON error body, the slowest
# and the largest answer. Then: decision-log lines that are not whole records, whether well-formed decisions made
# afterwards all reach the log, OutOfMemoryErrors, and the heap after a full GC before and after the run.
#
#   bash bench/hostile.sh            exit 0 when nothing above counts a defect
#
# Needs the JDK (jcmd) and Maven. Sends traffic to 127.0.0.1 only; takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18282}
token=hostile-token
work=$(mktemp -d)

. bench/lib.sh
build_jar_and_classpath
ARBITER_ADMIN_TOKEN=$token SERVE_OPTIONS="--decision-log $work/decisions.log" start_server "$port" "$work/server.log"
pid=$server_pid

heap() { heap_after_gc; }
before=$(heap)
status=0
java -cp "$(driver_classpath)" io.arbiter.bench.HostileInput \
    "http://127.0.0.1:$port" "$token" "$work/decisions.log" || status=$?
if kill -0 $pid 2>/dev/null; then after=$(heap); else after="(server gone)"; status=1; fi
ooms=$(grep -c OutOfMemoryError "$work/server.log" || true)
echo "OutOfMemoryErrors: $ooms"
echo "heap after full GC: before ${before}, after ${after}"
echo "readyz: $(curl -s "http://127.0.0.1:$port/readyz" || echo unreachable)"
echo "server log: $work/server.log"
[ "$ooms" = 0 ] || status=1
exit $status
