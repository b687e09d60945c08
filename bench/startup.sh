#!/usr/bin/env bash
# Start-up and memory of the packaged service with both databases external (a throwaway PostgreSQL, as
# bench/run-sql-vs-pgbench.sh makes it), against the reference MCP Postgres server from npm as the baseline:
# N starts of each, interleaved; prints the median time from launch to ready (the service: /q/health/ready
# answers 200; the reference: its answer to initialize), the CPU time the process used until then (user +
# system, from /proc/<pid>/stat: on a busy machine the steadier figure) and its RSS then and a few seconds
# later, from /proc, with the machine's load. See docs/benchmarks.md, "Start-up and memory".
#
#   bench/startup.sh                                   # 5 starts of this tree's build (with its class-data archive) and the reference
#   bench/startup.sh --runs 9 --app /tmp/before/quarkus-app --app target/quarkus-app
#   bench/startup.sh --without-cds                     # each build also without its class-data archive
#   bench/startup.sh --jvm-variant "-XX:CompileThresholdScaling=4"   # each build also with these JVM options
#   bench/startup.sh --embedded                        # each build also on its embedded defaults (the laptop start)
#
# Options: --runs N (5), --app DIR (repeatable: several builds measured in the same run, interleaved; default
# this tree's target/quarkus-app, built when src/main or pom.xml is newer), --without-cds, --jvm-variant "OPTS"
# (repeatable: each build is also started with these JVM options, separated by spaces), --no-reference,
# --settle S (5: seconds after ready for the second RSS reading), --service-opt -Dname=value (repeatable, for
# every build), --embedded (each build also started as the README's quick start does: the embedded PostgreSQL,
# ephemeral, with Chinook; the CPU is the JVM's alone, not the postmaster's), --out FILE (target/startup.txt).
# Each start logs the classes it loads (-Xlog:class+load, to a file): the table gives how many were loaded by
# ready and how many of those came from a class-data archive (the JDK's or the build's).
#
# A build's class-data archive is DIR/app-cds.jsa (quarkus.package.jar.appcds.enabled); when it is there the
# service runs with -XX:SharedArchiveFile=DIR/app-cds.jsa, in DIR, as the README says to run it (a copy of DIR
# keeps its archive valid only with the files' times: cp -a). The log says "Unable to use shared archive" when not. The store is
# migrated by one unmeasured start first, so every measured start is a restart, as a pod's is.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/lib/external-service.sh
out=target/startup.txt
runs=5
settle=5
apps=()
without_cds=false
embedded_too=false
jvm_variants=()
reference_too=true
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --app) apps+=("$2"); shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --without-cds) without_cds=true; shift ;;
    --jvm-variant) jvm_variants+=("$2"); shift 2 ;;
    --no-reference) reference_too=false; shift ;;
    --embedded) embedded_too=true; shift ;;
    --service-opt) service_opts+=("$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ ${#apps[@]} -eq 0 ]; then
  service_jar "" >/dev/null
  apps=(target/quarkus-app)
fi

reference=""
if [ "$reference_too" = true ]; then
  reference="$(reference_server)"
fi

# The variants measured: label, application directory, class-data archive option, more JVM options, and whether
# the start is on the embedded defaults (each variant is measured both ways with --embedded).
variant() {
  labels+=("$1, external databases")
  dirs+=("$2")
  options+=("$3")
  extras+=("$4")
  embeddeds+=(false)
  if [ "$embedded_too" = true ]; then
    labels+=("$1, embedded PostgreSQL")
    dirs+=("$2")
    options+=("$3")
    extras+=("$4")
    embeddeds+=(true)
  fi
}
labels=()
dirs=()
options=()
extras=()
embeddeds=()
for app in "${apps[@]}"; do
  app="${app%/}"
  for extra in "" "${jvm_variants[@]+"${jvm_variants[@]}"}"; do
    with="${extra:+, $extra}"
    if [ -f "$app/app-cds.jsa" ]; then
      variant "$app (AppCDS$with)" "$app" "-XX:SharedArchiveFile=$(cd "$app" && pwd)/app-cds.jsa" "$extra"
      if [ "$without_cds" = true ]; then
        variant "$app (no AppCDS$with)" "$app" "" "$extra"
      fi
    else
      variant "$app${with:+ (${with#, })}" "$app" "" "$extra"
    fi
  done
done

start_databases

stop_service() {
  kill "$service_pid" 2>/dev/null || true
  wait "$service_pid" 2>/dev/null || true
  service_pid=""
}
rss_of() {
  awk '/VmRSS/ {print $2}' "/proc/$1/status"
}
# CPU milliseconds (user + system) process $1 has used so far.
cpu_ms_of() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$1/stat"
}

# The service on its embedded defaults, as the README's quick start runs it (an ephemeral embedded PostgreSQL
# with Chinook, started by the JVM); sets what start_service sets.
start_embedded_service() {
  local jar="$1"
  shift
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  local httpport started
  httpport="$(free_port)"
  started=$(date +%s%N)
  env -u QUARKUS_PROFILE SQLAGENT_EMBEDDED_EPHEMERAL=true SQLAGENT_VECTOR_PATH="$work/vectors-embedded" \
    bash -c 'cd "$(dirname "$0")" && exec "$@"' "$jar" "$java" "$@" -Dquarkus.http.port="$httpport" \
    -jar "$(basename "$jar")" >"$work/service.log" 2>&1 &
  service_pid=$!
  url="http://127.0.0.1:$httpport"
  await_ready "$started" 6000
}

