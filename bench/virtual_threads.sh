#!/usr/bin/env bash
# The virtual-thread samples (samples/virtual/suite.xml, JDK 21 or later):
#  1. each buggy sample's bug found by the portfolio within RUNS executions in each of 10
#     batches with master seeds 1..10, and every finding's replay ending the same way;
#  2. the 10,000-thread program under jsched on virtual threads against the same program on
#     platform threads, executions per second of each in one run (alternating, REPS each);
#  3. each correct sample CLEAN executions under every strategy, nothing found (in one JVM,
#     500 at a time, where the strategy allows).
#
#   bench/virtual_threads.sh [BUILD_DIR] [OUT_DIR] [RUNS] [CLEAN] [REPS]
#
# JDK: $JSCHED_JDK21 or the newest JDK 21+ under /usr/lib/jvm (a skip line without one).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$(mktemp -d)}
runs=${3:-1000}
clean=${4:-2000}
reps=${5:-5}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jdk=${JSCHED_JDK21:-}
if [ -z "$jdk" ]; then
  for home in /usr/lib/jvm/*/; do
    v=$("$home/bin/javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p') || true
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then jdk=${home%/}; fi
  done
fi
if [ -z "$jdk" ]; then
  echo "jsched: skip: no JDK 21 or later under /usr/lib/jvm (virtual threads need one)"
  exit 0
fi
classes=$root/samples/target/virtual-classes
[ -f "$classes/jsched/samples/virtual/many/Main.class" ] || {
  echo "build first (scripts/build.sh, with a JDK 21 under /usr/lib/jvm): no $classes" >&2
  exit 2
}
export PATH=$jdk/bin:$PATH
jsched=$build/runner/jsched
echo "JDK: $(java -version 2>&1 | head -1); jsched $("$jsched" version 2>&1 | head -1)"
mains=$(python3 - "$root/samples/virtual/suite.xml" <<'PY'
import re, sys
for m in re.finditer(r'<program [^>]*main="([^"]+)"(?:[^>]*args="([^"]*)")?[^>]*expect="(\w+)"',
                     open(sys.argv[1]).read()):
    print(m.group(3), m.group(1), m.group(2) or "")
PY
)

echo
echo "== 1. bugs: portfolio, at most $runs executions per batch, 10 batches (master seeds 1..10)"
while read -r expect main args; do
  [ "$expect" != none ] || continue
  found=0
  replayed=0
  execs=""
  for seed in $(seq 1 10); do
    dir=$out/bug-${main##*.samples.virtual.}-$seed
    rm -rf "$dir"
    (cd "$out" && "$jsched" run --strategy portfolio --runs "$runs" --until-bug --seed "$seed" \
      --jobs "$(nproc)" --no-minimize --out "$dir" -- java -cp "$classes" "$main" >/dev/null 2>&1) ||
      true
    line=$(python3 - "$dir/runs.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad = sorted((r for r in recs if r.get("outcome") not in ("ok", None)), key=lambda r: r["index"])
ran = sum(1 for r in recs if not r.get("profile_run"))
if bad:
    r = bad[0]
    print(r["exit_status"], ran, r["replay"])
else:
    print("none", ran, "")
PY
)
    read -r status n replay <<<"$line"
    execs="$execs $n"
    [ "$status" != none ] || continue
    found=$((found + 1))
    # The replay command as the runner printed it, from the results' directory.
    again=$(cd "$out" && bash -c "$replay" >/dev/null 2>&1; echo $?) || true
    [ "$again" = "$status" ] && replayed=$((replayed + 1))
  done
  echo "  $main ($expect): found in $found of 10 batches; replays $replayed of $found the same;" \
    "executions per batch (profile runs not counted):$execs"
done <<<"$mains"

echo
echo "== 2. 10,000 threads under jsched (strategy random): virtual against platform, $reps each, alternating"
agent=$build/jvmti-agent/libjsched.so
for kind in virtual platform; do : >"$out/many-$kind.times"; done
for i in $(seq 1 "$reps"); do
  for kind in virtual platform; do
    extra=()
    [ $kind = platform ] && extra=(platform)
    start=$(date +%s.%N)
    java -agentpath:"$agent"=strategy=random,seed="$i" -cp "$classes" \
      jsched.samples.virtual.many.Main 10000 "${extra[@]}" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc >>"$out/many-$kind.times"
  done
done
python3 - "$out" <<'PY'
import statistics, sys
t = {k: [float(x) for x in open(f"{sys.argv[1]}/many-{k}.times")] for k in ("virtual", "platform")}
m = {k: statistics.median(v) for k, v in t.items()}
for k in ("virtual", "platform"):
    print(f"  {k:8}: median {m[k]:.2f} s per execution ({1 / m[k]:.2f} executions/s), "
          f"{10000 / m[k]:.0f} threads/s; runs: " + ", ".join(f"{x:.2f}" for x in t[k]))
print(f"  executions/s, virtual over platform: {m['platform'] / m['virtual']:.2f}")
PY
echo
echo "== 3. correct samples: $clean executions each, every strategy (nothing found = exit 0)"
while read -r expect main args; do
  [ "$expect" = none ] || continue
  [[ "$main" != *.many.* ]] || continue
  for s in random rapos pct pctvb pos surw portfolio hapset tsca; do
    more=()
    case $s in random | rapos | pct | pos | hapset | surw | portfolio) more=(--in-jvm 500) ;; esac
    dir=$out/clean-${main##*.samples.virtual.}-$s
    rm -rf "$dir"
    start=$(date +%s.%N)
    rc=0
    (cd "$out" && "$jsched" run --strategy "$s" --runs "$clean" --seed 1 --jobs "$(nproc)" \
      "${more[@]}" --no-minimize --out "$dir" -- java -cp "$classes" "$main" >/dev/null 2>&1) ||
      rc=$?
    end=$(date +%s.%N)
    n=$(grep -c . "$dir/runs.jsonl" || true)
    printf '  %-45s %-9s exit %d, %s executions, %.0f s\n' "$main" "$s" "$rc" "$n" \
      "$(echo "$end - $start" | bc)"
  done
done <<<"$mains"

echo "results: $out"
