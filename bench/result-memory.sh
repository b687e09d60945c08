#!/usr/bin/env bash
# Memory under large results (issue 18, "memory flat"): the packaged service, with both databases external
# (bench/lib/external-service.sh), answers SELECT * FROM track (3,503 rows) at 1 and then 8 clients, with a
# baseline phase of count(*) at 8 clients (the same calls, a one-row result) before them. Each phase starts
# after a full collection (jcmd GC.run) and takes one every 2 s while loaded: the largest heap after them
# (read from the JVM's GC log) is the phase's live data at its peak, results in flight included. The script
# prints each phase's figure, the growth over the baseline, and an estimate of the results in flight (clients x one result, as the JSON answer's bytes plus its rows as Jackson nodes);
# "flat" means the growth is within the results in flight. See docs/benchmarks.md, "Start-up and memory".
#
#   bench/result-memory.sh                       # 20 s per phase, -Xmx512m
#   bench/result-memory.sh --seconds 30 --heap 1g --service-opt -XX:+UseSerialGC
#
# Options: --seconds S per phase (20), --warmup S (15), --heap SIZE (-Xmx, 512m), --service-opt OPT (repeatable,
# a JVM option or -Dname=value), --app DIR (another packaged service), --out FILE (target/result-memory.txt),
# --histogram FILE (one of the 8-client phase's full collections is a class histogram of the live objects,
# its top written to FILE: what holds the memory when it is not flat).
# --wide (issue 27, "memory by what is kept"): instead of the phases above, three calls at once, each a row of ten
# 15 MB values (text, and text through to_json on a statement's first run), measured as the rise of the service's
# RSS (sampled every 50 ms from /proc) over its RSS after a full collection, with each call's time; twice, once a
# first run (rows as to_json) and once a later run (columns as text). See docs/benchmarks.md, "Wide values memory".
# Needs what bench/run-sql-vs-pgbench.sh needs: PostgreSQL's binaries and hey.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/lib/external-service.sh
out=target/result-memory.txt
seconds=20
heap=512m
warmup=15
histogram=""
wide=false
common_options "$@"
set -- "${rest[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --heap) heap="$2"; shift 2 ;;
    --histogram) histogram="$2"; shift 2 ;;
    --wide) wide=true; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if { [ "$wide" = false ] && ! command -v hey >/dev/null 2>&1; } || ! command -v jcmd >/dev/null 2>&1; then
  echo "hey or jcmd is missing (apt-get install hey; jcmd comes with the JDK; --wide needs only jcmd)" >&2
  exit 2
fi

jar="$(service_jar "$app")"
start_databases
start_service "$jar" "-Xmx$heap" "-Xlog:gc:file=$work/gc.log" "${service_opts[@]}"

