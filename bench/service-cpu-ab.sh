#!/usr/bin/env bash
# Two builds' service CPU per run_sql call, side by side (docs/benchmarks.md, "Service CPU per call"): both packaged
# services start against one throwaway PostgreSQL (bench/lib/external-service.sh), are loaded in turn until their JIT
# compilers settle, then take turns, round by round (the order flips each round), at REST (hey) and MCP
# (bench/lib/mcp-load.mjs) with IN_FLIGHT calls in flight. Each line: round, build, transport, calls/s, the JVM's CPU
# (user + system, from /proc) per call in ms, the share of it in the kernel, the kB the JVM allocated per call (with
# ALLOC=1), the load, and PostgreSQL's CPU per call (the postmaster and every backend: both builds share the cluster and
# are loaded in turn). Both builds see the same database, machine and minutes, which two separate runs on a shared
# machine do not. The allocation comes from a recording of each thread's allocated bytes alone
# (bench/lib/allocation.jfc): unlike the CPU, the machine's load does not move it, so it shows a change of a few per
# cent that the CPU's noise hides; but a recording JVM spends more CPU per call, so measure the CPU without ALLOC.
#
#   bench/service-cpu-ab.sh /tmp/before/quarkus-app target/quarkus-app        # ROUNDS=4 SECS=10 IN_FLIGHT=8
#   ALLOC=1 SQL="SELECT * FROM track ORDER BY track_id LIMIT 1000" MODES=mcp bench/service-cpu-ab.sh A B
#   B_OPTS=-Dquarkus.vertx.event-loops-pool-size=2 bench/service-cpu-ab.sh target/quarkus-app target/quarkus-app
#
# Env: ALLOC, A_OPTS, B_OPTS (each build's java options), SQL (count(*) of track), ROUNDS, SECS, IN_FLIGHT, MODES
# ("rest mcp"), WARM (seconds per build and transport, 30), SETTLE (most seconds to wait for each JIT, 120).
# Needs hey, node, the JDK's jcmd and jfr, and PostgreSQL's server binaries.
set -euo pipefail
a_dir="$1"
b_dir="$2"
cd "$(dirname "$0")/.."
. bench/lib/external-service.sh
start_databases
sql="${SQL:-SELECT count(*) FROM track}"
body="$work/body.json"
run_sql_body "$sql" "$body"
pids=()
urls=()
opts=("${A_OPTS:-}" "${B_OPTS:-}")
for i in 0 1; do
  dir="$a_dir"
  if [ "$i" = 1 ]; then dir="$b_dir"; fi
  # shellcheck disable=SC2086 # the options are words
  start_service "$(service_jar "$dir")" ${opts[$i]}
  pids+=("$service_pid")
  urls+=("$url")
  # start_service keeps one pid for the exit trap: the first service is stopped here.
  service_pid=""
done
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; stop_all' EXIT
ticks() {
  python3 -c '
import sys; s=open(f"/proc/{sys.argv[1]}/stat").read(); r=s[s.rindex(")")+2:].split(); print(r[11], r[12])' "$1"
}
# Prints the calls answered (all checked) of LOAD seconds of MODE against URL.
load() {
  local mode="$1" url="$2" secs="$3"
  case $mode in
    rest) hey -z "${secs}s" -c "${IN_FLIGHT:-8}" -m POST -T application/json -D "$body" "$url/api/tools/run_sql" |
      awk '/^  \[200\]/ {ok = $2} /^  \[[013-9]/ {bad++} END {if (bad) {print "non-200 answers" > "/dev/stderr"; exit 1}; print ok}' ;;
    mcp) node bench/lib/mcp-load.mjs "$url/mcp" "$sql" "$secs" "${IN_FLIGHT:-8}" ;;
  esac
}
modes="${MODES:-rest mcp}"
for i in 0 1; do
  for mode in $modes; do load "$mode" "${urls[$i]}" "${WARM:-30}" >/dev/null; done
  ( while [ ! -f "$work/settled.$i" ]; do for mode in $modes; do load "$mode" "${urls[$i]}" 3 >/dev/null; done; done ) &
  loader=$!
  printf '# build %s (%s): %s\n' "$i" "$([ "$i" = 0 ] && echo "$a_dir" || echo "$b_dir")" \
    "$(python3 bench/lib/cpu.py settle "${pids[$i]}" --max "${SETTLE:-120}") ${opts[$i]}"
  touch "$work/settled.$i"
  wait "$loader"
