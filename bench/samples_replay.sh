#!/usr/bin/env bash
# Replay acceptance on every buggy sample of samples/suite.xml: find a seed that shows the bug (random strategy),
# record its schedule, replay it 100 times (each must end with the same outcome), and record
# the same seed 20 times (every schedule file must be identical).
#
#   bench/samples_replay.sh [BUILD_DIR] [REPLAYS] [SAME_SEED_RUNS]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
build=${1:-$root/build}
replays=${2:-100}
same=${3:-20}
agent=$build/jvmti-agent/libjsched.so
cp=$root/samples/target/classes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every program whose expected outcome is a finding (its <program> may span two lines).
mains=$(tr '\n' ' ' < "$root/samples/suite.xml" | grep -o '<program [^>]*>' | grep -v 'expect="none"' |
  grep -o 'main="[^"]*"' | cut -d'"' -f2)
printf "%-45s %6s %8s %10s %10s\n" program seed outcome replayed identical
for m in $mains; do
  seed=""; status=0
  for s in $(seq 1 1000); do
    java -agentpath:"$agent"=seed=$s,record="$tmp/sched" -cp "$cp" "$m" >/dev/null 2>&1
    status=$?
    if [ $status -ne 0 ]; then seed=$s; break; fi
  done
  if [ -z "$seed" ]; then printf "%-45s %6s\n" "$m" "none"; continue; fi
  ok=0
  for i in $(seq "$replays"); do
    java -agentpath:"$agent"=replay="$tmp/sched" -cp "$cp" "$m" >/dev/null 2>&1
    [ $? -eq $status ] && ok=$((ok + 1))
  done
  identical=0
  for i in $(seq "$same"); do
    java -agentpath:"$agent"=seed=$seed,record="$tmp/again" -cp "$cp" "$m" >/dev/null 2>&1
    cmp -s "$tmp/sched" "$tmp/again" && identical=$((identical + 1))
  done
  printf "%-45s %6s %8s %7s/%-3s %7s/%-3s\n" "$m" "$seed" "$status" "$ok" "$replays" "$identical" "$same"
done
