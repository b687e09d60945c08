#!/usr/bin/env bash
# REST run_sql against pgbench on the same PostgreSQL, the same statements, in interleaved rounds:
# prints calls/s of each side and the median of the per-round ratios (service ÷ pgbench), with the
# machine's load, plus the service's start-to-ready time and RSS after start. See docs/benchmarks.md,
# "run_sql against pgbench".
#
#   bench/run-sql-vs-pgbench.sh                       # the full run: 4 statements x 1 and 8 clients, 3 rounds of 5 s
#   bench/run-sql-vs-pgbench.sh --rounds 5 --seconds 10
#   bench/run-sql-vs-pgbench.sh --quick --check       # CI's regression check: count(*) and the join, fails under the floors
#
# Options: --rounds N (3), --seconds S per measurement (5), --warmup S per statement (10), --clients "1 8",
# --settle-max S (180): after the warm-up, load the service until its JIT compilers are idle, at most S
# seconds (--settle-max 0 or --no-settle: not at all, as before), --quick (count and join, 3 rounds of 2 s,
# warm-up 5 s, settle at most 60 s), --statements="rows1000 rows3503" (only those, of count join rows1000
# rows3503), --check (exit 3 when a ratio is below its floor: half the goal),
# --service-opt -Dname=value (repeatable), --out FILE (target/run-sql-vs-pgbench.txt), --app DIR (another
# packaged service, for example an older build's quarkus-app, to measure it the same way).
#
# A second table gives the CPU per call of each process: the service, PostgreSQL (the postmaster and all its
# backends, also those that exited) and the load generator (hey, pgbench), where a ratio's limit lies.
#
# Needs PostgreSQL's server binaries and pgbench (Debian: postgresql; found under /usr/lib/postgresql/*/bin)
# and hey (Debian: hey), the HTTP load generator for the service. A throwaway cluster is made under
# target/bench-pg and removed at the end. The service is the packaged jar (built when src/ or pom.xml is
# newer), run with both databases external, as a deployment runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/lib/external-service.sh
statements="count join rows1000 rows3503"
out=target/run-sql-vs-pgbench.txt
common_options "$@"
for option in "${rest[@]}"; do
  case "$option" in
    --quick) statements="count join"; rounds=3; seconds=2; warmup=5; settle_max="${settle_max:-60}" ;;
    --statements=*) statements="${option#--statements=}" ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
  esac
done
settle_max="${settle_max:-180}"
# Fails early when hey is missing.
. bench/lib/rest-sides.sh

jar="$(service_jar "$app")"
start_databases

start_service "$jar" "${service_opts[@]}"
for s in $statements; do body_file "$s"; done

for s in $statements; do check_answer "$s"; done
# Warm-up: the JIT, the pools, the caches; not measured.
for s in $statements; do
  hey -z "${warmup}s" -c 8 -m POST -T application/json -D "$work/$s.json" "$url/api/tools/run_sql" >/dev/null
done
# Then every statement in turn, 8 clients, until the JIT has settled (bench/lib/external-service.sh, settle_jit).
load_until_stopped() {
  while [ ! -e "$work/load.stop" ]; do
    for s in $statements; do
      hey -z 1s -c 8 -m POST -T application/json -D "$work/$s.json" "$url/api/tools/run_sql" >/dev/null
    done
  done
}
settle_jit load_until_stopped

results="$work/results.tsv"
: >"$results"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for s in $statements; do
    for c in $clients; do
      # The order within a round rotates, so no side always runs right after the warm JIT of another.
      case $(( round % 3 )) in
        1) order="service plain wrapped" ;;
        2) order="plain wrapped service" ;;
        *) order="wrapped service plain" ;;
      esac
      for side in $order; do
        case $side in
          service) rate="$(service_rate "$s" "$c")" ;; # "calls/s<TAB>name=CPU ms per call..."
          plain) rate="$(pgbench_rate "$s" "$c" "$work/$s.plain.sql")" ;;
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
python3 bench/lib/ratio-table.py "$results" --clients "$clients" "${check_flag[@]}" \
  --note "commit $(measured "$app"); $rounds rounds of $seconds s per side; loadavg before $load_before, after $load_after" \
  --note "$settle_note" \
  --note "start to ready $(awk -v ms="$ready_ms" 'BEGIN {printf "%.2f", ms / 1000}') s; RSS after start $((rss_kb / 1024)) MB" \
  --statement count="SELECT count(*) FROM track" --statement join="a top-10 join" \
  --statement rows1000="1,000 rows" --statement rows3503="3,503 rows" \
  --baseline plain="÷ pgbench -M prepared" \
  --baseline wrapped="÷ pgbench in the read-only transaction wrapping" \
  --cpu service=service --cpu postgres=PostgreSQL --cpu client="client (hey, pgbench)" --service "REST run_sql" \
  --row "REST run_sql {baseline}, {statement}" \
  --goal wrapped:count=0.8 --goal wrapped:join=0.8 --goal wrapped:rows1000=0.6 --goal plain:count=0.5 \
  | tee "$out"
