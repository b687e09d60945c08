# Sourced by bench/run-sql-vs-pgbench.sh and bench/mcp-vs-reference.sh: a throwaway PostgreSQL with
# Chinook (database chinook) and an empty store (database sqlagent), and the
# packaged service started against both, as a deployment runs it (no embedded server).
#
# common_options "$@"        the options both scripts take (see there)
# start_databases            sets pgbin, pgport, work, postgres_pid (the postmaster); exports PGHOST, PGPORT, PGUSER;
#                            env BENCH_PG_OPTIONS adds server options (e.g. "-c shared_preload_libraries=pg_stat_statements")
# start_service JAR OPTS...  sets service_pid, url, ready_ms (launch to /q/health/ready), rss_kb (after start)
# run_sql_body SQL FILE      writes run_sql's arguments {"sql": SQL} to FILE, for hey's -D
# reference_server           installs the reference MCP server from npm when missing; prints its script's path
# settle_jit LOADER...       runs LOADER (a command that loads the service until the file $work/load.stop
#                            exists) until the service's JIT compilers settle; sets settle_note
# Everything is stopped on exit.

pgbin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$pgbin" ] || [ ! -x "$pgbin/pgbench" ]; then
  echo "PostgreSQL's binaries and pgbench are missing (apt-get install postgresql)" >&2
  exit 2
fi

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
    || shuf -i 20000-40000 -n 1
}

# The cluster lives in target/bench-pg; as root, in a directory under /tmp that user nobody owns (initdb
# and postgres refuse to run as root, and nobody may not reach a checkout under /root).
if [ "$(id -u)" -eq 0 ]; then
  work="$(mktemp -d /tmp/sqlagent-bench-pg.XXXXXX)"
  chown nobody "$work"
else
  work="$(pwd)/target/bench-pg"
fi
service_pid=""
as=()
if [ "$(id -u)" -eq 0 ]; then
  as=(runuser -u nobody --)
fi
stop_all() {
  if [ -n "$service_pid" ]; then
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
  fi
  "${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  if [ "$(id -u)" -eq 0 ]; then rm -rf "$work"; fi
}
trap stop_all EXIT

start_databases() {
  if [ "$(id -u)" -ne 0 ]; then
    rm -rf "$work"
    mkdir -p "$work"
  fi
  pgport="$(free_port)"
  "${as[@]}" "$pgbin/initdb" -D "$work/data" -U postgres -A trust -E UTF8 --no-locale >"$work/initdb.log" 2>&1
  # Durability off (fsync, synchronous_commit): read-only statements do not need it, and the store's
  # audit writes should not wait for a shared disk. The same server serves both sides of a comparison.
  "${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/postgres.log" -w \
    -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=100 ${BENCH_PG_OPTIONS:-}" \
    start >/dev/null
  export PGHOST=127.0.0.1 PGPORT=$pgport PGUSER=postgres
  "$pgbin/psql" -q -d postgres -c 'CREATE DATABASE sqlagent'
  # The script creates database chinook itself and connects to it.
  "$pgbin/psql" -q -d postgres -v ON_ERROR_STOP=1 -f src/main/resources/db/chinook/chinook-postgres.sql \
    >/dev/null 2>"$work/chinook.log"
  "$pgbin/psql" -q -d chinook -c 'VACUUM ANALYZE'
  postgres_pid="$(head -1 "$work/data/postmaster.pid")"
}

# The service with both databases external; max-rows and the result cap raised so 3,503 rows come back
# whole, the source's pool as large as the most clients, so that no side queues for a connection. It runs
# in the jar's directory, as the README runs it: a class-data archive (app-cds.jsa) is valid only for the
# class path it was written with, quarkus-run.jar there.
start_service() {
  local jar="$1"
  shift
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  local httpport started
  httpport="$(free_port)"
  started=$(date +%s%N)
  env -u QUARKUS_PROFILE \
    QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://127.0.0.1:$pgport/sqlagent" QUARKUS_DATASOURCE_USERNAME=postgres \
    QUARKUS_DATASOURCE_PASSWORD=postgres \
    SQLAGENT_SOURCES_DEFAULT_URL="postgresql://127.0.0.1:$pgport/chinook" SQLAGENT_SOURCES_DEFAULT_USERNAME=postgres \
    SQLAGENT_SOURCES_DEFAULT_PASSWORD=postgres SQLAGENT_SOURCES_DEFAULT_MAX_POOL_SIZE=8 \
    SQLAGENT_EMBEDDED_ENABLED=false SQLAGENT_SQL_MAX_ROWS=5000 SQLAGENT_SQL_MAX_RESULT_SIZE=8M \
    SQLAGENT_VECTOR_PATH="$work/vectors" \
    bash -c 'cd "$(dirname "$0")" && exec "$@"' "$jar" "$java" "$@" -Dquarkus.http.port="$httpport" \
    -jar "$(basename "$jar")" >"$work/service.log" 2>&1 &
  service_pid=$!
  url="http://127.0.0.1:$httpport"
  await_ready "$started" 3000
}

