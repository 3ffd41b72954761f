#!/usr/bin/env bash
# Loads and initializes every class of a set of jars plainly and under the agent, in each
# instrumentation mode a user can pick, and fails on any class that fails only under the agent
# (tests/corpus/JarSweep.java says how).
#
# Usage: tests/corpus/jar_sweep.sh AGENT OUT_DIR [--java JAVA] [--jobs N] [--modes LIST]
#                                  (JAR... | --all | --jdk)
#   AGENT     libjsched.so
#   --all     every jar in /usr/share/java (each file once, symlinks to it skipped)
#   --jdk     the JDK's own modules (JDK mode: the modes below with include=*)
#   --modes   comma-separated, from: default, all (accesses=all), profile (a profile run, as the
#             portfolio's first runs make), iterations (in-JVM iterations with static reset),
#             jdk (include=*; the only mode with --jdk). Default: every mode but jdk, or jdk.
# The JDK is --java's (default: $JAVA_HOME's, else the one on PATH). Exit status 0 when no
# class fails only under the agent, 1 when some do (listed in OUT_DIR/failures.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 3 ]; then
  sed -n '5,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
agent=$1
out=$2
shift 2
java=${JAVA_HOME:+$JAVA_HOME/bin/java}
java=${java:-$(command -v java)}
jobs=2
modes=""
targets=()
jdk=0
while [ $# -gt 0 ]; do
  case $1 in
    --java) java=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --jdk) jdk=1; shift ;;
    --all)
      # Debian keeps versioned names as symlinks to one file: each file once.
      while IFS= read -r f; do targets+=("$f"); done < <(find /usr/share/java -maxdepth 1 \
        -name '*.jar' -type f | sort)
      shift ;;
    -*) echo "jar_sweep.sh: error: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ -f "$agent" ] || { echo "jar_sweep.sh: error: no agent library at $agent" >&2; exit 2; }
[ -x "$java" ] || { echo "jar_sweep.sh: error: no java at $java" >&2; exit 2; }
if [ -z "$modes" ]; then
  if [ $jdk -eq 1 ]; then modes=jdk; else modes=default,all,profile,iterations; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
classes=$out/.harness
rm -rf "$classes"
mkdir -p "$classes" "$out/.profile"
javac=$(dirname "$(readlink -f "$java")")/javac
"$javac" -nowarn -d "$classes" "$here/JarSweep.java"
# A copy of the agent: a rebuild during a long sweep must not change it under running JVMs.
cp "$agent" "$classes/libjsched.so"
agent=$classes/libjsched.so
# A long run of class loading is no hang: the executions' wall-clock limit is an hour.
common="strategy=random,seed=1,timeout=3600000"
args=()
IFS=, read -r -a wanted <<< "$modes"
for m in "${wanted[@]}"; do
  case $m in
    default) args+=(--mode "default=$common") ;;
    all) args+=(--mode "all=$common,accesses=all") ;;
    profile) args+=(--mode "profile=$common,profile=$out/.profile/{run}.txt") ;;
    iterations) args+=(--mode "iterations=$common,iterations=2") ;;
    jdk) args+=(--mode "jdk=$common,include=*") ;;
    *) echo "jar_sweep.sh: error: unknown mode $m" >&2; exit 2 ;;
  esac
done
if [ $jdk -eq 1 ]; then
  args+=(--jdk)
elif [ ${#targets[@]} -eq 0 ]; then
  echo "jar_sweep.sh: error: no jars named (JAR..., --all or --jdk)" >&2
  exit 2
fi
exec "$java" -Djsched.sweep.classes="$classes" -cp "$classes" JarSweep sweep --agent "$agent" \
  --out "$out" --java "$java" --jobs "$jobs" "${args[@]}" "${targets[@]}"
