#!/usr/bin/env bash
# Lists the JDKs (17 or later) under /usr/lib/jvm other than the one the build used, one
# "VERSION HOME" line each, newest first: the test command runs the integration tests once on
# each (tests/support/test_paths.h: JSCHED_TEST_JDK).
# Usage: scripts/test_jdks.sh BUILD_JDK_HOME
set -euo pipefail
built=$(readlink -f "${1:?usage: test_jdks.sh BUILD_JDK_HOME}")
declare -A seen=(["$built"]=1)
for home in /usr/lib/jvm/*/; do
  home=$(readlink -f "$home")
  [ -x "$home/bin/javac" ] && [ -x "$home/bin/java" ] && [ -f "$home/lib/modules" ] || continue
  [ -z "${seen[$home]:-}" ] || continue
  seen[$home]=1
  v=$("$home/bin/javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
  [ -n "$v" ] && [ "$v" -ge 17 ] && echo "$v $home"
done | sort -rn
