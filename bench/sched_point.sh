#!/usr/bin/env bash
# Cost of one scheduling point under strategy=random (two threads, 100,000 synchronized
# increments each: 400,000 points; then the same with a ReentrantLock's lock()/unlock()),
# against a futex handoff between two threads on the same core, all measured in this run on
# core 0. Scheduling points are measured with HaPSet coverage (hapset=on: the default where a
# report is written) and without (hapset=off: the default otherwise): the difference is what
# naming each event's statement costs.
#
#   bench/sched_point.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
agent=$build/jvmti-agent/libjsched.so
n=100000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/java/SyncCounter.java" "$here/java/LockCounter.java" "$here/java/RealClock.java"
best_handoff=; best_point=; best_lock=; best_off=
point_us() {  # program [options] -> microseconds per scheduling point under the agent
  taskset -c 0 java -agentpath:"$agent"=strategy=random,seed=$rep,exclude=RealClock${2:+,$2} -cp "$tmp" "$1" $n 2>/dev/null |
    awk -v n="$n" '/elapsed_ns/{printf "%.3f", $2 / 1000 / (4 * n)}'
}
for rep in 1 2 3; do
  h=$(taskset -c 0 "$build/bench/futex_pingpong" 200000 | awk '{print $3}')
  p=$(point_us SyncCounter hapset=on)
  l=$(point_us LockCounter hapset=on)
  o=$(point_us SyncCounter hapset=off)
  for v in "$p" "$l" "$o"; do  # a run that failed, or timed itself on the virtual clock
    awk -v v="$v" 'BEGIN{exit !(v > 0.05)}' || { echo "sched_point.sh: no real timing ($v us)" >&2; exit 1; }
  done
  echo "run $rep: handoff $h us, scheduling point $p us (synchronized), $l us (ReentrantLock), $o us (synchronized, hapset=off)"
  best_handoff=$(awk -v a="$h" -v b="${best_handoff:-1e9}" 'BEGIN{print (a<b)?a:b}')
  best_point=$(awk -v a="$p" -v b="${best_point:-1e9}" 'BEGIN{print (a<b)?a:b}')
  best_lock=$(awk -v a="$l" -v b="${best_lock:-1e9}" 'BEGIN{print (a<b)?a:b}')
  best_off=$(awk -v a="$o" -v b="${best_off:-1e9}" 'BEGIN{print (a<b)?a:b}')
done
plain=$(taskset -c 0 java -cp "$tmp" SyncCounter $n | awk '/elapsed_ns/{printf "%.3f", $2 / 1000 / (4 * '$n')}')
echo "same-core futex handoff:       $best_handoff us"
echo "jsched scheduling point:       $best_point us (random strategy, 2 threads, best of 3, hapset=on)"
echo "  without HaPSet coverage:      $best_off us (hapset=off)"
echo "  with ReentrantLock:           $best_lock us (lock()/unlock() points, parks in the model, hapset=on)"
echo "plain JVM, per monitor op:     $plain us (no agent)"
echo "ratio point/handoff:           $(awk -v a="$best_point" -v b="$best_handoff" 'BEGIN{printf "%.2f", a/b}')"
echo "ratio ReentrantLock/handoff:    $(awk -v a="$best_lock" -v b="$best_handoff" 'BEGIN{printf "%.2f", a/b}')"
