#!/usr/bin/env bash
# Runs the concurrent-chats load test (ChatLoad): the packaged service in its own JVM against a
# scripted model with a fixed time per turn; prints a summary and writes target/chat-load.json.
# See docs/benchmarks.md, "Concurrent chats".
#
#   bench/chat-load.sh                                  # the goal: 500 conversations x 2 questions, 200 ms per turn, -Xmx512m
#   bench/chat-load.sh --conversations 100              # a smaller run
#   bench/chat-load.sh --service-opt -Dname=value       # a setting for the service (repeatable)
#
# Options: --conversations N, --questions N, --turn-latency 200ms, --heap 512m, --warmup N,
# --ramp 0ms, --service-opt -Dname=value, --out target/chat-load.json. Exits 1 if any run failed.
#
# It builds the jar (package -DskipTests) when src/ or pom.xml is newer than it, and runs from
# target/ of the tree it sits in, so run it in a tree nobody else is building at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

jar=target/quarkus-app/quarkus-run.jar
if [ ! -f "$jar" ] || [ -n "$(find src pom.xml -newer "$jar" -type f -print -quit)" ]; then
  ./mvnw -B -q -ntp -DskipTests package
fi
if [ ! -f target/bench-classpath.txt ] || [ pom.xml -nt target/bench-classpath.txt ]; then
  ./mvnw -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
fi

# The service and the virtual users each hold a connection per conversation, the model client one per turn in flight.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

commit="$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
if [ -n "$(git status --porcelain -- src pom.xml 2>/dev/null)" ]; then
  commit="$commit+changes"
fi

exec java -Xmx1g -Dbench.commit="$commit" -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  io.sqlagent.bench.ChatLoad "$@"
