# Helpers shared by the scripts that run the packaged jar as a server and drive it (bench/hostile.sh,
# bench/worst-case.sh). Source it from the project root.

# The jar, and the test classpath the drivers (io.arbiter.bench.*) run on, in target/bench-classpath.txt.
build_jar_and_classpath() {
  mvn -q -B package -DskipTests
  mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
      -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
}

# start_server PORT LOG [JVM options...]: serves the jar under -Xmx512m on 127.0.0.1:PORT with the given JVM options
# and the serve options in $SERVE_OPTIONS, output to LOG; sets server_pid, stops it on exit, waits for /readyz.
start_server() {
  local port=$1 log=$2
  shift 2
  java -Xmx512m "$@" -jar target/arbiter.jar serve --host 127.0.0.1 --port "$port" ${SERVE_OPTIONS:-} > "$log" 2>&1 &
  server_pid=$!
  trap 'kill $server_pid 2>/dev/null || true' EXIT
  until curl -sf "http://127.0.0.1:$port/readyz" > /dev/null; do
    kill -0 $server_pid 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.2
  done
}

# The server's heap in use after a full GC, e.g. 41234K.
heap_after_gc() {
  jcmd $server_pid GC.run > /dev/null; sleep 1
  jcmd $server_pid GC.heap_info | grep -m1 -o 'used [0-9]*K' | grep -o '[0-9]*K'
}

driver_classpath() {
  echo "target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
}
