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
# Options: --rounds N (3), --seconds S per measurement (5), --warmup S per statement (10), --clients "1 8", --statements "count join rows1000 rows3503",
# --quick (count and join, 3 rounds of 2 s), --check (exit 3 when a ratio is below its floor: half the goal),
# --service-opt -Dname=value (repeatable), --out FILE (target/run-sql-vs-pgbench.txt), --app DIR (another
# packaged service, for example an older build's quarkus-app, to measure it the same way).
#
# Needs PostgreSQL's server binaries and pgbench (Debian: postgresql; found under /usr/lib/postgresql/*/bin)
# and hey (Debian: hey), the HTTP load generator for the service. A throwaway cluster is made under
# target/bench-pg and removed at the end. The service is the packaged jar (built when src/ or pom.xml is
# newer), run with both databases external, as a deployment runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
seconds=5
warmup=10
clients="1 8"
statements="count join rows1000 rows3503"
check=false
out=target/run-sql-vs-pgbench.txt
service_opts=()
app=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --statements) statements="$2"; shift 2 ;;
    --quick) statements="count join"; rounds=3; seconds=2; warmup=5; shift ;;
    --check) check=true; shift ;;
    --service-opt) service_opts+=("$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --app) app="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

if ! command -v hey >/dev/null 2>&1; then
  echo "hey is missing (apt-get install hey)" >&2
  exit 2
fi

. bench/lib/external-service.sh
jar="$(service_jar "$app")"
start_databases

sql_of() {
  case "$1" in
    count) echo "SELECT count(*) FROM track" ;;
    join) echo "SELECT ar.name, count(*) AS tracks FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 10" ;;
    rows1000) echo "SELECT * FROM track ORDER BY track_id LIMIT 1000" ;;
    rows3503) echo "SELECT * FROM track" ;;
    *) echo "unknown statement $1" >&2; exit 2 ;;
  esac
}
# The service's read-only transaction, as io.sqlagent.sql.QueryRunner opens it, in the fewest round trips a
# plain client needs: BEGIN READ ONLY, the settings (one statement), the statement, ROLLBACK.
wrapped_script() {
  printf '%s\n' "BEGIN TRANSACTION READ ONLY;" \
    "SELECT set_config('statement_timeout', '30000', true), set_config('lock_timeout', '5000', true), set_config('standard_conforming_strings', 'on', true);" \
    "$1;" "ROLLBACK;"
}

start_service "$jar" "${service_opts[@]}"

body_file() {
  python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1]}))' "$(sql_of "$1")" >"$work/$1.json"
  wrapped_script "$(sql_of "$1")" >"$work/$1.wrapped.sql"
  echo "$(sql_of "$1");" >"$work/$1.plain.sql"
}
for s in $statements; do body_file "$s"; done

# One measurement of the service: calls/s, and it fails the run on any answer but 200 with the expected rows.
check_answer() {
  curl -fs -H 'Content-Type: application/json' --data-binary "@$work/$1.json" "$url/api/tools/run_sql" | python3 -c '
import json, sys
expected = {"count": 1, "join": 10, "rows1000": 1000, "rows3503": 3503}[sys.argv[1]]
result = json.load(sys.stdin)["result"]
if result["row_count"] != expected or result["truncated"]:
    sys.exit("%s: %d rows (truncated: %s), expected %d" % (sys.argv[1], result["row_count"], result["truncated"], expected))
' "$1"
}
# CPU seconds (user + system) the service's process has used so far.
service_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$service_pid/stat"
}
service_rate() {
  local report cpu_before cpu_after
  cpu_before="$(service_cpu)"
  report="$(hey -z "${seconds}s" -c "$2" -m POST -T application/json -D "$work/$1.json" "$url/api/tools/run_sql")"
  if ! grep -qE '^\s+\[200\]' <<<"$report" || grep -qE '^\s+\[[013-9][0-9]*\]|Error distribution' <<<"$report"; then
    echo "the service answered other than 200:" >&2
    echo "$report" >&2
    exit 1
  fi
  cpu_after="$(service_cpu)"
  # calls/s, then the service's CPU milliseconds per call
  awk -v before="$cpu_before" -v after="$cpu_after" '
    /Requests\/sec/ {rate = $2}
    /^  \[200\]/ {calls = $2}
    END {printf "%s\t%.3f\n", rate, (after - before) * 1000 / calls}' <<<"$report"
}
pgbench_rate() {
  local report
  report="$("$pgbin/pgbench" -n -M prepared -T "$seconds" -c "$2" -j "$(( $2 < 2 ? $2 : 2 ))" -f "$3" chinook 2>&1)"
  if grep -q 'number of failed transactions: [1-9]' <<<"$report"; then
    echo "$report" >&2
    exit 1
  fi
  awk '/^tps = / {print $3}' <<<"$report"
}