# One start of variant $1: appends "ready_ms cpu_ms rss_kb settled_rss_kb classes shared_classes" to $work/variant-$1.
measure_service() {
  local i="$1" opts=(-Xlog:class+load=info:file="$work/classes.log")
  if [ -n "${options[$i]}" ]; then opts+=("${options[$i]}"); fi
  if [ -n "${extras[$i]}" ]; then
    local more
    read -ra more <<<"${extras[$i]}"
    opts+=("${more[@]}")
  fi
  rm -f "$work/classes.log"
  local starter=start_service
  if [ "${embeddeds[$i]}" = true ]; then starter=start_embedded_service; fi
  "$starter" "${dirs[$i]}/quarkus-run.jar" "${opts[@]}" "${service_opts[@]+"${service_opts[@]}"}"
  local cpu classes shared
  cpu=$(cpu_ms_of "$service_pid")
  classes=$(grep -c ' source: ' "$work/classes.log" || true)
  shared=$(grep -c 'source: shared objects file' "$work/classes.log" || true)
  sleep "$settle"
  echo "$ready_ms $cpu $rss_kb $(rss_of "$service_pid") $classes $shared" >>"$work/variant-$i"
  stop_service
  if [ -n "${options[$i]}" ] && grep -q "Unable to use shared archive" "$work/service.log" "$work/classes.log"; then
    echo "${labels[$i]}: the JVM did not use the class-data archive:" >&2
    grep "shared archive" "$work/service.log" >&2
    exit 1
  fi
}

# One start of the reference (stdio): launch to its answer to initialize.
measure_reference() {
  local started line ready rss cpu
  started=$(date +%s%N)
  coproc REF { exec node "$reference" "postgresql://postgres@127.0.0.1:$pgport/chinook" 2>/dev/null; }
  echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"startup","version":"1"}}}' >&"${REF[1]}"
  read -r line <&"${REF[0]}"
  ready=$(( ($(date +%s%N) - started) / 1000000 ))
  case "$line" in *'"result"'*) ;; *) echo "the reference answered initialize with: $line" >&2; exit 1 ;; esac
  rss=$(rss_of "$REF_PID")
  cpu=$(cpu_ms_of "$REF_PID")
  sleep "$settle"
  echo "$ready $cpu $rss $(rss_of "$REF_PID")" >>"$work/reference"
  kill "$REF_PID" 2>/dev/null || true
  wait "$REF_PID" 2>/dev/null || true
}

# The store's migrations, once (not measured as a restart; printed as the first start).
start_service "${dirs[0]}/quarkus-run.jar" ${options[0]:+"${options[0]}"} "${service_opts[@]+"${service_opts[@]}"}"
first_start="$ready_ms ms, RSS $((rss_kb / 1024)) MB (${labels[0]}, empty store: its migrations run)"
stop_service

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((run = 1; run <= runs; run++)); do
  for i in "${!labels[@]}"; do
    measure_service "$i"
  done
  if [ -n "$reference" ]; then measure_reference; fi
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# Median, min and max of column $2 of file $1.
stats() {
  sort -n -k"$2","$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s %s %s", m, v[1], v[NR] }'
}
row() {
  local name="$1" file="$2" r m lo hi
  printf '| %s |' "$name"
  for column in 1 2; do
    r=$(stats "$file" "$column")
    read -r m lo hi <<<"$r"
    printf ' %.2f (%.2f–%.2f) |' "$(echo "$m / 1000" | bc -l)" "$(echo "$lo / 1000" | bc -l)" "$(echo "$hi / 1000" | bc -l)"
  done
  for column in 3 4; do
    r=$(stats "$file" "$column")
    read -r m lo hi <<<"$r"
    printf ' %d (%d–%d) |' "$((${m%.*} / 1024))" "$((lo / 1024))" "$((hi / 1024))"
  done
  if [ "$(awk '{print NF; exit}' "$file")" -ge 6 ]; then
    printf ' %s / %s |' "$(stats "$file" 5 | cut -d' ' -f1)" "$(stats "$file" 6 | cut -d' ' -f1)"
  else
    printf ' – |'
  fi
  echo
}

mkdir -p "$(dirname "$out")"
{
  echo "# commit $(measured ""); $runs starts each, interleaved; loadavg before $load_before, after $load_after; $(nproc) CPUs"
  echo "# first start of the service on an empty store: $first_start"
  echo "| what | start to ready, s: median (min–max) | CPU to ready, s | RSS at ready, MB | RSS ${settle} s later, MB | classes loaded by ready / from an archive |"
  echo "|---|---|---|---|---|---|"
  for i in "${!labels[@]}"; do
    row "service ${labels[$i]}" "$work/variant-$i"
  done
  if [ -n "$reference" ]; then
    row "reference MCP server (node, stdio)" "$work/reference"
  fi
} | tee "$out"