done
hz=$(getconf CLK_TCK)
# PostgreSQL's CPU seconds so far: the postmaster and every backend, exited ones too (both builds share the cluster and
# are loaded in turn, so a window's share is the loaded build's).
pg_seconds() {
  python3 bench/lib/cpu.py snapshot postgres="$postgres_pid" | python3 -c 'import json, sys; print(json.load(sys.stdin)["postgres"])'
}
# With ALLOC=1, the bytes each build allocates: one recording of nothing but each thread's allocated bytes every
# 100 ms (bench/lib/allocation.jfc), started once and read at the end. Not by default: a JVM recording anything
# spends about twice the CPU per call (seen at 8 in flight), so its CPU column is then not comparable to a run without.
alloc="${ALLOC:-0}"
for i in 0 1; do
  if [ "$alloc" != 1 ]; then break; fi
  jcmd "${pids[$i]}" JFR.start name=alloc settings="$PWD/bench/lib/allocation.jfc" filename="$work/alloc-$i.jfr" >/dev/null
done
if [ "$alloc" = 1 ]; then sleep 5; fi
rows="$work/rows.tsv"
: >"$rows"
for round in $(seq 1 "${ROUNDS:-4}"); do
  order="0 1"
  if [ $((round % 2)) -eq 0 ]; then order="1 0"; fi
  for i in $order; do
    for mode in $modes; do
      t0=$(date +%s%N)
      p0=$(pg_seconds)
      read -r u0 s0 < <(ticks "${pids[$i]}")
      calls=$(load "$mode" "${urls[$i]}" "${SECS:-10}")
      read -r u1 s1 < <(ticks "${pids[$i]}")
      p1=$(pg_seconds)
      t1=$(date +%s%N)
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$i" "$mode" "$calls" "$((u1 - u0))" "$((s1 - s0))" \
        "$(cut -d' ' -f1 /proc/loadavg)" "$t0 $t1" "$(awk -v a="$p0" -v b="$p1" 'BEGIN {print b - a}')" >>"$rows"
    done
  done
done
for i in 0 1; do
  if [ "$alloc" != 1 ]; then
    awk -F'\t' -v b="$i" '$2 == b {print -1}' "$rows" >"$work/allocated-$i"
    continue
  fi
  jcmd "${pids[$i]}" JFR.stop name=alloc >/dev/null
  # shellcheck disable=SC2046 # the windows are words
  python3 bench/lib/allocated.py "$work/alloc-$i.jfr" $(awk -F'\t' -v b="$i" '$2 == b {print $8}' "$rows") \
    >"$work/allocated-$i"
done
printf 'round\tbuild\tmode\tcalls_per_s\tcpu_ms_per_call\tkernel_share\talloc_kb_per_call\tload\tpostgres_ms_per_call\n'
python3 - "$rows" "$work/allocated-0" "$work/allocated-1" "${SECS:-10}" "$hz" <<'PY'
import sys
rows, secs, hz = sys.argv[1], float(sys.argv[4]), int(sys.argv[5])
allocated = [iter(open(f).read().split()) for f in sys.argv[2:4]]
for line in open(rows):
    r, b, mode, calls, du, ds, load, _, pg = line.rstrip("\n").split("\t")
    calls, du, ds = int(calls), int(du), int(ds)
    bytes_ = int(next(allocated[int(b)]))
    kb = "-" if bytes_ < 0 else f"{bytes_ / 1024 / calls:.1f}"
    print(f"{r}\t{'AB'[int(b)]}\t{mode}\t{calls / secs:.0f}\t{(du + ds) * 1000 / hz / calls:.3f}\t{ds / max(du + ds, 1):.2f}"
          f"\t{kb}\t{load}\t{float(pg) * 1000 / calls:.3f}")
PY
