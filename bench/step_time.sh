#!/usr/bin/env bash
# How much real time one scheduling point stands for in ordinary concurrent code: the basis of
# the virtual clock's cost per step (kStepTimeNs, jvmti-agent/model/virtual_clock.h). Each workload
# of bench/java/StepMix.java runs plainly (its first round, a cold JVM, and the best of 5, a
# warm one) and once under the agent, whose report counts its scheduling points; the time per
# point is the plain elapsed time over that count.
#
#   bench/step_time.sh [BUILD_DIR] [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${2:-20000}
agent=$build/jvmti-agent/libjsched.so
[ -f "$agent" ] || { echo "step_time.sh: error: no agent at $agent (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/java/StepMix.java" "$here/java/RealClock.java"
elapsed() { awk '/elapsed_ns/{print $2}'; }
printf '%-10s %12s %14s %14s\n' workload points "ns/pt (cold)" "ns/pt (warm)"
for w in pipeline cache executor monitor; do
  cold=$(java -cp "$tmp" StepMix "$w" "$n" 1 | elapsed)
  warm=$(java -cp "$tmp" StepMix "$w" "$n" 5 | elapsed)
  java -agentpath:"$agent"=strategy=random,seed=1,exclude=RealClock,report="$tmp/r.json" \
    -cp "$tmp" StepMix "$w" "$n" 1 >/dev/null 2>&1
  points=$(sed -n 's/.*"scheduling_points":\([0-9]*\).*/\1/p' "$tmp/r.json")
  [ -n "$points" ] && [ "$points" -gt 0 ] || { echo "step_time.sh: no report for $w" >&2; exit 1; }
  awk -v w="$w" -v p="$points" -v c="$cold" -v h="$warm" \
    'BEGIN{printf "%-10s %12d %14.0f %14.0f\n", w, p, c / p, h / p}'
done
echo "virtual time per step: 1000 ns (kStepTimeNs)"