if [ "$wide" = true ]; then
  # Ten 15 MB values a row, each its own letter; the tag makes each round's statement new to the service.
  wide_body() {
    python3 -c 'import json, sys; print(json.dumps({"sql": "SELECT " + ", ".join(
        f"repeat(chr({97 + i}), 15000000) AS c{i} /* {sys.argv[1]} */" if i == 0 else f"repeat(chr({97 + i}), 15000000) AS c{i}"
        for i in range(10))}))' "$1" >"$work/wide.json"
  }
  # One round: three calls at once; prints the RSS rise over the RSS after a full collection (MB) and the
  # slowest call's seconds, after checking each answer is a row of ten values, each cut.
  wide_round() {
    jcmd "$service_pid" GC.run >/dev/null
    sleep 1
    local before peak rss pids=() started
    before="$(awk '/VmRSS/ {print $2}' "/proc/$service_pid/status")"
    peak="$before"
    started=$(date +%s%N)
    for i in 1 2 3; do
      curl -fs -H 'Content-Type: application/json' --data-binary "@$work/wide.json" "$url/api/tools/run_sql" \
        -o "$work/wide-$i.out" &
      pids+=($!)
    done
    while kill -0 "${pids[@]}" 2>/dev/null; do
      rss="$(awk '/VmRSS/ {print $2}' "/proc/$service_pid/status")"
      [ "$rss" -gt "$peak" ] && peak="$rss"
      sleep 0.05
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    local seconds_taken=$(( ($(date +%s%N) - started) / 1000000 ))
    for i in 1 2 3; do
      python3 - "$work/wide-$i.out" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["result"]["rows"][0]
values = list(row.values())
assert len(values) == 10, row.keys()
for value in values:
    assert "…[cut: " in value and len(value) < 10_000, value[:80]
PY
    done
    echo "$(( (peak - before) / 1024 )) $before $peak $seconds_taken"
  }
  load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
  wide_body "first-$(date +%s%N)"
  first="$(wide_round)"
  second="$(wide_round)"
  load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
  mkdir -p "$(dirname "$out")"
  {
    echo "commit $(measured "$app"); -Xmx$heap ${service_opts[*]}; loadavg before $load_before, after $load_after"
    echo
    echo "| round | RSS after a full GC, MB | RSS peak, MB | rise, MB (target < 300) | three calls, s |"
    echo "|---|---|---|---|---|"
    for round in "first run (rows as to_json):$first" "later run (columns as text):$second"; do
      read -r rise before peak ms <<<"${round#*:}"
      echo "| ${round%%:*} | $((before / 1024)) | $((peak / 1024)) | $rise | $(python3 -c "print(f'{$ms / 1000:.1f}')") |"
    done
  } | tee "$out"
  exit 0
fi

python3 -c 'import json; print(json.dumps({"sql": "SELECT * FROM track"}))' >"$work/rows.json"
python3 -c 'import json; print(json.dumps({"sql": "SELECT count(*) FROM track"}))' >"$work/count.json"
curl -fs -H 'Content-Type: application/json' --data-binary "@$work/rows.json" "$url/api/tools/run_sql" >"$work/answer.json"
# One result in flight: the JSON answer (the service writes a result's JSON once and sends those bytes), and
# its rows as Jackson nodes before that, twice over: each row a list of values (QueryRunner) and, sharing
# those values, a row object keyed by column (QueryResult.toJson, the tool's result). The sizes are the
# 64-bit JVM's with compressed references: a TextNode 16 B + its String 24 B + the bytes (Latin-1 compact
# strings, 16 B header, 8-byte aligned), a number (ExactNumberNode) 24 B + its BigDecimal 40 B, a row's
# ArrayList 24 B + its array 16 B + 4 B a value; a row object 16 B + its LinkedHashMap 56 B + its table
# (16 B + 4 B a slot, a power of two at least 4/3 of the values) + 40 B an entry.
result_bytes="$(python3 - "$work/answer.json" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
result = json.loads(raw)["result"]
assert result["row_count"] == 3503 and not result["truncated"], "expected 3,503 rows, whole"
align = lambda n: (n + 7) // 8 * 8
def node(v):
    if v is None or isinstance(v, bool):
        return 0  # shared instances
    if isinstance(v, (int, float)):
        return 24 + 40
    s = v if isinstance(v, str) else json.dumps(v)
    return 16 + 24 + align(16 + len(s.encode("latin-1", "replace")) * (1 if s.isascii() else 2))
rows = result["rows"]
objects = 0
for row in rows:
    values = row.values() if isinstance(row, dict) else row
    slots = 16
    while slots * 3 < len(values) * 4:
        slots *= 2
    objects += 24 + align(16 + 4 * len(values)) + sum(node(v) for v in values)
    objects += 16 + 56 + align(16 + 4 * slots) + 40 * len(values)
print(len(raw), objects)
PY
)"
json_bytes="${result_bytes% *}"
node_bytes="${result_bytes#* }"

for body in rows count; do
  hey -z "${warmup}s" -c 8 -m POST -T application/json -D "$work/$body.json" "$url/api/tools/run_sql" >/dev/null
done

