#!/usr/bin/env bash
# The packaged service's resident memory with the schema index of a large source built, vectors included (issue 28:
# under 400 MB at 2,000 tables). Starts a throwaway PostgreSQL (bench/lib/external-service.sh), creates a schema set
# in it (the generated warehouse at 2,000 tables by default, bench/schema), starts the service with that database as
# its source and the index's vectors built at start, and prints its RSS (VmRSS) and peak (VmHWM) at ready, once the
# index is built, after searches, after searches many at once of made-up words (a hostile caller's: each word is one
# the index has to look up by meaning) and after a rebuild beside the old index (POST /api/schema/refresh).
#
#   bench/service-index-memory.sh                                  # generated, 2,000 tables, the image's JVM options
#   bench/service-index-memory.sh --set abbreviated --tables 1118
#   bench/service-index-memory.sh --jvm "-XX:+UseSerialGC -XX:MaxRAM=1g -XX:MaxRAMPercentage=50"   # as in the pod
#   bench/service-index-memory.sh --app /tmp/before/quarkus-app    # another build
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/external-service.sh

set_name=generated
tables=2000
searches=200
hostile=800
jvm=()
common_options "$@"
set -- "${rest[@]+"${rest[@]}"}"
while [ $# -gt 0 ]; do
  case "$1" in
    --set) set_name="$2"; shift 2 ;;
    --tables) tables="$2"; shift 2 ;;
    --searches) searches="$2"; shift 2 ;;
    --hostile) hostile="$2"; shift 2 ;;
    --jvm) read -r -a jvm <<<"$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

jar="$(service_jar "$app")"
./mvnw -B -q -ntp -DskipTests test-compile
if [ ! -f target/bench-classpath.txt ] || [ pom.xml -nt target/bench-classpath.txt ]; then
  ./mvnw -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
fi

start_databases
created_ms=$(date +%s%N)
java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.sqlagent.bench.SchemaSetDatabase \
  "jdbc:postgresql://127.0.0.1:$pgport/postgres" warehouse "$set_name" "$tables" >/dev/null
echo "schema set $set_name, $tables tables, created in $(( ($(date +%s%N) - created_ms) / 1000000 )) ms" >&2

rss() { awk '/^VmRSS/ {rss=$2} /^VmHWM/ {hwm=$2} END {printf "%d MB (peak %d MB)", rss/1024, hwm/1024}' "/proc/$service_pid/status"; }

# The source the agent searches is the warehouse; Chinook stays configured as source "default".
export SQLAGENT_SOURCES_WAREHOUSE_URL="postgresql://127.0.0.1:$pgport/warehouse" SQLAGENT_SOURCES_WAREHOUSE_USERNAME=postgres \
  SQLAGENT_SOURCES_WAREHOUSE_PASSWORD=postgres SQLAGENT_SQL_SOURCE=warehouse SQLAGENT_SCHEMA_INDEX_EMBED_AT_START=true
start_service "$jar" "${jvm[@]+"${jvm[@]}"}" "${service_opts[@]+"${service_opts[@]}"}"
at_ready="$(rss)"

# Built: the index holds every table and its vectors (semantic), or the build failed.
index_state() { curl -fs "$url/api/schema/index" || echo '{}'; }
built_ms=""
for _ in $(seq 1 1200); do
  state="$(index_state)"
  if python3 -c 'import json,sys; s=json.loads(sys.argv[1]); sys.exit(0 if s.get("state")=="ready" and s.get("semantic") and s.get("embedding_millis") is not None else 1)' "$state" 2>/dev/null; then
    built_ms=$(( ($(date +%s%N) - created_ms) / 1000000 ))
    break
  fi
  if python3 -c 'import json,sys; sys.exit(0 if json.loads(sys.argv[1]).get("error") else 1)' "$state" 2>/dev/null; then
    echo "the index build failed: $state" >&2
    exit 1
  fi
  sleep 0.5
done
if [ -z "$built_ms" ]; then
  echo "the index was not built in 10 minutes: $(index_state)" >&2
  exit 1
fi
after_build="$(rss)"
first_build="$(index_state)"

for i in $(seq 1 "$searches"); do
  curl -fs -o /dev/null -H 'Content-Type: application/json' \
    -d "{\"query\":\"orders of customers by region and month, round $i\"}" "$url/api/tools/search_schema"
done
after_searches="$(rss)"

# 64 at once, each of 30 made-up words of nine letters: none is a name's, each is looked up by meaning.
hostile_ms=$(date +%s%N)
python3 - "$url" "$hostile" <<'PY'
import json, random, string, sys, threading, urllib.request
url, total = sys.argv[1], int(sys.argv[2])
left, lock, failed = [total], threading.Lock(), []
def worker():
    while True:
        with lock:
            if left[0] == 0:
                return
            left[0] -= 1
        words = " ".join("".join(random.choice(string.ascii_lowercase) for _ in range(9)) for _ in range(30))
        request = urllib.request.Request(url + "/api/tools/search_schema", json.dumps({"query": words}).encode(),
                                         {"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=300).read()
        except Exception as e:
            failed.append(str(e))
threads = [threading.Thread(target=worker) for _ in range(64)]
[t.start() for t in threads]
[t.join() for t in threads]
if failed:
    sys.exit("%d of %d searches failed, the first: %s" % (len(failed), total, failed[0]))
PY
hostile_took=$(( ($(date +%s%N) - hostile_ms) / 1000000 ))
after_hostile="$(rss)"

before_refresh="$(index_state)"
curl -fs -o /dev/null -X POST "$url/api/schema/refresh"
for _ in $(seq 1 1200); do
  now="$(index_state)"
  if python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); sys.exit(0 if b.get("state")=="ready" and b.get("built_at")!=a.get("built_at") and b.get("embedding_millis") is not None else 1)' "$before_refresh" "$now" 2>/dev/null; then
    break
  fi
  sleep 0.5
done
after_refresh="$(rss)"

options="${jvm[*]+"${jvm[*]}"}"
if [ -z "$options" ]; then options="the image's defaults"; fi
cat <<REPORT
service index memory: $(measured "$app"), set $set_name, $tables tables, JVM options: $options
  first build: $first_build
  after the rebuild: $(index_state)
  at ready:                 $at_ready
  index built (vectors):    $after_build
  after $searches searches:       $after_searches
  after $hostile made-up ones:   $after_hostile, 64 at once, in $hostile_took ms
  after a rebuild:          $after_refresh
  cpus $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)
REPORT
