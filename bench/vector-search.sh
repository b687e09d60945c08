#!/usr/bin/env bash
# Runs the vector_search benchmark (VectorSearchBench): builds a collection of N documents through
# vector_manage, then times vector_search calls; prints a summary and writes target/vector-search.json.
# See docs/benchmarks.md, "Vector search".
#
#   bench/vector-search.sh                          # 100,000 documents, 384 dimensions, 2,000 queries x 3 rounds
#   bench/vector-search.sh --documents 10000        # a quick look
#
# Options: --documents N, --queries N, --rounds N, --text-queries N, --top-k N, --heap 1g, --dir PATH.
# It compiles and runs from target/ of the tree it sits in, so run it in a tree nobody else is
# building at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

heap=1g
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --heap) heap="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

./mvnw -B -q -ntp -DskipTests test-compile
if [ ! -f target/bench-classpath.txt ] || [ pom.xml -nt target/bench-classpath.txt ]; then
  ./mvnw -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
fi

exec java -Xmx"$heap" -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  io.sqlagent.bench.VectorSearchBench "${args[@]}"
