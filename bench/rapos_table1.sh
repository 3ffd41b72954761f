#!/usr/bin/env bash
# Table 1 of Sen's RAPOS paper (docs/references.md) on our programs: distinct partial orders in 300 executions
# under random and RAPOS, and their ratio. The HTML report in OUT_DIR has the distribution
# plot (Sen, Fig. 6).
#
#   bench/rapos_table1.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/rapos-table1}
mkdir -p "$(dirname "$out")"
seed=${3:-2026}
"$build/runner/jsched" bench "$here/suites/rapos-table1.xml" --jobs 2 --no-minimize --seed "$seed" --out "$out" >"$out.log" || [ $? -eq 1 ]  # 1: an expectation unmet, reported below
echo "program            executions  random  rapos  rapos/random"
awk -F, 'NR > 1 { runs[$1] = $3; po[$1 "," $2] = $14; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
  END { for (i = 0; i < n; i++) { p = order[i]; r = po[p ",random"]; q = po[p ",rapos"];
          printf "%-18s %10d %7d %6d %13.2f\n", p, runs[p], r, q, (r > 0 ? q / r : 0) } }' "$out/summary.csv"
echo "report: $out/report.html"
