#!/usr/bin/env bash
# Installs what is missing, builds jsched, and runs the demo: jsched finds the deadlock of the
# dining-philosophers sample (each philosopher takes the left fork, then the right one), shows
# the report, and replays the deadlocking run from its seed.
# Usage: scripts/demo.sh [CMAKE_ARGS...]   (builds into build/, or $JSCHED_BUILD_DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# What the demo runs, not the tests: half the build (scripts/test.sh builds them).
"$root/scripts/build.sh" -DJSCHED_TESTS=OFF "$@"
jsched=${JSCHED_BUILD_DIR:-$root/build}/runner/jsched
classes=$root/samples/target/classes
out=$(mktemp -d /tmp/jsched-demo.XXXXXX)
echo
echo "== 1. Plain java: the program (almost) always works"
java -cp "$classes" jsched.samples.philosophers.Main
echo
echo "== 2. jsched: runs under its default strategy (portfolio, after profile runs) until one deadlocks"
set +e
"$jsched" run --until-bug --runs 1000 --jobs 2 --seed 2026 --out "$out/results" -- \
  java -cp "$classes" jsched.samples.philosophers.Main
status=$?
set -e
if [ "$status" -ne 1 ]; then
  echo "demo: expected jsched to find the deadlock (status 1), got $status" >&2
  exit 1
fi
# grep -m1, not grep | head -1: under pipefail, head closing the pipe early kills grep with
# SIGPIPE once the matching lines pass a pipe buffer, and the demo failed on that once.
replay=$(grep -m1 '"outcome":"deadlock"' "$out/results/runs.jsonl" | sed -E 's/.*"replay":"([^"]*)".*/\1/')
echo
echo "== 3. Replaying the deadlocking run from its seed (exit status 4 = deadlock)"
echo "\$ $replay"
set +e
eval "$replay"
echo "exit status $?"
set -e
echo
echo "HTML report: $out/results/report.html"
