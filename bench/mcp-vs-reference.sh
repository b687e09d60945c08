#!/usr/bin/env bash
# MCP tools/call of the service (run_sql, streamable HTTP) against the reference MCP Postgres server
# (npm @modelcontextprotocol/server-postgres 0.6.2, tool query, stdio) on the same PostgreSQL, the same
# statements, the same bare JSON-RPC client (bench/mcp-client.mjs), in interleaved rounds: prints the
# median of the per-round ratios (service ÷ reference) with the machine's load, and both servers'
# start-to-ready time and RSS after start. See docs/benchmarks.md, "MCP against the reference server".
#
#   bench/mcp-vs-reference.sh                       # 3 rounds of 5 s, count(*) and the join, 1 and 8 calls in flight
#   bench/mcp-vs-reference.sh --quick --check       # fails when a ratio is below its floor (half the goal of 1.5)
#
# Options: --rounds N (3), --seconds S (5), --warmup S per statement and side (10), --clients "1 8",
# --settle-max S (180): after the warm-up, load the service until its JIT compilers are idle, at most S
# seconds (--settle-max 0 or --no-settle: not at all, as before), --quick (3 rounds of 2 s, warm-up 5 s,
# settle at most 60 s), --check (exit 3 when a ratio is below its floor), --service-opt -Dname=value
# (repeatable), --app DIR, --out FILE (target/mcp-vs-reference.txt).
#
# A second table gives the CPU per call of the server measured (the service's JVM, the reference's node
# process), PostgreSQL (the postmaster and all its backends) and the client.
#
# Needs node and npm (the reference server is installed from npm into target/mcp-reference) and
# PostgreSQL's server binaries (see bench/lib/external-service.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/lib/external-service.sh
out=target/mcp-vs-reference.txt
common_options "$@"
for option in "${rest[@]}"; do
  case "$option" in
    --quick) rounds=3; seconds=2; warmup=5; settle_max="${settle_max:-60}" ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
  esac
done
settle_max="${settle_max:-180}"

reference="$(reference_server)"

jar="$(service_jar "$app")"
start_databases
start_service "$jar" "${service_opts[@]}"

statements='{"count": "SELECT count(*) FROM track", "join": "SELECT ar.name, count(*) AS tracks FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 10"}'
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
node bench/mcp-client.mjs --statements "$statements" --clients "$clients" --rounds "$rounds" --seconds "$seconds" \
  --warmup "$warmup" --settle-max "$settle_max" --service "$url/mcp" --service-pid "$service_pid" \
  --postgres-pid "$postgres_pid" --reference-command node \
  --reference-args "[\"$reference\", \"postgresql://postgres@127.0.0.1:$pgport/chinook\"]" >"$work/mcp.tsv"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

mkdir -p "$(dirname "$out")"
check_flag=()
if [ "$check" = true ]; then check_flag=(--check); fi
python3 bench/lib/ratio-table.py "$work/mcp.tsv" --clients "$clients" --unit "in flight" "${check_flag[@]}" \
  --note "commit $(measured "$app"); $rounds rounds of $seconds s per side; loadavg before $load_before, after $load_after" \
  --note "service: start to ready $(awk -v ms="$ready_ms" 'BEGIN {printf "%.2f", ms / 1000}') s, RSS after start $((rss_kb / 1024)) MB" \
  --statement count="SELECT count(*) FROM track" --statement join="a top-10 join" \
  --baseline reference="÷ the reference server" --row "MCP tools/call {baseline}, {statement}" \
  --service "MCP tools/call, the service" --cpu server="server (the service's JVM, the reference's node)" \
  --cpu postgres=PostgreSQL --cpu client="client (node)" \
  --goal reference:count=1.5 --goal reference:join=1.5 \
  | tee "$out"
