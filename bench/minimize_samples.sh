#!/usr/bin/env bash
# jsched minimize on every buggy sample: those of samples/suite.xml, and those that need
# arguments or options (listed below): find a seed whose random run shows the bug, minimize
# that finding, replay the minimal schedule 20 times (each must end as the finding did) and
# compare its pre-emptions with the bug's depth documented in samples/README.md (the bound: at
# most the depth plus one). Prints a markdown table. ONLY=REGEX keeps the main classes it
# matches.
#
#   bench/minimize_samples.sh [BUILD_DIR] [REPLAYS]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
build=${1:-$root/build}
replays=${2:-20}
agent=$build/jvmti-agent/libjsched.so
jsched=$build/runner/jsched
cp=$root/samples/target/classes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every program whose expected outcome is a finding (its <program> may span two lines).
mains=$(tr '\n' ' ' < "$root/samples/suite.xml" | grep -o '<program [^>]*>' | grep -v 'expect="none"' |
  grep -o 'main="[^"]*"' | cut -d'"' -f2)
# The README's depth for a main class: the cell under the "depth" header of its table row.
depth_of() {
  awk -F'|' -v main="\`$1\`" '
    /^\| main class/ { for (i = 1; i <= NF; i++) if ($i ~ /^ *depth *$/) col = i }
    col && $2 ~ main { gsub(/ /, "", $col); print $col; exit }' "$root/samples/README.md"
}
echo "| sample | outcome | seed | depth | pre-emptions before | after | executions | seconds | replays | within depth + 1 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
status=0
# The samples suite.xml leaves out: main|arguments|agent options|depth for those arguments
# (samples/README.md: reordern's depth is N, twostagen's N + 1; rarevariable's does not depend
# on its argument, which is small here so that a random run shows the bug).
extra=(
  "jsched.samples.reordern.Main|3||3"
  "jsched.samples.twostagen.Main|2||3"
  "jsched.samples.clean.Main|||"
  "jsched.samples.download.Main||,accesses=all|"
  "jsched.samples.rarevariable.Main|1|,accesses=all|"
  "jsched.samples.collections.Main|vector|,include=java.util.,accesses=all|"
)
entries=()
for m in $mains; do entries+=("$m|||"); done
entries+=("${extra[@]}")
for e in "${entries[@]}"; do
  IFS='|' read -r m args opts depth <<<"$e"
  [[ "$m" =~ ${ONLY:-.} ]] || continue
  # shellcheck disable=SC2206
  argv=($args)
  seed=""; outcome=0
  for s in $(seq 1 1000); do
    java -agentpath:"$agent"=strategy=random,seed=$s$opts -cp "$cp" "$m" "${argv[@]}" >/dev/null 2>&1
    outcome=$?
    if [ $outcome -ne 0 ]; then seed=$s; break; fi
  done
  [ -n "$depth" ] || depth=$(depth_of "$m")
  depth=${depth:-?}
  m_label="\`$m${args:+ $args}\`${opts:+ (${opts#,})}"
  if [ -z "$seed" ]; then echo "| $m_label | none in 1000 | | $depth | | | | | | |"; continue; fi
  rm -rf "$tmp/m"
  out=$("$jsched" minimize --out "$tmp/m" -- java -agentpath:"$agent"=strategy=random,seed=$seed$opts \
    -cp "$cp" "$m" "${argv[@]}" 2>"$tmp/err")
  rc=$?
  line=$(grep -o 'preemptions: [0-9]* -> [0-9]* ([0-9]* executions, [0-9.]* s)' <<<"$out")
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    echo "| $m_label | $outcome | $seed | $depth | minimize failed: $(head -c 120 "$tmp/err" | tr '\n|' ' /') | | | | | no |"
    status=1
    continue
  fi
  read -r before after runs secs <<<"$(sed -E 's/preemptions: ([0-9]+) -> ([0-9]+) \(([0-9]+) executions, ([0-9.]+) s\)/\1 \2 \3 \4/' <<<"$line")"
  ok=0
  for i in $(seq "$replays"); do
    java -agentpath:"$agent"=replay="$tmp/m/minimal.sched" -cp "$cp" "$m" "${argv[@]}" >/dev/null 2>&1
    [ $? -eq $outcome ] && ok=$((ok + 1))
  done
  within=yes
  if [ "$depth" = "?" ] || [ "$depth" = "-" ]; then within="no depth documented"; status=1
  elif [ "$after" -gt $((depth + 1)) ]; then within=no; status=1; fi
  [ "$ok" -eq "$replays" ] || status=1
  echo "| $m_label | $outcome | $seed | $depth | $before | $after | $runs | $secs | $ok/$replays | $within |"
done
exit $status