for s in $statements; do check_answer "$s"; done
# Warm-up: the JIT, the pools, the caches; not measured.
for s in $statements; do
  hey -z "${warmup}s" -c 8 -m POST -T application/json -D "$work/$s.json" "$url/api/tools/run_sql" >/dev/null
done

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
          service) rate="$(service_rate "$s" "$c")" ;; # "calls/s<TAB>CPU ms per call"
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

commit="$(measured "$app")"
mkdir -p "$(dirname "$out")"
python3 - "$results" "$clients" "$statements" "$check" "$ready_ms" "$rss_kb" "$load_before" "$load_after" \
  "$rounds" "$seconds" "$commit" <<'EOF' | tee "$out"
import statistics, sys
from collections import defaultdict
path, clients, statements, check, ready_ms, rss_kb, before, after, rounds, seconds, commit = sys.argv[1:]
clients = clients.split(); statements = statements.split()
rate = {}
cpu_ms = defaultdict(list)
for line in open(path):
    r, s, c, side, value, *cpu = line.rstrip("\n").split("\t")
    rate[(r, s, c, side)] = float(value)
    if cpu:
        cpu_ms[(s, c)].append(float(cpu[0]))
names = {"count": "SELECT count(*) FROM track", "join": "a top-10 join", "rows1000": "1,000 rows", "rows3503": "3,503 rows"}
# Goals of issue 18; the check's floor is half of each.
goals = {("wrapped", "count"): 0.8, ("wrapped", "join"): 0.8, ("wrapped", "rows1000"): 0.6, ("plain", "count"): 0.5}
def ratio(s, c, base):
    per_round = [rate[(r, s, c, "service")] / rate[(r, s, c, base)]
                 for r in sorted({k[0] for k in rate}) if rate.get((r, s, c, base))]
    return statistics.median(per_round), per_round
print(f"commit {commit}; {rounds} rounds of {seconds} s per side; loadavg before {before}, after {after}")
print(f"start to ready {int(ready_ms) / 1000:.2f} s; RSS after start {int(rss_kb) / 1024:.0f} MB")
print()
header = "| comparison | " + " | ".join(f"{c} client{'s' if c != '1' else ''}" for c in clients) + " |"
print(header)
print("|---|" + "---|" * len(clients))
failures = []
for base, label in (("plain", "÷ pgbench -M prepared"), ("wrapped", "÷ pgbench in the read-only transaction wrapping")):
    for s in statements:
        cells = []
        for c in clients:
            median, per_round = ratio(s, c, base)
            svc = statistics.median(rate[(r, s, c, "service")] for r, s2, c2, side in rate if s2 == s and c2 == c and side == "service")
            ref = statistics.median(rate[(r, s, c, base)] for r, s2, c2, side in rate if s2 == s and c2 == c and side == base)
            cells.append(f"**{median:.2f}** ({svc:.0f} / {ref:.0f})")
            goal = goals.get((base, s))
            if goal and median < goal / 2:
                failures.append(f"{names[s]} {label}, {c} clients: {median:.2f} < floor {goal / 2:.2f} (goal {goal})")
        print(f"| REST run_sql {label}, {names[s]} | " + " | ".join(cells) + " |")
print()
print("cells: median of per-round ratios (median calls/s of the service / of pgbench)")
print()
print("| service CPU per call (ms, median over rounds) | " + " | ".join(f"{c} client{'s' if c != '1' else ''}" for c in clients) + " |")
print("|---|" + "---|" * len(clients))
for s in statements:
    print(f"| {names[s]} | " + " | ".join(f"{statistics.median(cpu_ms[(s, c)]):.2f}" for c in clients) + " |")
if check == "true":
    if failures:
        print("REGRESSION: below half the goal:\n  " + "\n  ".join(failures))
        sys.exit(3)
    print("check passed: every ratio is at least half its goal")
EOF
