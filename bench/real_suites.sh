#!/usr/bin/env bash
# Real libraries' own test suites under jsched, through Surefire's argLine: each Debian source
# package is fetched (apt-get source), its build dependencies installed (apt-get build-dep), its
# suite built offline against Debian's Maven repository as maven-debian-helper builds it, run
# once plainly and once under jsched, and one row printed per library:
#
#   package  tests  pass-plain  pass-jsched  findings  skipped-jsched  executions  seconds-plain  seconds-jsched  cpu-plain  cpu-jsched
#
# (findings: tests failed with "jsched found a ..."; skipped-jsched: tests jsched skipped, an
# assumption or an execution out of budget, beyond those skipped plainly; executions: controlled
# executions of test methods; cpu: user+system seconds of the whole Maven run).
#
#   bench/real_suites.sh [--options OPTS] [--cap SECONDS] [--work DIR] [PACKAGE...]
#     --options  the agent's options (default strategy=pct,iterations=200: the user's guide)
#     --cap      wall-clock limit of each run of each library (default 3600 s: about an hour)
#     --work     where sources are unpacked and kept (default /var/tmp/jsched-suites)
#     PACKAGE    Debian source packages of Maven-built Java libraries (default commons-pool2 and
#                hikaricp); bench/real_suites/PACKAGE.sh, when there is one, brings back what
#                the package's Debian build leaves out for its tests
#
# Needs root the first time (a deb-src line, build dependencies); later runs reuse the sources.
# The pom gets the jsched.argLine convention (docs/agent.md, "Tests"): every <argLine> starts
# with ${jsched.argLine}, or -DargLine carries the agent when the pom sets none; a
# forkedProcessTimeoutInSeconds it sets becomes the cap.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
agent=${JSCHED_AGENT:-$here/../build/jvmti-agent/libjsched.so}
options=strategy=pct,iterations=200
cap=3600
work=/var/tmp/jsched-suites
packages=()
while [ $# -gt 0 ]; do
  case $1 in
    --options) options=$2; shift 2 ;;
    --cap) cap=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -*) echo "real_suites.sh: error: unknown option $1" >&2; exit 2 ;;
    *) packages+=("$1"); shift ;;
  esac
done
[ ${#packages[@]} -gt 0 ] || packages=(commons-pool2 hikaricp)
[ -f "$agent" ] || { echo "real_suites.sh: error: no agent at $agent (build first)" >&2; exit 2; }
agent=$(readlink -f "$agent")
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
mkdir -p "$work"
work=$(cd "$work" && pwd)

. "$here/real_suites/lib.sh"

printf '%s\n' "package tests pass-plain pass-jsched findings skipped-jsched executions seconds-plain seconds-jsched cpu-plain cpu-jsched"
for pkg in "${packages[@]}"; do
  dir=$(source_dir "$pkg") || { echo "$pkg cannot-fetch-the-source-or-its-build-dependencies"; continue; }
  prepare "$pkg" "$dir" || { echo "$pkg cannot-prepare-the-maven-build"; continue; }
  mkdir -p "$work/logs"
  read -r tests p_pass p_skip _ _ p_secs p_cpu <<< "$(run_suite "$dir" "" "$work/logs/$pkg.plain.log")"
  if [ "$tests" = 0 ]; then
    echo "$pkg no-tests-ran (see $work/logs/$pkg.plain.log)"
    continue
  fi
  read -r _ j_pass j_skip j_found j_exec j_secs j_cpu <<< \
    "$(run_suite "$dir" "-agentpath:$agent=$options" "$work/logs/$pkg.jsched.log")"
  echo "$pkg $tests $p_pass $j_pass $j_found $((j_skip - p_skip)) $j_exec $p_secs $j_secs $p_cpu $j_cpu"
done
