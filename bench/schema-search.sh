#!/usr/bin/env bash
# Runs the schema retrieval benchmark (SchemaSearchBench) on one schema set, or on each in turn: creates the set's
# schema in a throwaway embedded PostgreSQL, builds the schema index as the service does and asks the set's
# questions. Prints recall@5, retrieval latency and the schema-discovery tokens per question; writes
# target/schema-search-<set>.json. See docs/schema-search.md and docs/benchmarks.md, "Schema search".
#
#   bench/schema-search.sh                    # every set at its full size
#   bench/schema-search.sh generated          # the generated warehouse, 2,000 tables (held out while the ranking was tuned)
#   bench/schema-search.sh generated 300      # at the size ./mvnw verify checks (SchemaSearchRecallTest)
#   bench/schema-search.sh abbreviated        # the abbreviated, multilingual warehouse, 1,118 tables
#   bench/schema-search.sh pagila             # Pagila, the public schema
#   bench/schema-search.sh adventureworks     # AdventureWorks, the public schema (held out until two fixes were made on it)
#   BENCH_JAVA_OPTS=-Dbench.column-values=false bench/schema-search.sh pagila   # without the column values
#   BENCH_JAVA_OPTS=-Dbench.column-values-max-distinct=200 bench/schema-search.sh pagila   # values of wider columns too
#   BENCH_JAVA_OPTS=-Dbench.model=all-minilm-l6-v2 bench/schema-search.sh    # the float model (default: the quantized one)
#   BENCH_JAVA_OPTS=-Dbench.views=false bench/schema-search.sh generated     # the generated sets without their reporting views
#
# It compiles and runs from target/ of the tree it sits in, so run it in a tree nobody else is
# building at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -B -q -ntp -DskipTests test-compile
if [ ! -f target/bench-classpath.txt ] || [ pom.xml -nt target/bench-classpath.txt ]; then
  ./mvnw -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
fi

run() {
  java -Xmx1g ${BENCH_JAVA_OPTS:-} -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
    io.sqlagent.bench.SchemaSearchBench "$@"
}

if [ $# -eq 0 ]; then
  for set in generated abbreviated pagila adventureworks; do run "$set"; done
else
  run "$@"
fi