# Waits for the service started at $1 (date +%s%N) to be ready, polling every 50 ms at most $2 times; stops the
# script with the service's log if it exits first. Sets ready_ms and rss_kb (at ready).
await_ready() {
  local started="$1" tries="$2"
  for _ in $(seq 1 "$tries"); do
    if curl -fs -o /dev/null "$url/q/health/ready"; then break; fi
    if ! kill -0 "$service_pid" 2>/dev/null; then
      cat "$work/service.log" >&2
      echo "the service exited" >&2
      exit 1
    fi
    sleep 0.05
  done
  ready_ms=$(( ($(date +%s%N) - started) / 1000000 ))
  rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$service_pid/status")
}

# Options both scripts take; sets rounds, seconds, warmup, clients, check, out, app, service_opts, settle_max
# (empty unless given: the script's default, 180 s or --quick's 60 s, applies) and
# leaves the script's own options in rest[] (unknown ones fail there).
common_options() {
  rest=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --rounds) rounds="$2"; shift 2 ;;
      --seconds) seconds="$2"; shift 2 ;;
      --warmup) warmup="$2"; shift 2 ;;
      --clients) clients="$2"; shift 2 ;;
      --check) check=true; shift ;;
      --service-opt) service_opts+=("$2"); shift 2 ;;
      --app) app="$2"; shift 2 ;;
      --out) out="$2"; shift 2 ;;
      --settle-max) settle_max="$2"; shift 2 ;;
      --no-settle) settle_max=0; shift ;;
      *) rest+=("$1"); shift ;;
    esac
  done
}
rounds=3
seconds=5
warmup=10
clients="1 8"
check=false
app=""
service_opts=()
settle_max=""

# The packaged service: APP's, or this tree's (built when src/main or pom.xml is newer than the jar).
run_sql_body() {
  python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1]}))' "$1" >"$2"
}

service_jar() {
  if [ -n "${1:-}" ]; then
    echo "$1/quarkus-run.jar"
    return
  fi
  local jar=target/quarkus-app/quarkus-run.jar
  if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -type f -print -quit)" ]; then
    ./mvnw -B -q -ntp -DskipTests -DskipITs package >&2
  fi
  echo "$jar"
}

# The commit measured, or the app directory given.
measured() {
  if [ -n "${1:-}" ]; then
    echo "app $1"
    return
  fi
  local commit
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  if [ -n "$(git status --porcelain -- src pom.xml 2>/dev/null)" ]; then commit="$commit+changes"; fi
  echo "$commit"
}

# The reference MCP Postgres server (npm @modelcontextprotocol/server-postgres 0.6.2, stdio), installed into
# target/mcp-reference when missing; prints the path of its script (run it with node).
reference_server() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "node and npm are missing (apt-get install nodejs npm)" >&2
    exit 2
  fi
  local script=target/mcp-reference/node_modules/@modelcontextprotocol/server-postgres/dist/index.js
  if [ ! -f "$script" ]; then
    mkdir -p target/mcp-reference
    npm install --prefix target/mcp-reference --no-audit --no-fund --loglevel=error \
      @modelcontextprotocol/server-postgres@0.6.2 >&2
  fi
  echo "$script"
}

# Steady state before measuring: after the fixed warm-up the service's JIT is still compiling (C2 took about
# 0.9 s of CPU per second for the first minute of load of count(*) at 8 clients, and the service's rate rose
# 9-fold over 70 s). A service runs for days and pgbench has no JIT, so measuring the compile is measuring the
# wrong thing: LOADER keeps loading the service until its compiler threads used less than 5 % of a CPU over
# the last 5 s, at most settle_max seconds (0: not at all, the fixed warm-up alone as before).
settle_jit() {
  if [ "$settle_max" = 0 ]; then
    settle_note="JIT settling off: measured after the fixed warm-up alone"
    return
  fi
  rm -f "$work/load.stop"
  "$@" &
  local loader=$!
  settle_note="$(python3 bench/lib/cpu.py settle "$service_pid" --max "$settle_max")"
  touch "$work/load.stop"
  wait "$loader"
  echo "$settle_note" >&2
}
