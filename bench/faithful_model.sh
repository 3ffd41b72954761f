#!/usr/bin/env bash
# The faithful-model samples (bench/suites/faithful-model.xml) under random, pct and rapos: each
# buggy program's runs to its first finding (--until-bug, at most 1000), each correct one 1000
# runs that must all be clean; once with --in-jvm 250 and once with a JVM per run.
#
#   bench/faithful_model.sh [BUILD_DIR] [OUT_DIR] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-$(mktemp -d /tmp/jsched-faithful.XXXXXX)}
seed=${3:-2026}
jsched=$build/runner/jsched
status=0
for mode in in-jvm per-jvm; do
  extra=()
  [ "$mode" = in-jvm ] && extra=(--in-jvm 250)
  echo "== $mode"
  "$jsched" bench "$here/suites/faithful-model.xml" --until-bug --seed "$seed" --jobs 2 --no-minimize \
    "${extra[@]}" --out "$out/$mode" 2>/dev/null || status=$?
done
exit "$status"
