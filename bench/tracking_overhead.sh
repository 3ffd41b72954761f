#!/usr/bin/env bash
# After Table 2 of Bindal et al.'s PCTVB paper (docs/references.md): the cost of PCTVB's variable tracking on four
# compute-heavy correct samples (montecarlo, moldyn, tsp, blockingqueue), all measured in one
# run of this script:
#   native      plain java, all cores
#   native-1    plain java pinned to one core (jsched runs one thread at a time)
#   v0          the agent with strategy=pct (sync operations scheduled, no access hooked)
#   v1, v2      strategy=pctvb,vars=1|2: mean over SEEDS executions (each seed tracks other
#               variables, as the paper averages over its runs)
#   vall        strategy=pctvb with every variable of the plan tracked
#   profile     the profile run that makes the plan (every access counted); prof/v0 compares it
#               with the plain jsched run of the same program (goal: at most 3x)
# Each JVM's wall time is the median of its repetitions. The plan comes from one profile run.
#
#   bench/tracking_overhead.sh [BUILD_DIR] [SEEDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
seeds=${2:-5}
agent=$build/jvmti-agent/libjsched.so
cp=$here/../samples/target/classes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$cp/jsched/samples/tsp/Main.class" ] || { echo "build the samples first (scripts/build.sh)" >&2; exit 2; }

ms() {  # wall time of one command in ms; fails the script if the program fails
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>"$tmp/err" || { echo "failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mean() { awk '{s+=$1} END {printf "%d", s/NR}'; }
agent_opts="timeout=600000"

printf '%-14s %4s %11s %7s %8s %6s %6s %6s %7s %7s %8s %9s %9s %8s\n' program Q accesses native native-1 v0 v1 v2 vall profile v1/native vall/v1 prof/nat prof/v0
for w in montecarlo moldyn tsp blockingqueue; do
  main=jsched.samples.$w.Main
  plan=$tmp/$w.plan
  profile=$(ms java -agentpath:"$agent"=strategy=random,seed=1,$agent_opts,profile="$plan" -cp "$cp" "$main")
  q=$(grep -c '^static\|^new' "$plan")
  acc=$(awk '$1 == "static" || $1 == "new" {s += $2} END {print s}' "$plan")
  native=$(for i in 1 2 3; do ms java -cp "$cp" "$main"; done | median)
  native1=$(for i in 1 2 3; do ms taskset -c 0 java -cp "$cp" "$main"; done | median)
  v0=$(for i in 1 2 3; do ms java -agentpath:"$agent"=strategy=pct,seed=$i,$agent_opts,plan="$plan" -cp "$cp" "$main"; done | median)
  v1=$(for i in $(seq "$seeds"); do ms java -agentpath:"$agent"=strategy=pctvb,vars=1,seed=$i,$agent_opts,plan="$plan" -cp "$cp" "$main"; done | mean)
  v2=$(for i in $(seq "$seeds"); do ms java -agentpath:"$agent"=strategy=pctvb,vars=2,seed=$i,$agent_opts,plan="$plan" -cp "$cp" "$main"; done | mean)
  vall=$(for i in 1 2 3; do ms java -agentpath:"$agent"=strategy=pctvb,vars=1000,seed=$i,$agent_opts,plan="$plan" -cp "$cp" "$main"; done | median)
  printf '%-14s %4d %11d %7d %8d %6d %6d %6d %7d %7d %8.2f %9.2f %9.2f %8.2f\n' "$w" "$q" "$acc" "$native" "$native1" "$v0" "$v1" "$v2" "$vall" "$profile" \
    "$(awk -v a="$v1" -v b="$native" 'BEGIN{print a/b}')" "$(awk -v a="$vall" -v b="$v1" 'BEGIN{print a/b}')" \
    "$(awk -v a="$profile" -v b="$native" 'BEGIN{print a/b}')" "$(awk -v a="$profile" -v b="$v0" 'BEGIN{print a/b}')"
done
echo "(times in ms; Q variables and accesses per execution from the profile run)"
