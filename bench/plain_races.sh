#!/usr/bin/env bash
# Races on plain fields under the defaults (docs/agent.md, "Shared accesses"):
#  1. each plain-field race sample under the runner's default (`jsched run --until-bug`, the
#     portfolio with accesses=shared), in BATCHES batches with master seeds 1..BATCHES: the
#     execution of the first finding (goal: within 200 in every batch);
#  2. their fixed variants, FIXED executions each under the default (goal: nothing found);
#  3. the agent alone with no strategy option (-agentpath with a seed only, accesses=all):
#     findings in 200 executions in one JVM;
#  4. the default's speed: executions per second of the samples' correct programs with the
#     default's plan (portfolio, iterations=N in one JVM) under accesses=volatile (the default
#     before shared accesses), shared and all (the other way to find these races), best of 3
#     interleaved rounds, and the ratios to volatile.
#
#   bench/plain_races.sh [BUILD_DIR] [BATCHES] [FIXED] [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
batches=${2:-10}
fixed=${3:-2000}
n=${4:-1000}
jsched=$build/runner/jsched
agent=$build/jvmti-agent/libjsched.so
classes=$root/samples/target/classes
[ -x "$jsched" ] && [ -f "$agent" ] || { echo "plain_races.sh: build first ($build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
races="lazyinit hashmaprace appenders longcounter"

# The number after `key` in a summary.csv row of `dir`.
column() {
  awk -F, -v k="$2" 'NR==1{for(i=1;i<=NF;i++) if($i==k) c=i; next} {print $c; exit}' "$1/summary.csv"
}

echo "== 1. the default finds each race (jsched run --until-bug --runs 200), $batches batches"
printf "%-12s %8s %s\n" sample found "first finding per batch (execution)"
for s in $races; do
  found=0; firsts=""
  for seed in $(seq 1 "$batches"); do
    out=$tmp/find-$s-$seed
    "$jsched" run --runs 200 --until-bug --seed "$seed" --no-minimize --out "$out" \
      -- java -cp "$classes" "jsched.samples.$s.Main" >/dev/null 2>&1 || true
    if [ "$(column "$out" found)" = yes ]; then
      found=$((found + 1)); firsts+="$(column "$out" first_finding_mean | cut -d. -f1) "
    else
      firsts+="- "
    fi
  done
  printf "%-12s %5s/%-2s %s\n" "$s" "$found" "$batches" "$firsts"
done

echo "== 2. their fixed variants under the default, $fixed executions each (--in-jvm 500)"
for s in $races; do
  out=$tmp/fixed-$s
  status=0
  "$jsched" run --runs "$fixed" --in-jvm 500 --seed 1 --no-minimize --out "$out" \
    -- java -cp "$classes" "jsched.samples.$s.Fixed" >/dev/null 2>&1 || status=$?
  printf "%-12s exit %s, ok %s of %s\n" "$s.Fixed" "$status" "$(column "$out" ok)" \
    "$(column "$out" runs)"
done

echo "== 3. the agent with no strategy option (accesses=all), 200 executions in one JVM"
for s in $races; do
  line=$(java -agentpath:"$agent"=seed=1,iterations=200,explore -cp "$classes" \
    "jsched.samples.$s.Main" 2>&1 >/dev/null | grep ' iterations in [0-9.]* s ' || true)
  printf "%-12s %s\n" "$s" "$(sed 's/.*seeds 1..200: \([0-9]*\) findings.*/\1 findings in 200/' <<< "$line")"
done

echo "== 4. the default's speed: accesses=shared (and all) against volatile, $n executions per JVM"
printf "%-22s %10s %10s %10s %8s %8s %8s\n" program volatile shared all shared/v all/v points
samples="account.Fixed airline.Fixed philosophers.Fixed twostage.Fixed checkthenact.Fixed
  lostnotify.Fixed synclist.Fixed lockorder.Fixed executors.Main lazyinit.Fixed
  hashmaprace.Fixed appenders.Fixed longcounter.Fixed"
rate() { sed -n 's/.*(\([0-9.]*\) per second).*/\1/p'; }
best() { awk -v a="$1" -v b="${2:-0}" 'BEGIN{print (a>b)?a:b}'; }
sum=0; sum_all=0; rows=0
for s in $samples; do
  main=jsched.samples.$s
  # The default's plan: the profile runs of a one-execution batch.
  "$jsched" run --runs 1 --seed 1 --no-minimize --out "$tmp/plan-$s" -- java -cp "$classes" \
    "$main" >/dev/null 2>&1 || true
  plan=$(ls "$tmp/plan-$s"/profile/*.plan 2>/dev/null | head -1)
  [ -n "$plan" ] || { echo "$s: no plan"; continue; }
  shared_vars=$(grep -c '^shared$' "$plan" || true)
  vol=0; sh=0; all=0
  for round in 1 2 3; do
    for a in volatile shared all; do
      r=$(java -agentpath:"$agent"=strategy=portfolio,seed=1,iterations=$n,plan=$plan,accesses=$a \
        -cp "$classes" "$main" 2>&1 >/dev/null | grep 'iterations in' | rate)
      case $a in
        volatile) vol=$(best "$r" "$vol") ;;
        shared) sh=$(best "$r" "$sh") ;;
        all) all=$(best "$r" "$all") ;;
      esac
    done
  done
  ratio=$(awk -v a="$sh" -v b="$vol" 'BEGIN{printf "%.2f", a/b}')
  ratio_all=$(awk -v a="$all" -v b="$vol" 'BEGIN{printf "%.2f", a/b}')
  printf "%-22s %10s %10s %10s %8s %8s %8s\n" "$s" "$vol" "$sh" "$all" "$ratio" "$ratio_all" \
    "$shared_vars"
  sum=$(awk -v a="$sum" -v b="$ratio" 'BEGIN{print a+b}')
  sum_all=$(awk -v a="$sum_all" -v b="$ratio_all" 'BEGIN{print a+b}'); rows=$((rows + 1))
done
echo "executions per second, best of 3 interleaved rounds; points: the plan's shared variables"
echo "mean shared/volatile: $(awk -v a="$sum" -v n="$rows" 'BEGIN{printf "%.2f", a/n}') (goal >= 0.9);" \
  "mean all/volatile: $(awk -v a="$sum_all" -v n="$rows" 'BEGIN{printf "%.2f", a/n}')"
