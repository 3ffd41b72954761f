#!/usr/bin/env bash
# The java.util.concurrent, volatile and atomics samples under the random strategy: every
# buggy program's bug found within 1000 runs (the table shows runs to the first finding and
# the rate), every correct program 1000 runs with no report.
#
#   bench/juc_samples.sh [BUILD_DIR] [OUT_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
build=${1:-$root/build}
out=${2:-$(mktemp -d)}
runs=${3:-1000}
mkdir -p "$out"
classes=$root/samples/target/classes
[ -d "$classes/jsched/samples/lockorder" ] || {
  echo "build the samples first: (cd samples && mvn -o -q -Dmaven.repo.local=/usr/share/maven-repo package)" >&2
  exit 2
}
# The java.util.concurrent block of samples/suite.xml, as a suite of its own.
python3 - "$root/samples/suite.xml" "$classes" "$runs" >"$out/juc-suite.xml" <<'PY'
import re, sys
suite, classes, runs = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
block = suite[suite.index('<!-- java.util.concurrent'):suite.index('</suite>')]
print(f'<suite name="juc" runs="{runs}" repetitions="1" timeout="10000">')
print(f'  <classpath>{classes}</classpath>')
print('  <strategy name="random"/>')
print(block + '</suite>')
PY
"$build/runner/jsched" bench "$out/juc-suite.xml" --until-bug --jobs "$(nproc)" --no-minimize --seed 1 --out "$out/results"
# The correct programs again, each as $runs executions in one JVM (iterations, seeds 1..$runs,
# explore: every execution runs): the same executions as $runs single runs with those seeds.
echo "correct programs, $runs executions each in one JVM (strategy random, seeds 1..$runs):"
python3 - "$root/samples/suite.xml" <<'PY' | while read -r main; do
import re, sys
suite = open(sys.argv[1]).read()
block = suite[suite.index('<!-- java.util.concurrent'):suite.index('</suite>')]
for m in re.finditer(r'<program [^>]*main="([^"]+)"[^>]*expect="none"', block):
    print(m.group(1))
PY
  line=$(java -ea -agentpath:"$build/jvmti-agent/libjsched.so"=strategy=random,seed=1,iterations=$runs,explore \
    -cp "$classes" "$main" 2>&1 >/dev/null | grep 'iterations in') || true
  echo "  $main: ${line#jsched: }"
done
