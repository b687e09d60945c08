#!/usr/bin/env bash
# Where PostgreSQL's CPU per REST run_sql call goes (docs/benchmarks.md, "Service CPU per call"):
# one start of a packaged service against a throwaway PostgreSQL with pg_stat_statements loaded
# (bench/lib/external-service.sh, BENCH_PG_OPTIONS), WARM seconds of 8 clients first, then one run of SECS
# seconds at each client count of CS. For each run it prints the calls, the service's CPU per call and
# PostgreSQL's, split by database from pg_stat_activity (every backend's CPU from /proc/<pid>/stat: the
# store `sqlagent`, the source `chinook`; "other" is the postmaster, its background processes and the
# backends that exited meanwhile, such as autovacuum workers), then pg_stat_statements' top statements by
# execution time per database.
#
#   bench/pg-cpu-by-database.sh /tmp/before/quarkus-app        # WARM=70 SECS=10 CS="8 1"
#   bench/pg-cpu-by-database.sh target/quarkus-app -Dsqlagent.audit.enabled=false
#
# Needs hey (Debian: hey) and PostgreSQL's server binaries with pg_stat_statements (Debian: postgresql).
set -euo pipefail
app_dir="$1"
shift
cd "$(dirname "$0")/.."
export BENCH_PG_OPTIONS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
. bench/lib/external-service.sh
start_databases
"$pgbin/psql" -q -d sqlagent -c 'CREATE EXTENSION pg_stat_statements'
sql="${SQL:-SELECT count(*) FROM track}"
body="$work/body.json"
python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1]}))' "$sql" >"$body"
start_service "$(service_jar "$app_dir")" "$@"
# {"pid:database": CPU seconds} of every backend (database "other" for processes without one), plus
# "postmaster" (its own time and its reaped children's) and "service".
snapshot() {
  "$pgbin/psql" -qAt -d postgres -F ' ' \
    -c "SELECT pid, coalesce(datname, 'other') FROM pg_stat_activity WHERE pid <> pg_backend_pid()" |
    python3 -c '
import json, os, sys
hz = os.sysconf("SC_CLK_TCK")
def cpu(pid, children=False):
    s = open(f"/proc/{pid}/stat").read(); r = s[s.rindex(")") + 2:].split()
    return sum(int(v) for v in r[11:15 if children else 13]) / hz
out = {"postmaster": cpu(sys.argv[1], True), "service": cpu(sys.argv[2])}
for line in sys.stdin:
    pid, db = line.split()
    try:
        out[f"{pid}:{db}"] = cpu(pid)
    except OSError:
        pass
print(json.dumps(out))' "$postgres_pid" "$service_pid"
}
hey -z "${WARM:-70}s" -c 8 -m POST -T application/json -D "$body" "$url/api/tools/run_sql" >/dev/null || true
for c in ${CS:-8 1}; do
  "$pgbin/psql" -qAt -d sqlagent -c 'SELECT pg_stat_statements_reset()' >/dev/null
  before=$(snapshot)
  load=$(cut -d' ' -f1 /proc/loadavg)
  r=$(hey -z "${SECS:-10}s" -c "$c" -m POST -T application/json -D "$body" "$url/api/tools/run_sql")
  after=$(snapshot)
  calls=$(awk '/^  \[200\]/ {print $2}' <<<"$r")
  python3 - "$before" "$after" "$calls" "$c" "$load" <<'PY'
import json, sys
before, after, calls = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
groups = {}
for key, seconds in after.items():
    group = key.split(":", 1)[-1] if ":" in key else key
    # A backend that started during the run counts from zero; one that ended is in the postmaster's reaped time.
    groups[group] = groups.get(group, 0.0) + seconds - before.get(key, 0.0)
pg = sum(v for k, v in groups.items() if k != "service")
parts = " ".join(f"{k}={v * 1000 / calls:.3f}" for k, v in sorted(groups.items()) if k != "service")
print(f"c={sys.argv[4]} calls={calls} load={sys.argv[5]} ms/call: service={groups['service'] * 1000 / calls:.3f} "
      f"postgres={pg * 1000 / calls:.3f} ({parts})")
PY
  "$pgbin/psql" -q -d sqlagent -c "
    SELECT d.datname, s.calls, round(s.total_exec_time::numeric, 1) AS exec_ms,
           round((s.total_exec_time / nullif(s.calls, 0))::numeric, 4) AS ms_per_call, s.rows,
           left(regexp_replace(s.query, '\s+', ' ', 'g'), 90) AS query
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    ORDER BY s.total_exec_time DESC LIMIT 14"
done
