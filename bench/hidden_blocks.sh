#!/usr/bin/env bash
# Hidden blocks (a controlled thread blocked where jsched cannot see; such a run may not
# repeat): how many runs of each sample of samples/suite.xml had one in default mode, and of
# the collection drivers with java.util instrumented (JDK mode). The goal is 0 everywhere.
#
#   bench/hidden_blocks.sh [BUILD_DIR] [RUNS] [SEED]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
build=${1:-$root/build}
runs=${2:-100}
seed=${3:-7}
jsched=$build/runner/jsched
out=$(mktemp -d /tmp/jsched-hidden.XXXXXX)
trap 'rm -rf "$out"' EXIT
count() {  # runs with hidden blocks, per program, from a runs.jsonl
  grep '"hidden_blocks":' "$1" | grep -o '"program":"[^"]*"' | sort | uniq -c || true
}
"$jsched" bench "$root/samples/suite.xml" --runs "$runs" --seed "$seed" --jobs 2 --no-minimize \
  --out "$out/default" >/dev/null 2>&1 || true
echo "default mode, $runs runs of each sample:"
total=$(grep -c '"hidden_blocks":' "$out/default/runs.jsonl" || true)
count "$out/default/runs.jsonl"
echo "  runs with hidden blocks: ${total:-0} of $(wc -l < "$out/default/runs.jsonl")"
echo "JDK mode (include=java.util.), collection drivers:"
for c in vector arraylist linkedlist hashset linkedhashset treeset; do
  "$jsched" run --strategy random --runs "$runs" --seed "$seed" --jobs 2 --no-minimize --params include=java.util. \
    --out "$out/$c" -- java -cp "$root/samples/target/classes" jsched.samples.collections.Main "$c" \
    >/dev/null 2>&1 || true
  printf "  %-14s %s of %s runs\n" "$c" "$(grep -c '"hidden_blocks":' "$out/$c/runs.jsonl" || true)" \
    "$(wc -l < "$out/$c/runs.jsonl")"
done
