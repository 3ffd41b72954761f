#!/usr/bin/env bash
# Executions per second of every sample program (samples/suite.xml, buggy and fixed, with its
# params) and of the findings programs (bench/java/findings): N executions in one JVM under
# jsched's default strategy (iterations=N,explore) against the same main called in a bare loop
# in one JVM without jsched (bench/java/MainLoop.java, one shared loader, at most 20 s), the
# ratio per program and the median, all measured in this one run. With --heavy, then the heavy
# real programs (bench/heavy_programs.sh: one plain run against one execution under jsched).
#
#   bench/speed_table.sh [--heavy] [BUILD_DIR] [N]
#
# A program whose bare loop hangs (a deadlock the plain JVM hit too) or throws at once has no
# plain rate: "-", left out of the median. Samples that sleep run faster under jsched (virtual
# time), so their ratio is above 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
heavy=0
if [ "${1:-}" = --heavy ]; then heavy=1; shift; fi
build=${1:-$here/../build}
n=${2:-300}
agent=$build/jvmti-agent/libjsched.so
jar=$here/../samples/target/jsched-samples-1.0.jar
[ -f "$agent" ] || { echo "speed_table.sh: build first ($agent)" >&2; exit 2; }
. "$here/main_loop.sh"
javac -d "$tmp" "$here"/java/findings/*.java
ratios=$tmp/ratios
: > "$ratios"
row() {  # name class-path main params [args]
  local name=$1 cp=$2 main=$3 params=$4; shift 4
  local plain js found
  plain=$(java -cp "$tmp:$cp" MainLoop --same-loader --seconds 20 "$n" "$main" "$@" 2>&1 \
    >/dev/null | rate || true)
  line=$(java -agentpath:"$agent"=seed=1,iterations=$n,explore${params:+,$params} -cp "$cp" \
    "$main" "$@" 2>&1 >/dev/null | grep ' iterations in ' || true)
  js=$(echo "$line" | rate)
  found=$(echo "$line" | sed -n 's/.*: \([0-9]*\) findings\{0,1\},.*/\1/p')
  local r="-"
  if [ -n "$plain" ] && [ -n "$js" ]; then
    r=$(awk -v a="$js" -v b="$plain" 'BEGIN{printf "%.2f", a/b}')
    echo "$r" >> "$ratios"
  fi
  printf "%-28s %10s %10s %8s %9s\n" "$name" "${plain:--}" "${js:--}" "$r" "${found:-0}/$n"
}
printf "%-28s %10s %10s %8s %9s\n" program plain/s jsched/s ratio found
# <program name=".." main=".." expect=".." [params=".."]/>, one per line once joined
tr '\n' ' ' < "$here/../samples/suite.xml" | grep -o '<program [^>]*>' | while read -r p; do
  name=$(echo "$p" | sed -n 's/.* name="\([^"]*\)".*/\1/p')
  main=$(echo "$p" | sed -n 's/.* main="\([^"]*\)".*/\1/p')
  params=$(echo "$p" | sed -n 's/.* params="\([^"]*\)".*/\1/p')
  row "$name" "$jar" "$main" "$params"
done
for p in LockOrderRounds LostUpdate LazyInit CheckThenPoll RacyStack RingBuffer WorkerUnderflow WorkerThrows WorkerStrands; do
  row "findings.$p" "$tmp" "findings.$p" ""
done
sort -n "$ratios" | awk '{ v[NR] = $1 } END {
  if (NR == 0) { print "median: no program with both rates"; exit }
  m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median jsched/plain over %d programs: %.2f (goal >= 0.6); lowest %.2f, highest %.2f\n", NR, m, v[1], v[NR] }'
echo "executions per second; $n executions per JVM under jsched's default strategy; bare loop: one shared loader, at most $n executions or 20 s"
if [ "$heavy" = 1 ]; then
  echo "== heavy real programs (bench/heavy_programs.sh)"
  "$here/heavy_programs.sh" "$build"
fi
