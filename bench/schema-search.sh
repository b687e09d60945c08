#!/usr/bin/env bash
# Runs the schema retrieval benchmark (SchemaSearchBench): generates a warehouse schema of N tables
# (bench/schema/entities.txt, WarehouseSchema) in a throwaway embedded PostgreSQL, builds the schema
# index as the service does and asks the questions of bench/schema/questions.tsv. Prints recall@5,
# retrieval latency and the schema-discovery tokens per question; writes target/schema-search.json.
# See docs/benchmarks.md, "Schema search".
#
#   bench/schema-search.sh          # 2,000 tables
#   bench/schema-search.sh 300      # the size ./mvnw verify checks (SchemaSearchRecallTest)
#
# It compiles and runs from target/ of the tree it sits in, so run it in a tree nobody else is
# building at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -B -q -ntp -DskipTests test-compile
if [ ! -f target/bench-classpath.txt ] || [ pom.xml -nt target/bench-classpath.txt ]; then
  ./mvnw -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
fi

exec java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  io.sqlagent.bench.SchemaSearchBench "${1:-2000}"
