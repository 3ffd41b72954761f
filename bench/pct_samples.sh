#!/usr/bin/env bash
# Every buggy sample found by PCT at depth 2 and 3 within 1000
# executions (each program x depth stops at its first finding).
#
#   bench/pct_samples.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/pct-samples}
seed=${3:-2026}
status=0
"$build/runner/jsched" bench "$here/suites/pct-samples.xml" --until-bug --jobs 2 --no-minimize --seed "$seed" --out "$out" || status=$?
echo
echo "executions to the first finding (- : none in 1000):"
awk -F, 'NR > 1 { printf "  %-24s %-7s %s\n", $1, $2, ($11 == "" ? "-" : $11) }' "$out/summary.csv"
exit $status
