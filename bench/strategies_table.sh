#!/usr/bin/env bash
# Executions to the first finding, per strategy, on every buggy sample: those of
# samples/suite.xml (their own expected outcome), the many-thread programs of
# bench/suites/many-threads.xml, and the samples that need options (download and rarevariable
# with accesses=all, a collection driver with java.util instrumented). Strategies: random,
# rapos, pct at depth 3, pos, surw and portfolio. Each cell is EXPERIMENTS experiments (seeds of
# its own), each stopped at its first finding or after CAP executions, with --in-jvm; the table
# gives the mean over the experiments that found it, and how many did.
#
#   bench/strategies_table.sh [BUILD_DIR] [EXPERIMENTS] [CAP] [SEED] [GIVE_UP]
# ONLY=REGEX keeps the programs whose name it matches, STRATEGIES=REGEX the strategies whose
# label it matches (cells left out show as "not run"). The full table (25 experiments, 10,000
# executions) takes hours on a 2-core machine, mostly in the cells that find nothing: with
# GIVE_UP=K, a cell whose first K experiments all reached the cap without the bug runs no other
# experiment (jsched bench --give-up), and shows as "- (0/K)" or so, the experiments that ran.
# A cell's seeds depend on its program, strategy and experiment only, so ONLY and GIVE_UP
# change which cells and experiments run, never what one of them does.
# Each finished cell is kept in CELLS (default ~/.cache/jsched/strategies-table), under a name
# made of its program, strategy, the arguments and the build's binaries: run the same command
# again after an interruption and it goes on from the cells it has. CACHED=1 prints the table
# of the kept cells only, running nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
experiments=${2:-25}
cap=${3:-10000}
seed=${4:-2026}
give_up=${5:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build_id=$(cat "$build/runner/jsched" "$build/jvmti-agent/libjsched.so" | md5sum | cut -c1-12)
cells=${CELLS:-${XDG_CACHE_HOME:-$HOME/.cache}/jsched/strategies-table}
mkdir -p "$cells"
echo "strategies_table.sh: finished cells are kept in $cells" >&2
suite=$tmp/strategies-table.xml
strategies=('<strategy name="random"/>' '<strategy name="rapos"/>'
  '<strategy name="pct" label="pct-d3" params="depth=3"/>' '<strategy name="pos"/>'
  '<strategy name="surw"/>' '<strategy name="portfolio"/>')
{
  # Every <program> that expects a finding (one may span two lines).
  for f in "$root/samples/suite.xml" "$here/suites/many-threads.xml"; do
    tr '\n' ' ' < "$f" | grep -o '<program [^>]*>' | grep -v 'expect="none"'
  done
  echo '<program name="download" main="jsched.samples.download.Main" expect="bug" params="accesses=all"/>'
  echo '<program name="rarevariable" main="jsched.samples.rarevariable.Main" args="1" expect="bug" params="accesses=all"/>'
  echo '<program name="vector" main="jsched.samples.collections.Main" args="vector" expect="any" params="include=java.util.,accesses=all"/>'
} | grep -E "name=\"(${ONLY:-[^\"]*})\"" > "$tmp/programs" || true
[ -s "$tmp/programs" ] || { echo "strategies_table.sh: ONLY='$ONLY' names no program" >&2; exit 2; }
# One batch per cell: a batch holds every one of its executions in memory, and a cell has up to
# EXPERIMENTS x CAP of them. JDK mode (include= reaching java.*) runs a JVM per execution, the
# rest --in-jvm.
: > "$tmp/summary.csv"
# A cell's rows, after the header of the first (the runner's summary.csv).
add_cell() {
  [ -s "$tmp/summary.csv" ] || head -1 "$1" > "$tmp/summary.csv"
  tail -n +2 "$1" >> "$tmp/summary.csv"
}
while IFS= read -r program; do
  name=$(sed 's/.*name="\([^"]*\)".*/\1/' <<< "$program")
  for strategy in "${strategies[@]}"; do
    label=$(sed 's/.*label="\([^"]*\)".*/\1/; s/.*name="\([^"]*\)".*/\1/' <<< "$strategy")
    grep -qE "^(${STRATEGIES:-.*})\$" <<< "$label" || continue
    kept=$cells/$name--$label--$experiments-$cap-$seed-$give_up-$build_id.csv
    if [ -s "$kept" ]; then
      add_cell "$kept"
      continue
    fi
    [ -n "${CACHED:-}" ] && continue
    printf '<suite name="strategies-table" runs="%s" repetitions="%s" timeout="20000">\n' \
      "$cap" "$experiments" > "$suite"
    printf '  <classpath>%s</classpath>\n  %s\n  %s\n</suite>\n' \
      "$root/samples/target/classes" "$strategy" "$program" >> "$suite"
    opts=(--in-jvm 500)
    grep -q 'include=java' <<< "$program" && opts=()
    [ "$give_up" -gt 0 ] && opts+=(--give-up "$give_up")
    out=$tmp/out-$name-$label
    started=$SECONDS
    "$build/runner/jsched" bench "$suite" --until-bug "${opts[@]}" --jobs 2 --no-minimize \
      --seed "$seed" --out "$out" >"$out.log" 2>&1 || true
    [ -s "$out/summary.csv" ] ||
      { echo "strategies_table.sh: $name / $label wrote no summary:" >&2; tail -3 "$out.log" >&2; exit 1; }
    add_cell "$out/summary.csv"
    cp "$out/summary.csv" "$kept.tmp" && mv "$kept.tmp" "$kept"
    # Progress on stderr: the full table takes hours.
    awk -F, -v t=$((SECONDS - started)) 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["strategy"] != "profile" { printf "strategies_table.sh: %s / %s: found in %s of %s experiments (%d s)\n",
        $c["program"], $c["strategy"], $c["repetitions_found"], $c["repetitions"], t > "/dev/stderr" }' \
      "$out/summary.csv"
    rm -rf "$out" "$out.log"
  done
done < "$tmp/programs"
echo "executions to the first finding: mean over the experiments that found it (found/experiments;"
echo "E: every run of the cell errored); $experiments experiments per cell, each at most $cap"
echo "executions, --in-jvm 500 (JDK mode: a JVM per execution), master seed $seed"
[ "$give_up" -gt 0 ] &&
  echo "(a cell whose first $give_up experiments all missed ran no more: its count is of those that ran)"
echo
labels=$(for st in "${strategies[@]}"; do
  sed 's/.*label="\([^"]*\)".*/\1/; s/.*name="\([^"]*\)".*/\1/' <<< "$st"; done | tr '\n' ' ')
awk -F, -v n="$experiments" -v labels="$labels" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    p = $col["program"]; s = $col["strategy"]
    if (s == "profile") next  # the profile phase of pct and surw: not a strategy of the table
    if (!(p in seen)) { seen[p] = 1; order[++np] = p }
    cells[s]++
    found = $col["repetitions_found"] + 0
    ran = $col["repetitions"] + 0
    cell[p, s] = found ? sprintf("%.0f (%d/%d)", $col["first_finding_mean"], found, ran) : sprintf("- (0/%d)", ran)
    if (!found && $col["error"] + 0 > 0 && $col["error"] == $col["runs"]) cell[p, s] = "E"
    if (found == n) every[s]++
  }
  END {
    ns = split(labels, sorder, " ")
    printf "| sample |"; for (j = 1; j <= ns; j++) printf " %s |", sorder[j]; print ""
    printf "|---|"; for (j = 1; j <= ns; j++) printf "---|"; print ""
    for (i = 1; i <= np; i++) {
      printf "| %s |", order[i]
      for (j = 1; j <= ns; j++) printf " %s |", ((order[i], sorder[j]) in cell) ? cell[order[i], sorder[j]] : "not run"
      print ""
    }
    printf "| found in every experiment |"
    for (j = 1; j <= ns; j++) printf " %d of %d |", every[sorder[j]], cells[sorder[j]]
    print ""
  }' "$tmp/summary.csv"
