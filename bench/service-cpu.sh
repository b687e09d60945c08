#!/usr/bin/env bash
# The service's CPU per REST run_sql call (docs/benchmarks.md, "Service CPU per call"): one start of a packaged
# service against a throwaway PostgreSQL (bench/lib/external-service.sh), WARM seconds of 8 clients first, then
# ROUNDS runs of SECS seconds at each client count of CS; prints calls/s, mean latency and the service process's
# CPU (user + system) per call. Compare two builds by running it for each, interleaved.
#
#   bench/service-cpu.sh /tmp/before/quarkus-app                # WARM=70 ROUNDS=2 SECS=10 CS="8 1"
#   TAG=after bench/service-cpu.sh target/quarkus-app -Dquarkus.vertx.event-loops-pool-size=2
#   SETTLE=150 WARM=20 bench/service-cpu.sh target/quarkus-app    # measured once the JIT has settled
#
# Needs hey (Debian: hey) and PostgreSQL's server binaries.
set -euo pipefail
# Not $app: bench/lib/external-service.sh sets that one to "" (its scripts take --app).
app_dir="$1"
shift
cd "$(dirname "$0")/.."
. bench/lib/external-service.sh
start_databases
sql="${SQL:-SELECT count(*) FROM track}"
body="$work/body.json"
run_sql_body "$sql" "$body"
start_service "$(service_jar "$app_dir")" "$@"
ticks() {
  python3 -c '
import sys; s=open(f"/proc/{sys.argv[1]}/stat").read(); r=s[s.rindex(")")+2:].split(); print(int(r[11])+int(r[12]))' "$service_pid"
}
# CPU ticks of the JIT compiler, GC and VM threads of the service.
jit_gc_ticks() {
  python3 -c '
import os, re, sys
total = 0
for t in os.listdir(f"/proc/{sys.argv[1]}/task"):
    try:
        s = open(f"/proc/{sys.argv[1]}/task/{t}/stat").read()
    except OSError:
        continue
    if re.match(r"(C1|C2) CompilerThre|GC Thread|G1 |VM Thread", s[s.index("(") + 1:s.rindex(")")]):
        r = s[s.rindex(")") + 2:].split(); total += int(r[11]) + int(r[12])
print(total)' "$service_pid"
}
hey -z "${WARM:-70}s" -c 8 -m POST -T application/json -D "$body" "$url/api/tools/run_sql" >/dev/null || true
if [ "${SETTLE:-0}" != 0 ]; then
  hey -z "$((SETTLE + 10))s" -c 8 -m POST -T application/json -D "$body" "$url/api/tools/run_sql" >/dev/null &
  loader=$!
  python3 bench/lib/cpu.py settle "$service_pid" --max "$SETTLE"
  kill "$loader" 2>/dev/null || true
  wait "$loader" 2>/dev/null || true
fi
for c in ${CS:-8 1}; do
  for _ in $(seq 1 "${ROUNDS:-2}"); do
    t0=$(ticks)
    j0=$(jit_gc_ticks)
    load=$(cut -d' ' -f1 /proc/loadavg)
    r=$(hey -z "${SECS:-10}s" -c "$c" -m POST -T application/json -D "$body" "$url/api/tools/run_sql")
    t1=$(ticks)
    j1=$(jit_gc_ticks)
    calls=$(awk '/^  \[200\]/ {print $2}' <<<"$r")
    other=$(grep -cE '^  \[[013-9]' <<<"$r" || true)
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$r")
    avg=$(awk '/Average:/ {print $2*1000; exit}' <<<"$r")
    printf "%s c=%s rps=%s avg_ms=%s cpu_ms_per_call=%.3f cpu_ms_per_call_app=%.3f other=%s load=%s\n" "${TAG:-x}" "$c" \
      "$rps" "$avg" "$(python3 -c "print(($t1-$t0)*1000/$(getconf CLK_TCK)/$calls)")" \
      "$(python3 -c "print(($t1-$t0-($j1-$j0))*1000/$(getconf CLK_TCK)/$calls)")" "$other" "$load"
  done
done
