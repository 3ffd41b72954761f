#!/usr/bin/env bash
# The sweep the test command runs (tests/corpus/jar_sweep.sh): the jars where jsched once broke
# classes (hamcrest's Description, guice, httpcore, ...), all from the test dependencies'
# packages, in every mode, on the JDK under test ($JSCHED_TEST_JDK, else the build's). With
# --jdk, the JDK's own modules in JDK mode instead (include=*: every thread the JDK starts, its
# virtual-thread machinery, its daemons' sleep loops).
# Usage: tests/corpus/jar_sweep_sample.sh AGENT OUT_DIR BUILD_JDK_HOME [--jdk]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
agent=$1 out=$2
jdk=${JSCHED_TEST_JDK:-$3}
if [ "${4:-}" = --jdk ]; then
  rm -rf "$out"
  exec "$here/jar_sweep.sh" "$agent" "$out" --java "$jdk/bin/java" --jdk
fi
jars=()
for j in hamcrest-2.2.jar guice.jar httpcore.jar sisu-inject.jar maven3-model-builder.jar \
         doxia-core.jar serializer-2.7.2.jar velocity-tools-2.0.jar wagon-http-shaded-3.5.3.jar \
         junit-platform-console-standalone.jar junit4.jar; do
  if [ -f "/usr/share/java/$j" ]; then
    jars+=("/usr/share/java/$j")
  else
    echo "jar_sweep_sample.sh: missing /usr/share/java/$j (scripts/install-deps.sh --test installs it)" >&2
    exit 1
  fi
done
rm -rf "$out"
exec "$here/jar_sweep.sh" "$agent" "$out" --java "$jdk/bin/java" "${jars[@]}"