# A phase: a full collection, then BODY at CLIENTS for the time, with a full collection (jcmd GC.run) every
# 2 s during it: what a full collection leaves is the live data, results in flight included. Prints calls/s,
# the largest heap after those full collections (MB), their count, and the largest heap after any collection
# (young ones leave what G1 promoted or allocated in old regions, large results' humongous arrays among them,
# until a concurrent cycle reclaims it: the heap's high-water mark, not the live data), from the GC log.
phase() {
  jcmd "$service_pid" GC.run >/dev/null
  sleep 1
  local from loader
  from="$(wc -l <"$work/gc.log")"
  hey -z "${seconds}s" -c "$2" -m POST -T application/json -D "$work/$1.json" "$url/api/tools/run_sql" >"$work/hey.txt" &
  loader=$!
  while kill -0 "$loader" 2>/dev/null; do
    sleep 2
    if ! kill -0 "$loader" 2>/dev/null; then break; fi
    if [ -n "$histogram" ] && [ "$2" = 8 ] && [ "$1" = rows ]; then
      # Live objects only (the histogram collects first), the largest classes: what holds the memory.
      jcmd "$service_pid" GC.class_histogram | head -40 >"$histogram"
      histogram=""
    else
      jcmd "$service_pid" GC.run >/dev/null
    fi
  done
  wait "$loader"
  sleep 1
  tail -n "+$((from + 1))" "$work/gc.log" | python3 -c '
import re, sys
factor = {"K": 1 / 1024, "M": 1, "G": 1024}
full, any_gc = [], []
for line in sys.stdin:
    m = re.search(r"->(\d+)([KMG])\(", line)
    if m:
        after = int(m.group(1)) * factor[m.group(2)]
        any_gc.append(after)
        if "Pause Full" in line:
            full.append(after)
print(f"{sys.argv[1]}\t{max(full, default=0):.0f}\t{len(full)}\t{max(any_gc, default=0):.0f}")' \
    "$(awk '/Requests\/sec/ {print $2}' "$work/hey.txt")"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
baseline="$(phase count 8)"
one="$(phase rows 1)"
eight="$(phase rows 8)"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
hwm_kb="$(awk '/VmHWM/ {print $2}' "/proc/$service_pid/status")"

mkdir -p "$(dirname "$out")"
python3 - "$baseline" "$one" "$eight" "$json_bytes" "$node_bytes" <<PY | tee "$out"
import sys
(base, one, eight), json_bytes, node_bytes = [a.split("\t") for a in sys.argv[1:4]], int(sys.argv[4]), int(sys.argv[5])
per_result = (json_bytes + node_bytes) / 2**20
print("commit $(measured "$app"); -Xmx$heap ${service_opts[*]}; $seconds s per phase; loadavg before $load_before, after $load_after")
print(f"one 3,503-row result: {json_bytes / 2**20:.2f} MB of JSON + {node_bytes / 2**20:.2f} MB of rows as Jackson nodes "
      f"(estimate) = {per_result:.2f} MB; RSS high-water mark of the run $((hwm_kb / 1024)) MB")
print()
print("| phase | calls/s | live data at its peak, MB (max after a full GC, every 2 s) | growth over count(*), MB "
      "| results in flight, MB | flat | heap high-water mark after any GC, MB |")
print("|---|---|---|---|---|---|---|")
print(f"| count(*), 8 clients | {float(base[0]):.0f} | {float(base[1]):.0f} ({base[2]} GCs) | – | – | – | {base[3]} |")
for label, clients, (rate, peak, gcs, any_gc) in (("3,503 rows, 1 client", 1, one), ("3,503 rows, 8 clients", 8, eight)):
    growth = float(peak) - float(base[1])
    flight = clients * per_result
    print(f"| {label} | {float(rate):.0f} | {float(peak):.0f} ({gcs} GCs) | {growth:.0f} | {flight:.1f} | "
          f"{'yes' if growth <= flight else 'NO'} | {any_gc} |")
PY
