#!/usr/bin/env bash
# TSCA on samples: the 3-way coverage curve over 100 executions (in
# each report.html), and the mean executions to the first finding under tsca and under random
# over E experiments (master seeds 1..E), both with --until-bug.
#
#   bench/tsca_samples.sh [BUILD_DIR] [OUT_DIR] [E] [PROGRAMS]   (default: all four below)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/tsca-samples}
experiments=${3:-10}
programs=${4:-clean twostage boundedbuffer philosophers}
mkdir -p "$out"
classes="$here/../samples/target/classes"
jsched="$build/runner/jsched"
# Executions up to and including the first finding (the budget + 1 when there was none).
first() {
  awk -v budget="$2" 'match($0, /"index":[0-9]+/) { i = substr($0, RSTART + 8, RLENGTH - 8) + 0
      if ($0 ~ /"outcome":"(bug|deadlock|hang)"/ && (best == "" || i < best)) best = i }
    END { print (best == "" ? budget + 1 : best + 1) }' "$1/runs.jsonl"
}
echo "program         3-way coverage after 100   tsca first finding  random first finding  (mean of $experiments; none = budget+1)"
for p in $programs; do
  "$jsched" run --strategy tsca --t 3 --runs 100 --seed 1 --jobs 2 --no-minimize --out "$out/$p-curve" \
    -- java -cp "$classes" "jsched.samples.$p.Main" >"$out/$p-curve.log" 2>&1 || true
  cov=$(grep -E "tsca: (full coverage|stopped) after" "$out/$p-curve.log" |
    sed -E 's/.*: ([0-9]+ of [0-9]+) known.*\(([0-9.]+%)\).*/\1 (\2)/')
  tsum=0 rsum=0 tmiss=0 rmiss=0
  for s in $(seq 1 "$experiments"); do
    for strat in tsca random; do
      d="$out/$p-$strat-$s"
      budget=$([ $strat = tsca ] && echo 300 || echo 1000)
      "$jsched" run --strategy $strat --runs $budget --seed "$s" --jobs 2 --no-minimize --until-bug --out "$d" \
        -- java -cp "$classes" "jsched.samples.$p.Main" >"$d.log" 2>&1 || true
      n=$(first "$d" $budget)
      if [ $strat = tsca ]; then tsum=$((tsum + n)); [ "$n" -gt $budget ] && tmiss=$((tmiss + 1)); fi
      if [ $strat = random ]; then rsum=$((rsum + n)); [ "$n" -gt $budget ] && rmiss=$((rmiss + 1)); fi
    done
  done
  printf "%-15s %-26s %8.1f (%d none)     %8.1f (%d none)\n" "$p" "$cov" \
    "$(echo "$tsum / $experiments" | bc -l)" $tmiss "$(echo "$rsum / $experiments" | bc -l)" $rmiss
done
echo "results: $out (coverage curves: $out/*-curve/report.html)"
