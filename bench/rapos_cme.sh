#!/usr/bin/env bash
# Figure 7 of Sen's RAPOS paper (docs/references.md) on our drivers: mean executions until the containsAll
# ConcurrentModificationException over 25 experiments, random against RAPOS. Each experiment
# stops at its first CME (at most 2000 executions); other findings (the drivers also deadlock)
# end their run and are counted, not stopped at.
#
#   bench/rapos_cme.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/rapos-cme}
mkdir -p "$(dirname "$out")"
seed=${3:-2026}
"$build/runner/jsched" bench "$here/suites/rapos-cme.xml" --until-bug --jobs 2 --no-minimize --seed "$seed" \
  --out "$out" >"$out.log" || [ $? -eq 1 ]  # 1: an expectation unmet, reported below
echo "executions to the CME, mean ± sd over the experiments that found it (found/25):"
echo "program        random                       rapos"
awk -F, 'NR > 1 { cell[$1 "," $2] = sprintf("%8.1f ± %-7.1f (%d/%d)", $10, $11, $13, $12)
    if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
  END { for (i = 0; i < n; i++) { p = order[i]
          printf "%-14s %-28s %s\n", p, cell[p ",random"], cell[p ",rapos"] } }' "$out/summary.csv"
echo "report: $out/report.html"
