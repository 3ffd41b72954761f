#!/usr/bin/env bash
# Start-up cost of the agent: wall time of `java -agentpath:...=strategy=none Hello` against
# plain `java Hello` (one extra thread), alternating the two, in one run.
#
#   bench/startup.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
runs=${2:-30}
agent=$build/jvmti-agent/libjsched.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/java/Hello.java"
[ -f "$agent" ] || { echo "bench/startup.sh: no agent at $agent (build first)" >&2; exit 2; }
# Microseconds of one run; a run that fails stops the benchmark (no figure from a broken run).
ms() {
  local s e
  s=$(date +%s%N)
  if ! "$@" >"$tmp/out" 2>&1; then
    echo "bench/startup.sh: failed: $*" >&2
    cat "$tmp/out" >&2
    exit 1
  fi
  e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
}
: > "$tmp/plain"; : > "$tmp/none"; : > "$tmp/random"
for i in $(seq "$runs"); do
  ms java -cp "$tmp" Hello >> "$tmp/plain"
  ms java -agentpath:"$agent"=strategy=none -cp "$tmp" Hello >> "$tmp/none"
  ms java -agentpath:"$agent"=strategy=random,seed=$i -cp "$tmp" Hello >> "$tmp/random"
done
# Medians in whole microseconds (the mean of the middle two can end in .5).
median() {
  sort -n "$1" | awk '{a[NR]=$1} END{printf "%d\n", (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'
}
p=$(median "$tmp/plain"); n=$(median "$tmp/none"); r=$(median "$tmp/random")
echo "plain java:             $((p / 1000)) ms (median of $runs)"
echo "agent, strategy=none:   $((n / 1000)) ms"
echo "agent, strategy=random: $((r / 1000)) ms"
echo "ratio none/plain:       $(awk -v a="$n" -v b="$p" 'BEGIN{printf "%.2f", a/b}')"
echo "ratio random/plain:     $(awk -v a="$r" -v b="$p" 'BEGIN{printf "%.2f", a/b}')"
