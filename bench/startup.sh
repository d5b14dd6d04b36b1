#!/usr/bin/env bash
# Start-up of the packaged jar, from `java -jar` to /readyz 200 on the embedded default, without and with the
# class-data archive the container image makes (docker/class-data.sh), alternating, with the image's JVM options.
# Prints each start and the medians. With -Xshare:on a start that cannot use the archive fails instead of going on
# without it.
#
#   bash bench/startup.sh [ROUNDS=5] [JAR=target/arbiter.jar]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
jar=$(realpath "${2:-target/arbiter.jar}")
options=(-XX:MaxRAMPercentage=75 -XX:+UseParallelGC)
port=18090
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash docker/class-data.sh "$jar" "$work/arbiter.jsa" "${options[@]}"

start() { # start NAME [extra JVM options...]: milliseconds to /readyz 200
  local name=$1
  shift
  local began pid
  began=$(date +%s%N)
  (cd "$work" && exec java "$@" "${options[@]}" -jar "$jar" serve --port "$port") >"$work/$name.log" 2>&1 &
  pid=$!
  until (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /readyz HTTP/1.0\r\n\r\n' >&3 && grep -q ' 200 ' <&3) 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "startup.sh: the $name start failed:" >&2
      cat "$work/$name.log" >&2
      exit 1
    fi
    sleep 0.02
  done
  echo "$name $((($(date +%s%N) - began) / 1000000))"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

for _ in $(seq "$rounds"); do
  start plain
  start archive -XX:SharedArchiveFile="$work/arbiter.jsa" -Xshare:on
done | tee "$work/starts.txt"
python3 - "$work/starts.txt" <<'PY'
import statistics, sys, collections
starts = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, ms = line.split()
    starts[name].append(int(ms))
for name in ("plain", "archive"):
    print(f"{name}: median {statistics.median(starts[name]):.0f} ms over {len(starts[name])} starts")
print(f"archive / plain: {statistics.median(starts['archive']) / statistics.median(starts['plain']):.2f}")
PY
