#!/usr/bin/env bash
# Makes a class-data archive (AppCDS) for the packaged jar: one training start of `serve` on the embedded default,
# stopped once /readyz answers 200; the JVM writes the classes it loaded to ARCHIVE as it exits. A JVM started with
# -XX:SharedArchiveFile=ARCHIVE maps them instead of loading them one by one. The archive belongs to that JVM, that
# jar at that path and those options: the image makes it as it is built (docker/Dockerfile), bench/startup.sh
# measures what it saves.
#
#   bash docker/class-data.sh JAR ARCHIVE [JVM options the service runs with...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: class-data.sh JAR ARCHIVE [JVM options...]" >&2
  exit 2
fi
jar=$1 archive=$2
shift 2
port=${CLASS_DATA_PORT:-18089}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# in a folder of its own: the embedded default writes its decision log to the working folder
(cd "$work" && exec java "$@" -XX:ArchiveClassesAtExit="$archive" -jar "$jar" serve --port "$port") >"$work/serve.log" 2>&1 &
pid=$!
ready() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /readyz HTTP/1.0\r\n\r\n' >&3 && grep -q ' 200 ' <&3
}
for _ in $(seq 1200); do
  if (ready) 2>/dev/null; then
    break
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "class-data.sh: the training start failed:" >&2
    cat "$work/serve.log" >&2
    exit 1
  fi
  sleep 0.1
done
kill "$pid"
wait "$pid" || true
if [ ! -s "$archive" ]; then
  echo "class-data.sh: no archive was written to $archive:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
echo "class-data archive $archive: $(($(stat -c %s "$archive") / 1048576)) MiB"
