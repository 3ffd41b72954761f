#!/usr/bin/env bash
# Many-thread strategies: reorderN (N = 3 to 100) and twostageN (N = 2 to 100) under random,
# PCT (depth 2, 3, and 3 with thread-bounded priorities) and RAPOS, at most 1000 executions
# each (each program x strategy stops at its first finding).
#
#   bench/many_threads.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/many-threads}
seed=${3:-2026}
status=0
"$build/runner/jsched" bench "$here/suites/many-threads.xml" --until-bug --jobs 2 --no-minimize --seed "$seed" --out "$out" || status=$?
echo
echo "executions to the first finding (- : none in 1000):"
awk -F, 'NR > 1 { printf "  %-24s %-15s %s\n", $1, $2, ($11 == "" ? "-" : $11) }' "$out/summary.csv"
exit $status
