#!/usr/bin/env bash
# TSCA on the benchmark of Çalpur's thesis (Fig. 39; docs/references.md): executions `jsched run
# --strategy tsca` needs for full t-way coverage of the known block sequences, for m = 5, 10,
# 15, 20 threads at t = 3 and for m = 5 at t = 2 and 4 (2 exploration runs included).
#
#   bench/tsca_table.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/tsca-table}
seed=${3:-1}
mkdir -p "$out"
classes="$here/../samples/target/classes"
[ -d "$classes/jsched/samples/tscabench" ] || { echo "build the samples first (README)" >&2; exit 2; }
echo "   m   n   t  executions  coverage          blocks  seconds"
for row in "5 3" "10 3" "15 3" "20 3" "5 2" "5 4"; do
  set -- $row
  dir="$out/m$1-t$2"
  rm -rf "$dir"
  start=$(date +%s.%N)
  "$build/runner/jsched" run --strategy tsca --t "$2" --runs 1000 --seed "$seed" --jobs 2 --no-minimize \
    --out "$dir" -- java -cp "$classes" jsched.samples.tscabench.Main "$1" >"$dir.log" 2>&1
  end=$(date +%s.%N)
  line=$(grep -E "tsca: (full coverage|stopped) after" "$dir.log")
  runs=$(sed -E 's/.* after ([0-9]+) executions.*/\1/' <<<"$line")
  cov=$(sed -E 's/.*: ([0-9]+ of [0-9]+) known.*\(([0-9.]+%)\).*/\1 (\2)/' <<<"$line")
  blocks=$(sed -E 's/.* ([0-9]+) blocks$/\1/' <<<"$line")
  printf "%4d %3d %3d %11d  %-17s %6d %8.1f\n" "$1" 5 "$2" "$runs" "${cov%% (*}" "$blocks" \
    "$(echo "$end - $start" | bc)"
done
echo "results: $out (report.html of each run has the coverage curve)"
