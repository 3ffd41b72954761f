#!/usr/bin/env bash
# Executions per second of programs with many threads (reorderN, twostageN) with iterations=N
# in one JVM, against the same main run N times in one JVM without jsched (from a class loader
# of its own each time, as iterations do, and from one shared loader). Starting and ending the
# program's threads is most of an execution here, with or without jsched; all measured in this
# one run, best of 3 interleaved rounds. Findings do not stop the loop (explore).
#
#   bench/many_threads_speed.sh [BUILD_DIR] [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${2:-200}
agent=$build/jvmti-agent/libjsched.so
jar=$here/../samples/target/jsched-samples-1.0.jar
. "$here/main_loop.sh"
printf "%-22s %11s %10s %8s %8s %8s\n" program plain-fresh plain-same jsched "/fresh" "/same"
for p in "reordern.Main 3" "reordern.Main 10" "reordern.Main 50" "reordern.Main 100" \
  "twostagen.Main 10" "twostagen.Main 100"; do
  read -r cls arg <<<"$p"
  main=jsched.samples.$cls
  fresh=0; same=0; jsched=0
  for round in 1 2 3; do
    fresh=$(best "$(java -cp "$tmp:$jar" MainLoop "$n" "$main" "$arg" 2>&1 >/dev/null | rate)" "$fresh")
    same=$(best "$(java -cp "$tmp:$jar" MainLoop --same-loader "$n" "$main" "$arg" 2>&1 >/dev/null |
      rate)" "$same")
    jsched=$(best "$(java -agentpath:"$agent"=strategy=random,seed=1,iterations=$n,explore -cp "$jar" \
      "$main" "$arg" 2>&1 >/dev/null | grep 'iterations in' | rate)" "$jsched")
  done
  printf "%-22s %11s %10s %8s %8s %8s\n" "$cls $arg" "$fresh" "$same" "$jsched" \
    "$(awk -v a="$jsched" -v b="$fresh" 'BEGIN{printf "%.2f", a/b}')" \
    "$(awk -v a="$jsched" -v b="$same" 'BEGIN{printf "%.2f", a/b}')"
done
echo "executions per second, best of 3 interleaved rounds; $n iterations per JVM, strategy random"
