#!/usr/bin/env bash
# CPU per call, the unit of issue 31's goals (docs/benchmarks.md, "CPU per call"): one start of the packaged service
# and of the reference MCP Postgres server on one throwaway PostgreSQL, then, after the service's JIT settled, rounds
# of each side with the same statements (count(*), the top-10 join, 1,000 rows of track), each process's CPU time
# (utime + stime from /proc) divided by the calls it served:
#   MCP:  the service's run_sql over streamable HTTP and the reference's query over stdio (bench/mcp-client.mjs);
#   REST: the service's POST /api/tools/run_sql (hey) and pgbench -M prepared running the statement inside the
#         service's read-only transaction wrapping (bench/lib/rest-sides.sh).
# It prints the medians per call of the service's JVM, all of PostgreSQL's processes and the client, next to the
# anchors', the goal ratios (service ÷ the reference server ≤ 1; PostgreSQL ÷ the anchor's PostgreSQL ≤ 1.2) and
# their spread over the rounds, with the machine's load.
#
#   bench/cpu-per-call.sh                          # 3 rounds of 5 s per side, 8 calls in flight
#   bench/cpu-per-call.sh --rounds 5 --clients "1 8"
#   bench/cpu-per-call.sh --quick --check          # CI: exit 3 when a ratio is above its goal
#   bench/cpu-per-call.sh --floor --statements=count   # adds MCP's own ping on both sides: each side's transport
#                                                  # and protocol alone, the floor under every tools/call
#
# Options as bench/mcp-vs-reference.sh's (--rounds, --seconds, --warmup, --clients (here "8"), --settle-max,
# --quick, --check, --service-opt, --app, --out (target/cpu-per-call.txt)) and --statements="count join".
# Needs node and npm, PostgreSQL's server binaries with pgbench, and hey.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/lib/external-service.sh
statements="count join rows1000"
out=target/cpu-per-call.txt
clients=8
floor=false
common_options "$@"
for option in "${rest[@]}"; do
  case "$option" in
    --quick) rounds=3; seconds=2; warmup=5; settle_max="${settle_max:-60}" ;;
    --statements=*) statements="${option#--statements=}" ;;
    --floor) floor=true ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
  esac
done
settle_max="${settle_max:-180}"
. bench/lib/rest-sides.sh

reference="$(reference_server)"
jar="$(service_jar "$app")"
start_databases
start_service "$jar" "${service_opts[@]}"
for s in $statements; do
  body_file "$s"
  check_answer "$s"
done

results="$work/results.tsv"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# MCP first: its warm-up and settling of the JIT serve the REST rounds too (the same runner beneath).
mcp_statements="$(for s in $statements; do printf '%s\t%s\n' "$s" "$(sql_of "$s")"; done |
  python3 -c 'import json, sys
statements = dict(line.rstrip("\n").split("\t", 1) for line in sys.stdin)
if sys.argv[1] == "true":
    statements["ping"] = None  # MCP ping on both sides (bench/mcp-client.mjs): the floor under a tools/call
print(json.dumps(statements))' "$floor")"
node bench/mcp-client.mjs --statements "$mcp_statements" --clients "$clients" --rounds "$rounds" --seconds "$seconds" \
  --warmup "$warmup" --settle-max "$settle_max" --service "$url/mcp" --service-pid "$service_pid" \
  --postgres-pid "$postgres_pid" --reference-command node \
  --reference-args "[\"$reference\", \"postgresql://postgres@127.0.0.1:$pgport/chinook\"]" |
  awk -F'\t' 'BEGIN {OFS = "\t"} /^#/ {print; next} {$4 = ($4 == "service" ? "mcp" : $4); print}' >"$results"
for s in $statements; do
  hey -z "${warmup}s" -c 8 -m POST -T application/json -D "$work/$s.json" "$url/api/tools/run_sql" >/dev/null
done
for round in $(seq 1 "$rounds"); do
  for s in $statements; do
    for c in $clients; do
      order="rest wrapped"
      if [ $(( round % 2 )) -eq 0 ]; then order="wrapped rest"; fi
      for side in $order; do
        case $side in
          rest) rate="$(service_rate "$s" "$c")" ;;
          wrapped) rate="$(pgbench_rate "$s" "$c" "$work/$s.wrapped.sql")" ;;
        esac
        printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$s" "$c" "$side" "$rate" >>"$results"
      done
    done
  done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
for s in $statements; do check_answer "$s"; done

mkdir -p "$(dirname "$out")"
check_flag=()
if [ "$check" = true ]; then check_flag=(--check); fi
python3 bench/lib/cpu-table.py "$results" "${check_flag[@]}" \
  --note "commit $(measured "$app"); $rounds rounds of $seconds s per side, in flight: $clients; loadavg before $load_before, after $load_after" \
  --note "service: start to ready $(awk -v ms="$ready_ms" 'BEGIN {printf "%.2f", ms / 1000}') s, RSS after start $((rss_kb / 1024)) MB" \
  | tee "$out"
