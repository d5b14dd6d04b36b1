#!/usr/bin/env bash
# Heap after a full GC every N of M rule reloads (io.arbiter.bench.ReloadMemory): flat means a released rule base
# leaves nothing behind. Soft references are cleared at every GC (SoftRefLRUPolicyMSPerMB=0): the JDK's class loader
# keeps a softly held cache of every resource name looked up (each build looks for its own precompiled kjar), which a
# JVM clears before it runs out of memory, so it is not what a reload retains.
#
#   bash bench/reload-memory.sh [reloads=500] [every=50] [policy type=test.greeting]
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
exec java -Xmx2g -XX:+UseSerialGC -XX:SoftRefLRUPolicyMSPerMB=0 -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    io.arbiter.bench.ReloadMemory "$@"
