#!/usr/bin/env bash
# Overhead of the runner itself: 200 executions of a trivial program through
# `jsched run --jobs 1` against 200 plain `java -agentpath:...` invocations in a shell loop
# (same agent options, report file included), alternated in one run.
#
#   bench/runner_overhead.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
runs=${2:-200}
agent=$build/jvmti-agent/libjsched.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/java/Hello.java"
loop() {
  for i in $(seq "$runs"); do
    java -agentpath:"$agent"=strategy=random,seed=$i,timeout=10000,report="$tmp/r.json" -cp "$tmp" Hello >/dev/null 2>&1 || true
  done
}
runner() {
  rm -rf "$tmp/out"
  "$build/runner/jsched" run --strategy random --runs "$runs" --jobs 1 --no-minimize --seed 1 --out "$tmp/out" -- java -cp "$tmp" Hello >/dev/null 2>&1 || true
}
t() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
best_loop=999999999; best_runner=999999999
for rep in 1 2; do
  l=$(t loop); r=$(t runner)
  echo "round $rep: shell loop ${l} ms, jsched run ${r} ms"
  [ "$l" -lt "$best_loop" ] && best_loop=$l
  [ "$r" -lt "$best_runner" ] && best_runner=$r
done
echo "shell loop of $runs agent runs: $best_loop ms"
echo "jsched run --runs $runs --jobs 1: $best_runner ms"
echo "ratio runner/loop:              $(awk -v a="$best_runner" -v b="$best_loop" 'BEGIN{printf "%.3f", a/b}')"
