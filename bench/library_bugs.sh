#!/usr/bin/env bash
# Concurrency bugs of real libraries, each with the test that shows it, run through the library's
# own Maven build: does jsched's Surefire run fail exactly that test while plain runs pass it?
# Each bug is a folder of bench/library_bugs/ with a bug.sh, sourced in a fresh copy of the
# library's Debian source (prepared as bench/real_suites.sh prepares it): its first line names
# the source package (`# package: NAME`); it adds the test, takes a known fix out again where the
# bug is a fixed one (a seeded bug), and names the test in `test_class`. Prints
#
#   bug  test  plain-passed  jsched-outcome  executions  minimal-schedule  seconds-jsched
#
# (plain-passed: plain Maven runs of the test that passed, of --plain; jsched-outcome: `found`
# when the test failed with "jsched found a ...", `passed`, `skipped` or `failed-otherwise`;
# executions: controlled executions run, up to and including the finding; minimal-schedule: the
# pre-emptions of the minimal schedule the failure names, or -).
#
#   bench/library_bugs.sh [--options OPTS] [--plain N] [--work DIR] [BUG...]
#     --options  the agent's options (default iterations=200: the agent's default strategy)
#     --plain    plain runs of each bug's test (default 10)
#     --work     where sources are kept (default /var/tmp/jsched-suites, shared with
#                real_suites.sh: a package's source prepared there once serves both)
#     BUG        folders of bench/library_bugs/ (default all)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
agent=${JSCHED_AGENT:-$here/../build/jvmti-agent/libjsched.so}
options=iterations=200
plain=10
cap=1800
work=/var/tmp/jsched-suites
bugs=()
while [ $# -gt 0 ]; do
  case $1 in
    --options) options=$2; shift 2 ;;
    --plain) plain=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -*) echo "library_bugs.sh: error: unknown option $1" >&2; exit 2 ;;
    *) bugs+=("$1"); shift ;;
  esac
done
if [ ${#bugs[@]} -eq 0 ]; then
  for d in "$here"/library_bugs/*/; do bugs+=("$(basename "$d")"); done
fi
[ -f "$agent" ] || { echo "library_bugs.sh: error: no agent at $agent (build first)" >&2; exit 2; }
agent=$(readlink -f "$agent")
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
mkdir -p "$work/library-bugs" "$work/logs"
work=$(cd "$work" && pwd)

. "$here/real_suites/lib.sh"

printf '%s\n' "bug test plain-passed jsched-outcome executions minimal-schedule seconds-jsched"
for bug in "${bugs[@]}"; do
  bug_dir=$here/library_bugs/$bug
  [ -f "$bug_dir/bug.sh" ] || { echo "$bug no-such-bug (no $bug_dir/bug.sh)"; continue; }
  pkg=$(sed -n '1s/^# package: //p' "$bug_dir/bug.sh")
  [ -n "$pkg" ] || { echo "$bug no-package-line-in-bug.sh"; continue; }
  dir=$(source_dir "$pkg") || { echo "$bug cannot-fetch-the-source-or-its-build-dependencies"; continue; }
  prepare "$pkg" "$dir" || { echo "$bug cannot-prepare-the-maven-build"; continue; }
  copy=$work/library-bugs/$bug
  rm -rf "$copy"
  cp -a "$dir" "$copy"
  rm -rf "$copy/target"
  # bug.sh names the test in test_class.
  (cd "$copy" && set -e && . "$bug_dir/bug.sh" && echo "$test_class" > .jsched-test-class) >&2 ||
    { echo "$bug cannot-reintroduce-the-bug"; continue; }
  test_class=$(cat "$copy/.jsched-test-class")
  mvn_extra=("-Dtest=$test_class" -DfailIfNoTests=false)
  passed=0
  for ((i = 1; i <= plain; i++)); do
    read -r tests p_pass _ <<< "$(run_suite "$copy" "" "$work/logs/$bug.plain.log")"
    [ "$tests" -gt 0 ] && [ "$p_pass" = "$tests" ] && passed=$((passed + 1))
  done
  read -r tests j_pass j_skip j_found j_exec j_secs _ <<< \
    "$(run_suite "$copy" "-agentpath:$agent=$options" "$work/logs/$bug.jsched.log")"
  if [ "$j_found" -gt 0 ]; then
    outcome=found
  elif [ "$tests" -gt 0 ] && [ "$j_pass" = "$tests" ]; then
    outcome=passed
  elif [ "$j_skip" -gt 0 ]; then
    outcome=skipped
  else
    outcome=failed-otherwise
  fi
  minimal=$(cat "$copy"/target/surefire-reports/*.txt 2>/dev/null |
    sed -nE '0,/minimal schedule: [0-9]+ -> [0-9]+/s/.*minimal schedule: [0-9]+ -> ([0-9]+).*/\1/p') || true
  echo "$bug ${test_class##*.} $passed/$plain $outcome $j_exec ${minimal:--} $j_secs"
done
