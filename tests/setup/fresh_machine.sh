#!/usr/bin/env bash
# What a new user meets, checked the way a fresh Debian 12 machine would see it:
#  1. the README's first command (scripts/demo.sh) with JAVA_HOME unset and CMake told to ignore
#     /usr/lib/jvm/default-java (only the default-jdk packages make it, and the test
#     dependencies pull them in on this machine), as a Release build with warnings as errors;
#  2. `cmake --install` into a temporary prefix: the installed jsched finds its agent by itself
#     and finds a sample's bug;
#  3. `cpack -G DEB`, unpacked with dpkg-deb into a temporary root: the same from there.
# Usage: tests/setup/fresh_machine.sh BUILD_DIR   (a folder of its own; made if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: fresh_machine.sh BUILD_DIR}
tmp=$(mktemp -d /tmp/jsched-setup.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "fresh_machine.sh: FAILED: $*" >&2; exit 1; }

ignore="/usr/lib/jvm/default-java;/usr/lib/jvm/default-java/include"
ignore+=";/usr/lib/jvm/default-java/include/linux;/usr/lib/jvm/default-java/lib"
ignore+=";/usr/lib/jvm/default-java/lib/server"
echo "== 1. scripts/demo.sh: no JAVA_HOME, no default-java, Release, -Werror"
if ! env -u JAVA_HOME JSCHED_BUILD_DIR="$build" "$root/scripts/demo.sh" \
    -DCMAKE_BUILD_TYPE=Release -DJSCHED_WERROR=ON -DCMAKE_IGNORE_PATH="$ignore" \
    -DCMAKE_IGNORE_PREFIX_PATH=/usr/lib/jvm/default-java >"$tmp/demo.log" 2>&1; then
  tail -40 "$tmp/demo.log" >&2
  fail "the demo"
fi
grep -q "exit status 4" "$tmp/demo.log" || fail "the demo's replay did not deadlock"
grep -q "CMAKE_BUILD_TYPE:STRING=Release" "$build/CMakeCache.txt" || fail "not a Release build"
if used=$(grep -E '^(JAVA_|Java_|JNI_)[^:]*:[A-Z]+=.*default-java' "$build/CMakeCache.txt"); then
  fail "the build still uses /usr/lib/jvm/default-java: $used"
fi

# A sample's bug found through a jsched that finds its own agent ($1: the jsched binary, $2: the
# samples jar).
find_bug() {
  local out=$tmp/results-$RANDOM status=0
  (cd "$tmp" && env -u JSCHED_AGENT "$1" run --until-bug --runs 300 --jobs 2 --seed 7 --out "$out" \
    -- java -cp "$2" jsched.samples.lockorder.Main) >"$tmp/run.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] || { cat "$tmp/run.log" >&2; fail "$1: expected a finding (exit 1), got $status"; }
  grep -q '"outcome":"deadlock"' "$out/runs.jsonl" || fail "$1: no deadlock recorded"
  local agent
  agent=$(env -u JSCHED_AGENT "$1" agent-path)
  case "$agent" in "$3"/*) ;; *) fail "$1 agent-path says $agent, not under $3" ;; esac
  grep -q -- "-agentpath:$agent=" "$out/runs.jsonl" || fail "$1: replay commands do not name $agent"
}

echo "== 2. cmake --install, then the installed jsched"
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/jsched lib/jsched/libjsched.so share/jsched/jsched-samples.jar share/jsched/suite.xml; do
  [ -f "$tmp/prefix/$f" ] || fail "cmake --install made no $f"
done
"$tmp/prefix/bin/jsched" --version | grep -Eq '^jsched [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+' ||
  fail "jsched --version: $("$tmp/prefix/bin/jsched" --version)"
find_bug "$tmp/prefix/bin/jsched" "$tmp/prefix/share/jsched/jsched-samples.jar" "$tmp/prefix"

echo "== 3. cpack -G DEB, unpacked with dpkg-deb -x"
(cd "$build" && rm -f jsched_*.deb && cpack -G DEB >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log" >&2; fail "cpack"; }
deb=$(ls "$build"/jsched_*.deb)
dpkg-deb -f "$deb" Depends | grep -q "openjdk-17-jre-headless" || fail "the package does not depend on Java"
dpkg-deb -f "$deb" Depends | grep -q "libpugixml" || fail "the package does not declare its libraries"
dpkg-deb -x "$deb" "$tmp/debroot"
find_bug "$tmp/debroot/usr/bin/jsched" "$tmp/debroot/usr/share/jsched/jsched-samples.jar" "$tmp/debroot/usr"
echo "fresh_machine.sh: demo, install and package all work"
