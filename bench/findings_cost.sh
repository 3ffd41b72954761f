#!/usr/bin/env bash
# What a finding costs: programs whose executions under jsched mostly find their bug
# (bench/java/findings: a lock-order deadlock, a lost update that throws, a lazy initialization
# that throws about half the time, and the shapes of racy-collection benchmarks: a check-then-act
# on a synchronized queue, a stack whose top is read and then set, a ring buffer whose consumers
# read and then advance a volatile index; two whose failure is thrown in a worker that holds
# a lock: a stack popped below empty, most executions, and a wrong bound checked in every one;
# and one whose worker throws before it counts down a latch another thread waits on, every one),
# N executions in one JVM (iterations=N,explore)
# against the same program's main called N times in a bare loop in one JVM
# (bench/java/MainLoop.java, one shared class loader; a fresh loader per execution for
# reference), all measured in this run.
#
#   bench/findings_cost.sh [--strategy S] [BUILD_DIR] [N]
#     --strategy  jsched's strategy (default: none given, jsched's default: random with every
#                 access a point); `random` alone makes only synchronization and volatile
#                 accesses points, so LostUpdate's plain counter can show nothing there
#
# cost/finding: (time of the N executions - time of the same N executions with the finding
# taken out) / findings, in microseconds. "Taken out": the same program with its check off
# (quiet: same work, same schedules, no finding) where there is one; for the deadlock, its
# fixed twin (same locks in one order), whose executions run to their end: a negative cost
# there means a deadlock ends its execution sooner than the fixed twin's end.
# A deadlocking program can hang a plain JVM too (rarely, and more often on a loaded machine):
# its bare loop then has no rate, and its fixed twin's bare loop stands in (marked *).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
strategy=
if [ "${1:-}" = --strategy ]; then
  [ $# -ge 2 ] || { echo "findings_cost.sh: error: --strategy needs a value" >&2; exit 2; }
  strategy=$2
  shift 2
fi
label="jsched's default strategy"
[ -z "$strategy" ] || label="strategy $strategy"
build=${1:-$here/../build}
n=${2:-2000}
agent=$build/jvmti-agent/libjsched.so
[ -f "$agent" ] || { echo "findings_cost.sh: build first ($agent)" >&2; exit 2; }
. "$here/main_loop.sh"
javac -d "$tmp" "$here"/java/findings/*.java
# jsched's line "N iterations in S s (R per second), seeds ...: F findings, ..."
run_jsched() {
  java -agentpath:"$agent"=${strategy:+strategy=$strategy,}seed=1,iterations=$n,explore -cp "$tmp" "findings.$1" ${2:-} \
    2>&1 >/dev/null | grep ' iterations in ' || true
}
loop() {  # $1: --same-loader or --fresh; prints the rate or nothing
  local same=""; [ "$1" = --same-loader ] && same=--same-loader
  shift
  java -cp "$tmp" MainLoop $same "$n" "findings.$1" ${2:-} 2>&1 >/dev/null | rate || true
}
printf "%-16s %8s %10s %10s %10s %8s %8s %12s\n" program found plain-same plain-fresh jsched \
  /same /fresh cost/finding
for row in "LockOrderRounds fixed" "LostUpdate quiet" "LazyInit quiet" "CheckThenPoll quiet" \
  "RacyStack quiet" "RingBuffer quiet" "WorkerUnderflow quiet" "WorkerThrows quiet" "WorkerStrands quiet"; do
  set -- $row
  p=$1 ref=$2
  same=0 fresh=0 js=0 js_ref=0 found=0 star=""
  for round in 1 2 3; do  # best of three interleaved rounds: the machine is shared and noisy
    s=$(loop --same-loader "$p"); [ -n "$s" ] && same=$(best "$s" "$same")
    f=$(loop --fresh "$p"); [ -n "$f" ] && fresh=$(best "$f" "$fresh")
    line=$(run_jsched "$p")
    js=$(best "$(echo "$line" | rate)" "$js")
    found=$(echo "$line" | sed -n 's/.*: \([0-9]*\) findings\{0,1\},.*/\1/p')
    js_ref=$(best "$(run_jsched "$p" "$ref" | rate)" "$js_ref")
  done
  if [ "$same" = 0 ]; then  # the bare loop hung every round: the fixed twin's
    for round in 1 2 3; do
      s=$(loop --same-loader "$p" fixed); [ -n "$s" ] && same=$(best "$s" "$same")
      f=$(loop --fresh "$p" fixed); [ -n "$f" ] && fresh=$(best "$f" "$fresh")
    done
    star="*"
  fi
  cost=$(awk -v n="$n" -v a="$js" -v b="$js_ref" -v f="${found:-0}" \
    'BEGIN{ if (f == 0 || a == 0 || b == 0) print "-"; else printf "%.0f us", (n/a - n/b) / f * 1e6 }')
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b == 0) print "-"; else printf "%.2f", a/b }'; }
  printf "%-16s %8s %10s %10s %10s %8s %8s %12s\n" "$p" "${found:-0}/$n" "$same$star" \
    "$fresh$star" "$js" "$(ratio "$js" "$same")" "$(ratio "$js" "$fresh")" "$cost"
done
echo "executions per second, best of 3 interleaved rounds, $n executions per JVM, $label"
echo "/same: jsched over the bare loop with one shared loader (the goal: >= 0.5 where every execution finds the bug)"
