#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is missing, checks the C++
# formatting, builds, runs
# every test (unit, integration with the real JVM and agent), then builds the unit tests with
# AddressSanitizer and UndefinedBehaviorSanitizer and runs them again, and checks set-up as a
# fresh machine sees it (tests/setup/fresh_machine.sh: the demo as a Release build, install,
# Debian package).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --test
echo "== format (clang-format, .clang-format)"
(cd "$root" && find bench classfile jvmti-agent rewriter runner scheduler tests \
  \( -name '*.cpp' -o -name '*.h' \) -print0 | xargs -0 clang-format --dry-run --Werror)
"$root/scripts/build.sh" -DJSCHED_WERROR=ON
(cd "$root/build" && ctest --output-on-failure -j"$(nproc)")
# The integration tests again on every other JDK the machine has (17 or later): JDK 25's
# class files, java.util.concurrent, reflection and virtual threads differ from JDK 17's. What
# does not depend on the JDK runs once: the timed tests (the runner's own clock against signals
# and budgets, run alone), and the suites whose subject is the runner's and the strategies' C++
# (records, verdicts, reports, minimization, the strategies' statistics; every JVM they start
# runs the agent the other suites test on each JDK).
jdk_independent='^(Runner|Verdict|Minimize|MavenLifecycle|Tests|RaposJvm|Pct|Pctvb|PctOptions|Strategies|TscaJvm|TscaPlanner|Profile|Hapset|PreemptionSearch)\.'

built_jdk=$(dirname "$(dirname "$(sed -n 's/^Java_JAVA_EXECUTABLE:FILEPATH=//p' \
  "$root/build/CMakeCache.txt")")")
others=$("$root/scripts/test_jdks.sh" "$built_jdk")
while read -r version home; do
  [ -n "$version" ] || continue
  echo "== integration tests on JDK $version ($home)"
  (cd "$root/build" && JSCHED_TEST_JDK=$home PATH=$home/bin:$PATH \
    ctest --output-on-failure -L integration -LE timed -E "$jdk_independent" -j"$(nproc)")
done <<< "$others"
if ! grep -qE '^(2[1-9]|[3-9][0-9]) ' <<< "$others"; then
  echo "jsched: skip: no JDK 21 or later under /usr/lib/jvm, the integration tests ran on" \
    "$("$built_jdk/bin/javac" -version 2>&1) only (Temurin 25 belongs in" \
    "/usr/lib/jvm/temurin-25-jdk-amd64)"
fi
echo "== sanitizer build (ASan + UBSan) of the unit tests"
asan=$root/build-asan
# -O1 and line tables only (-g1): ASan's usual level, reports still name file and line; the
# build took 5 minutes against 9 at -O2 -g on a slow 2-core VM, its tests as long.
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DJSCHED_SANITIZE=ON \
  -DJSCHED_UNIT_ONLY=ON -DJSCHED_WERROR=ON >/dev/null
cmake --build "$asan" -j"$(nproc)"
(cd "$asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -L unit -j"$(nproc)")
echo "== a fresh machine's view: the demo without JAVA_HOME or default-java (Release), install, package"
"$root/tests/setup/fresh_machine.sh" "$root/build-release"
echo "jsched: all tests passed"
