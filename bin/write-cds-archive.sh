#!/usr/bin/env bash
# Replaces the class-data sharing archive ./mvnw package writes (target/quarkus-app/app-cds.jsa) by one of a real
# start and first requests: the packaged service runs once on its embedded defaults (a throwaway embedded PostgreSQL
# with Chinook), with -XX:ArchiveClassesAtExit, answers run_sql, introspect_schema, search_knowledge, the tool list, an
# MCP initialize, health, metrics and the chat page, and is stopped; the JVM writes at exit every class it loaded
# that the JDK's own archive does not hold. Quarkus's archive stops after static initialisation, so everything the
# start itself loads (the HTTP server, the store's pool, Hibernate, MCP, OpenAPI, ...) is missing from it: with this
# one a start takes about a fifth less CPU (docs/benchmarks.md, "Start-up and memory").
#
#   bin/write-cds-archive.sh                       # target/quarkus-app
#   bin/write-cds-archive.sh /deployments          # another directory holding quarkus-run.jar
#
# Run the service as before, in that directory: java -XX:SharedArchiveFile=app-cds.jsa -jar quarkus-run.jar. The
# archive fits only the JVM that wrote it and the files as they are (a copy keeps it valid only with their times:
# cp -a); a JVM that cannot use it says "Unable to use shared archive" and starts without it.
set -euo pipefail

app="${1:-$(cd "$(dirname "$0")/.." && pwd)/target/quarkus-app}"
app="$(cd "$app" && pwd)"
if [ ! -f "$app/quarkus-run.jar" ]; then
  echo "no quarkus-run.jar in $app (./mvnw package first)" >&2
  exit 2
fi
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
  || shuf -i 20000-40000 -n 1)"
url="http://127.0.0.1:$port"
scratch="$(mktemp -d)"
written="$scratch/app-cds.jsa"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

# In the application's directory, as it is run: the archive records the class path as it was named then.
# No -XX:SharedArchiveFile: a dynamic archive is written on top of the JDK's own archive only.
(cd "$app" && exec env -u QUARKUS_PROFILE SQLAGENT_EMBEDDED_EPHEMERAL=true SQLAGENT_VECTOR_PATH="$scratch/vectors" \
  "$java" -XX:ArchiveClassesAtExit="$written" -Dquarkus.http.port="$port" -Dquarkus.http.host=127.0.0.1 \
  -jar quarkus-run.jar >"$scratch/service.log" 2>&1) &
pid=$!
for _ in $(seq 1 3600); do
  if curl -fs -o /dev/null "$url/q/health/ready"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$scratch/service.log" >&2
    echo "the service exited before it was ready" >&2
    exit 1
  fi
  sleep 0.1
done
curl -fs -o /dev/null "$url/q/health/ready" || { echo "the service was not ready within 6 minutes" >&2; exit 1; }

# The first requests (the usual ones; the model is not needed for any of them). Failures do not matter: the classes
# they load are what counts.
post() {
  curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d "$2" "$url$1" || true
}
post /api/tools/run_sql '{"sql":"SELECT a.name, count(*) FROM artist a JOIN album b USING (artist_id) GROUP BY 1 LIMIT 5"}'
post /api/tools/introspect_schema '{}'
post /api/tools/introspect_schema '{"table":"album"}'
post /api/tools/search_knowledge '{"query":"artists"}'
post /mcp '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"cds","version":"1"}}}'
for path in /api/tools /q/health /q/metrics /; do
  curl -s -o /dev/null "$url$path" || true
done

kill "$pid"
wait "$pid" 2>/dev/null || true
pid=""
if [ ! -s "$written" ]; then
  tail -20 "$scratch/service.log" >&2
  echo "the JVM wrote no archive" >&2
  exit 1
fi
mv -f "$written" "$app/app-cds.jsa"
echo "wrote $app/app-cds.jsa ($(($(stat -c %s "$app/app-cds.jsa") / 1048576)) MB)"
