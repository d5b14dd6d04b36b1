#!/usr/bin/env bash
# Decisions over HTTP against /healthz, with the decision log on and off, for this tree and (optionally) another
# revision, side by side in one run (issue 26). Needs wrk (Debian: apt-get install -y wrk) and curl.
#
#   bash bench/http.sh [REV] [ROUNDS] [SECONDS]
#
# e.g. `bash bench/http.sh`                 this tree only, 1 round of 10 s per case
#      `bash bench/http.sh main 2 10`       main's build (A) and this tree's (B), alternating, 2 rounds
#
# Each round starts each build's jar twice, as the embedded default serves (java -jar arbiter.jar serve):
#   log on   the embedded default's decision log (./arbiter-decisions.log, BEST_EFFORT), in a fresh directory:
#            /healthz, an implementation decision carrying only an Interface, one with an action policy;
#   log off  the same policy given as a file (--policy fixtures/embedded/policy.yaml, and --decision-log off
#            --snapshot-archive off for a build that logs whatever it serves):
#            /healthz and the two decisions again (the same load before the decisions as the log-on server had).
# wrk: 2 threads, 16 connections, SECONDS per case after WARMUP seconds (default 15) of the same load.
# Reported per build: requests/s of each case, decisions/healthz
# (target >= 0.50), auditing's cost = 1 - (log on)/(log off) (target <= 5%), the time from `java -jar` to
# /readyz 200 (target <= 3 s), and the sizes of a response and of its log record (no explain; targets 3 KB and
# 1.5 KB). The machine's load average is printed with each round: on a shared host, compare builds within a run.
# Results: target/http-bench/results.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

rev=${1:-}
rounds=${2:-1}
seconds=${3:-10}
out="$root/target/http-bench"
mkdir -p "$out"
port=18181

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }

mvn -q -B package -DskipTests
# copies: a build in this tree while the benchmark runs does not change what it measures
cp target/arbiter.jar "$out/B.jar"
declare -A jars=([B]="$out/B.jar")
builds="B"
if [ -n "$rev" ]; then
    short=$(git rev-parse --short "$rev")
    other="$root/target/compare/$short"
    if [ ! -d "$other" ]; then
        git worktree prune
        git worktree add --detach "$other" "$short" >/dev/null
    fi
    (cd "$other" && mvn -q -B package -DskipTests)
    cp "$other/target/arbiter.jar" "$out/A.jar"
    jars[A]="$out/A.jar"
    builds="A B"
    echo "A = $short, B = this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', modified'))"
fi

INTERFACE='{"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"}}'
ACTION='{"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
 "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
   "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"}}]}]}}}'
for name in INTERFACE ACTION; do
    body=${!name}
    cat > "$out/$name.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$body]]
EOF
    # the same request, each time with other white space after it (20 spaces or line ends spelling a counter that
    # starts apart on each wrk thread): every body is new to the server, so none is answered from its memo
    cat > "$out/$name-distinct.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = 0
function setup(thread) threads = threads + 1; thread:set("first", threads * 100000) end
function init(args) n = first end
local ws = {}
function request()
    n = n + 1
    local k = n
    for i = 1, 20 do ws[i] = (k % 2 == 0) and " " or "\\n"; k = math.floor(k / 2) end
    return wrk.format(nil, nil, nil, [[$body]] .. table.concat(ws))
end
EOF
done

pid=
stop_server() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        pid=
    fi
}
trap stop_server EXIT

# start JAR DIR [ARGS...]: starts the server in DIR; ready_ms: milliseconds until /readyz answered 200
start_server() {
    local jar=$1 dir=$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    local started=$(date +%s%N)
    (cd "$dir" && exec java -XX:+UseParallelGC -jar "$jar" serve --port "$port" "$@" >server.out 2>&1) &
    pid=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do
        kill -0 "$pid" 2>/dev/null || { cat "$dir/server.out" >&2; exit 1; }
        sleep 0.02
    done
    ready_ms=$(( ($(date +%s%N) - started) / 1000000 ))
}

