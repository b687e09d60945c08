#!/usr/bin/env bash
# Runs the JMH benchmark of the tool executor's own overhead (ToolExecutorBenchmark) and writes
# the result as JSON to target/jmh-tool-executor.json; see docs/benchmarks.md.
#
#   bench/tool-executor.sh                  # the full run, as recorded in docs/benchmarks.md
#   bench/tool-executor.sh -f 1 -wi 1 -i 2  # a quick look; any JMH option is passed on
#
# It compiles and runs from target/ of the tree it sits in, so run it in a tree nobody else is
# building at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."

# test-compile also runs JMH's annotation processor, which writes the benchmark list.
./mvnw -B -q -DskipTests test-compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt

if [ ! -f target/test-classes/META-INF/BenchmarkList ]; then
  echo "target/test-classes/META-INF/BenchmarkList is missing: JMH's annotation processor did not run" >&2
  exit 1
fi

# JMH refuses an option given twice, so the JSON defaults give way to a caller's -rf or -rff.
format=(-rf json)
file=(-rff target/jmh-tool-executor.json)
for arg in "$@"; do
  case "$arg" in
    -rf) format=() ;;
    -rff) file=() ;;
  esac
done

exec java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  org.openjdk.jmh.Main ToolExecutorBenchmark "${format[@]}" "${file[@]}" "$@"
