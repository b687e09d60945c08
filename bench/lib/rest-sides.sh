# Sourced by bench/run-sql-vs-pgbench.sh and bench/cpu-per-call.sh, after bench/lib/external-service.sh and
# start_service: the REST run_sql side (hey) and the pgbench sides of a measurement, on the same statements.
#
# sql_of NAME                 the statement of count, join, rows1000, rows3503
# body_file NAME              writes $work/NAME.json (the run_sql body), NAME.wrapped.sql and NAME.plain.sql (pgbench)
# check_answer NAME           fails unless run_sql answers NAME with its rows, whole
# service_rate NAME CLIENTS   SECONDS s of hey; prints "calls/s<TAB>service=ms<TAB>postgres=ms<TAB>client=ms" (CPU per call)
# pgbench_rate NAME CLIENTS FILE   the same for pgbench running FILE (postgres= and client= only)

if ! command -v hey >/dev/null 2>&1; then
  echo "hey is missing (apt-get install hey)" >&2
  exit 2
fi

sql_of() {
  case "$1" in
    count) echo "SELECT count(*) FROM track" ;;
    join) echo "SELECT ar.name, count(*) AS tracks FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 10" ;;
    rows1000) echo "SELECT * FROM track ORDER BY track_id LIMIT 1000" ;;
    rows3503) echo "SELECT * FROM track" ;;
    *) echo "unknown statement $1" >&2; exit 2 ;;
  esac
}
# The service's read-only transaction (io.sqlagent.sql.run.SessionTransaction) as a client of prepared statements
# sends it (each its own round trip): BEGIN READ ONLY, the settings (one statement), the statement, ROLLBACK.
wrapped_script() {
  printf '%s\n' "BEGIN TRANSACTION READ ONLY;" \
    "SELECT set_config('statement_timeout', '30000', true), set_config('lock_timeout', '5000', true), set_config('standard_conforming_strings', 'on', true);" \
    "$1;" "ROLLBACK;"
}
body_file() {
  python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1]}))' "$(sql_of "$1")" >"$work/$1.json"
  wrapped_script "$(sql_of "$1")" >"$work/$1.wrapped.sql"
  echo "$(sql_of "$1");" >"$work/$1.plain.sql"
}

check_answer() {
  curl -fs -H 'Content-Type: application/json' --data-binary "@$work/$1.json" "$url/api/tools/run_sql" | python3 -c '
import json, sys
expected = {"count": 1, "join": 10, "rows1000": 1000, "rows3503": 3503}[sys.argv[1]]
result = json.load(sys.stdin)["result"]
if result["row_count"] != expected or result["truncated"]:
    sys.exit("%s: %d rows (truncated: %s), expected %d" % (sys.argv[1], result["row_count"], result["truncated"], expected))
' "$1"
}
# The CPU seconds in $work/cpu (bench/lib/cpu.py measure) as milliseconds per call of CALLS.
per_call() {
  tr ' ' '\n' <"$work/cpu" | awk -F= -v calls="$1" '{printf "\t%s=%.3f", $1, $2 * 1000 / calls}'
}
service_rate() {
  local report
  report="$(python3 bench/lib/cpu.py measure "$work/cpu" service="$service_pid" postgres="$postgres_pid" -- \
    hey -z "${seconds}s" -c "$2" -m POST -T application/json -D "$work/$1.json" "$url/api/tools/run_sql")"
  if ! grep -qE '^\s+\[200\]' <<<"$report" || grep -qE '^\s+\[[013-9][0-9]*\]|Error distribution' <<<"$report"; then
    echo "the service answered other than 200:" >&2
    echo "$report" >&2
    exit 1
  fi
  awk '/Requests\/sec/ {printf "%s", $2}' <<<"$report"
  per_call "$(awk '/^  \[200\]/ {print $2}' <<<"$report")"
}
pgbench_rate() {
  local report
  report="$(python3 bench/lib/cpu.py measure "$work/cpu" postgres="$postgres_pid" -- \
    "$pgbin/pgbench" -n -M prepared -T "$seconds" -c "$2" -j "$(( $2 < 2 ? $2 : 2 ))" -f "$3" chinook 2>&1)"
  if grep -q 'number of failed transactions: [1-9]' <<<"$report"; then
    echo "$report" >&2
    exit 1
  fi
  awk '/^tps = / {printf "%s", $3}' <<<"$report"
  per_call "$(awk '/number of transactions actually processed/ {print $NF}' <<<"$report")"
}