# rate NAME PATH [LUA]: requests/s of wrk on PATH
rate() {
    local path=$2 script=()
    [ -n "${3:-}" ] && script=(-s "$out/$3.lua")
    # warm-up: on 2 cores the JIT is still compiling the decision path after 3 s of load (a 3 s warm-up measured
    # Interface-only decisions at 8,000 req/s where a warm server serves 21,000)
    wrk -t2 -c16 -d"${WARMUP:-15}s" "${script[@]}" "http://127.0.0.1:$port$path" >/dev/null
    wrk -t2 -c16 -d"${seconds}s" "${script[@]}" "http://127.0.0.1:$port$path" | awk '/Requests\/sec/ {print $2}'
}

printf 'round\tbuild\tcase\tvalue\n' > "$out/results.tsv"
record() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$out/results.tsv"; }

for round in $(seq 1 "$rounds"); do
    echo "round $round, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    for build in $builds; do
        jar=${jars[$build]}
        dir="$out/run-$build"
        start_server "$jar" "$dir"
        record "$round" "$build" ready_ms "$ready_ms"
        curl -s -o "$out/response-$build.json" -H 'Content-Type: application/json' -d "$INTERFACE" \
            "http://127.0.0.1:$port/v1/decisions/implementation"
        record "$round" "$build" response_bytes "$(wc -c < "$out/response-$build.json")"
        sleep 0.1 # the log's writer runs every few milliseconds
        record "$round" "$build" record_bytes "$(head -1 "$dir/arbiter-decisions.log" | wc -c)"
        record "$round" "$build" healthz "$(rate healthz /healthz)"
        record "$round" "$build" interface_log_on "$(rate interface /v1/decisions/implementation INTERFACE)"
        record "$round" "$build" action_log_on "$(rate action /v1/decisions/implementation ACTION)"
        record "$round" "$build" interface_distinct "$(rate interface /v1/decisions/implementation INTERFACE-distinct)"
        record "$round" "$build" action_distinct "$(rate action /v1/decisions/implementation ACTION-distinct)"
        stop_server
        # the same policy given as a file; a build that logs by default is told not to (--decision-log off)
        off=(--policy "$root/fixtures/embedded/policy.yaml")
        java -jar "$jar" serve --help 2>/dev/null | grep -q 'FILE|off' && off+=(--decision-log off --snapshot-archive off)
        start_server "$jar" "$dir" "${off[@]}"
        [ ! -e "$dir/arbiter-decisions.log" ] || { echo "log-off server wrote a log" >&2; exit 1; }
        # the same load before the decisions as the log-on server had: a server's first minute warms its HTTP path
        record "$round" "$build" healthz_log_off "$(rate healthz /healthz)"
        record "$round" "$build" interface_log_off "$(rate interface /v1/decisions/implementation INTERFACE)"
        record "$round" "$build" action_log_off "$(rate action /v1/decisions/implementation ACTION)"
        stop_server
        awk -F'\t' -v r="$round" -v b="$build" '$1 == r && $2 == b {printf "  %s %-18s %s\n", b, $3, $4}' "$out/results.tsv"
    done
done

echo
echo "medians over rounds (requests/s, ms, bytes) and ratios:"
awk -F'\t' 'NR > 1 {v[$2 FS $3] = v[$2 FS $3] " " $4; builds[$2] = 1}
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
    for (b in builds) {
        h = median(v[b FS "healthz"]); i = median(v[b FS "interface_log_on"]); a = median(v[b FS "action_log_on"])
        io = median(v[b FS "interface_log_off"]); ao = median(v[b FS "action_log_off"])
        printf "%s  healthz %.0f  interface %.0f (off %.0f)  action %.0f (off %.0f)\n", b, h, i, io, a, ao
        printf "%s  decisions/healthz: interface %.2f, action %.2f   auditing cost: interface %.1f%%, action %.1f%%\n",
            b, i / h, a / h, 100 * (1 - i / io), 100 * (1 - a / ao)
        id = median(v[b FS "interface_distinct"]); ad = median(v[b FS "action_distinct"])
        if (id != "") printf "%s  every request new (none memoised, log on): interface %.0f (%.2f of healthz), action %.0f (%.2f)\n", b, id, id / h, ad, ad / h
        printf "%s  ready %d ms   response %d bytes   log record %d bytes\n", b, median(v[b FS "ready_ms"]),
            median(v[b FS "response_bytes"]), median(v[b FS "record_bytes"])
    }
}' "$out/results.tsv" | sort
