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
# --quick (3 rounds of 2 s, warm-up 5 s), --check (exit 3 when a ratio is below its floor), --service-opt -Dname=value (repeatable), --app DIR,
# --out FILE (target/mcp-vs-reference.txt).
#
# Needs node and npm (the reference server is installed from npm into target/mcp-reference) and
# PostgreSQL's server binaries (see bench/lib/external-service.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
seconds=5
warmup=10
clients="1 8"
check=false
out=target/mcp-vs-reference.txt
service_opts=()
app=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --quick) rounds=3; seconds=2; warmup=5; shift ;;
    --check) check=true; shift ;;
    --service-opt) service_opts+=("$2"); shift 2 ;;
    --app) app="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are missing (apt-get install nodejs npm)" >&2
  exit 2
fi
reference=target/mcp-reference/node_modules/@modelcontextprotocol/server-postgres/dist/index.js
if [ ! -f "$reference" ]; then
  mkdir -p target/mcp-reference
  npm install --prefix target/mcp-reference --no-audit --no-fund --loglevel=error \
    @modelcontextprotocol/server-postgres@0.6.2 >&2
fi

. bench/lib/external-service.sh
jar="$(service_jar "$app")"
start_databases
start_service "$jar" "${service_opts[@]}"

statements='{"count": "SELECT count(*) FROM track", "join": "SELECT ar.name, count(*) AS tracks FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 10"}'
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
node bench/mcp-client.mjs --statements "$statements" --clients "$clients" --rounds "$rounds" --seconds "$seconds" \
  --warmup "$warmup" --service "$url/mcp" --reference-command node \
  --reference-args "[\"$reference\", \"postgresql://postgres@127.0.0.1:$pgport/chinook\"]" >"$work/mcp.tsv"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

mkdir -p "$(dirname "$out")"
python3 - "$work/mcp.tsv" "$clients" "$check" "$ready_ms" "$rss_kb" "$load_before" "$load_after" "$rounds" "$seconds" \
  "$(measured "$app")" <<'EOF' | tee "$out"
import statistics, sys
path, clients, check, ready_ms, rss_kb, before, after, rounds, seconds, commit = sys.argv[1:]
clients = clients.split()
rate, notes = {}, []
for line in open(path):
    if line.startswith("#"):
        notes.append(line[2:].strip())
        continue
    r, s, c, side, value = line.rstrip("\n").split("\t")
    rate[(r, s, c, side)] = float(value)
names = {"count": "SELECT count(*) FROM track", "join": "a top-10 join"}
goal = 1.5
print(f"commit {commit}; {rounds} rounds of {seconds} s per side; loadavg before {before}, after {after}")
print(f"service: start to ready {int(ready_ms) / 1000:.2f} s, RSS after start {int(rss_kb) / 1024:.0f} MB")
for note in notes:
    print(note)
print()
print("| MCP tools/call, service ÷ reference | " + " | ".join(f"{c} in flight" for c in clients) + " |")
print("|---|" + "---|" * len(clients))
failures = []
for s in names:
    cells = []
    for c in clients:
        rounds_seen = sorted({k[0] for k in rate if k[1] == s and k[2] == c})
        ratios = [rate[(r, s, c, "service")] / rate[(r, s, c, "reference")] for r in rounds_seen]
        if not ratios:
            continue
        median = statistics.median(ratios)
        svc = statistics.median(rate[(r, s, c, "service")] for r in rounds_seen)
        ref = statistics.median(rate[(r, s, c, "reference")] for r in rounds_seen)
        cells.append(f"**{median:.2f}** ({svc:.0f} / {ref:.0f})")
        if median < goal / 2:
            failures.append(f"{names[s]}, {c} in flight: {median:.2f} < floor {goal / 2:.2f} (goal {goal})")
    print(f"| {names[s]} | " + " | ".join(cells) + " |")
print()
print("cells: median of per-round ratios (median calls/s of the service / of the reference)")
if check == "true":
    if failures:
        print("REGRESSION: below half the goal:\n  " + "\n  ".join(failures))
        sys.exit(3)
    print("check passed: every ratio is at least half its goal")
EOF
