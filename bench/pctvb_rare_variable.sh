#!/usr/bin/env bash
# Fig. 6 of Bindal et al.'s PCTVB paper (docs/references.md): mean executions to the bug on a rarely accessed
# variable for random, PCT and PCTVB, 25 experiments each, in one `jsched bench` run.
#
#   bench/pctvb_rare_variable.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d)/rare-variable}
seed=${3:-2026}
"$build/runner/jsched" bench "$here/suites/rare-variable.xml" --until-bug --jobs 2 --no-minimize --seed "$seed" --out "$out" || true
echo
echo "mean executions to the bug (over experiments that found it; n/25 when not all did):"
awk -F, 'NR > 1 { printf "  %-12s %8s  (%s of %s experiments found it, %s executions in all)\n", $2, ($11 == "" ? "-" : $11), $14, $13, $3 }' "$out/summary.csv"
