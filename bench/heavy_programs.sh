#!/usr/bin/env bash
# Heavy real programs under jsched: small concurrent drivers (bench/heavy/*.java) of real,
# Debian-packaged Java libraries (H2, Derby, HSQLDB, commons-pool2, commons-dbcp2, log4j 1.2,
# Jetty 9, Lucene 8), each a few threads for 0.1-3 s on a plain JVM, each checking its own result. The
# fixed programs must come out ok in every execution (any bug, deadlock, hang or error there is a
# wrong verdict of jsched); the buggy variants (expect=bug) carry a real application bug that a
# run may or may not expose. For each program the script prints one row:
#
#   program expect plain-s jsched-s ratio batch-s prof-s prof-x all-x steps ok bug dlock hang live timeout error
#
# plain-s: median wall time of 3 plain `java` runs (plain-ok: how many of them exited 0);
# jsched-s: mean elapsed_ms of the batch's executions (runs.jsonl, profile runs left out);
# ratio: jsched-s / plain-s; batch-s: the whole `jsched run` batch's wall time over RUNS (with
# JVM start, and the profile runs of pct, surw and portfolio); prof-s: the mean time of those
# profile runs (as jsched prints it; "-" when there were none), prof-x: prof-s / plain-s; all-x:
# the executions' and the profile runs' time together over RUNS, over plain-s (what one
# execution costs with the profile phase shared out among the batch's executions); steps: mean
# scheduling points
# (`points`) per execution; then the outcome counts of the batch's executions (error: error, exit
# or killed, the program did not run to its end). After the table, every finding of a program
# expected to pass is listed with its replay command and the first line of its detail; with
# --out, the replay commands stay valid (the compiled drivers are kept in DIR/classes). The
# machine should be otherwise idle for the times to mean anything; the batches run one execution
# at a time (--jobs 1).
#
#   bench/heavy_programs.sh [--strategy S] [--params K=V,..] [--seed N] [--timeout MS] \
#       [--only A,B] [--out DIR] BUILD_DIR [RUNS]
#     BUILD_DIR   holds runner/jsched and jvmti-agent/libjsched.so
#     RUNS        executions per program (default 5)
#     --strategy  jsched's strategy (default random; pct, portfolio, ...)
#     --params    more agent options for every execution (jsched run --params)
#     --seed      the batches' master seed (default 1)
#     --timeout   jsched's per-execution hang window, ms (default jsched's, 10000)
#     --only      a comma-separated subset of the programs
#     --out       keep the results directories (DIR/<program>) instead of a temporary directory
#
# The jars come from /usr/share/java (Debian packages libh2-java, libderby-java, libhsqldb-java,
# libcommons-pool2-java, libcommons-dbcp2-java, libcommons-logging-java, liblog4j1.2-java,
# libjetty9-java, libservlet3.1-java, liblucene8-java); a program whose jars are missing is skipped with a line
# saying so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
strategy=random
params=
seed=1
hang_ms=
only=
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --strategy) strategy=$2; shift 2 ;;
    --params) params=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --timeout) hang_ms=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "heavy_programs.sh: error: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: bench/heavy_programs.sh [options] BUILD_DIR [RUNS]" >&2; exit 2; }
build=$1
runs=${2:-5}
jsched=$build/runner/jsched
agent=$build/jvmti-agent/libjsched.so
[ -x "$jsched" ] || { echo "heavy_programs.sh: error: no runner at $jsched (build first)" >&2; exit 2; }
[ -f "$agent" ] || { echo "heavy_programs.sh: error: no agent at $agent (build first)" >&2; exit 2; }
jars=/usr/share/java
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=${keep:-$tmp/results}
mkdir -p "$results"
results=$(cd "$results" && pwd)
out=$results/classes  # with the results: their replay commands name it
mkdir -p "$out"

# name  expect  jars (in /usr/share/java, ':'-separated)
programs="
H2Bank              none  h2.jar
H2BankRacy          bug   h2.jar
DerbyBank           none  derby.jar
HsqldbBank          none  hsqldb.jar
Pool2Evict          none  commons-pool2.jar
Pool2UseAfterReturn bug   commons-pool2.jar
Dbcp2Pool           none  commons-dbcp2.jar:commons-pool2.jar:commons-logging.jar:h2.jar
Log4jAsync          none  log4j-1.2.jar
Log4jAsyncRacy      bug   log4j-1.2.jar
JettyHello          none  jetty9-server.jar:jetty9-http.jar:jetty9-io.jar:jetty9-util.jar:servlet-api-3.1.jar
LuceneIndex         none  lucene-core-8.7.0.jar
"

now_ns() { date +%s%N; }
# The value of "key" in a runs.jsonl line (a number or a plain string).
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
# The value of a string "key" with escapes (\" and \n stay escaped).
string() { sed -n 's/.*"'"$1"'":"\(\([^"\\]\|\\.\)*\)".*/\1/p'; }

printf '%-20s %-6s %7s %5s %8s %7s %7s %6s %6s %5s %8s %4s %4s %5s %4s %4s %7s %5s\n' program \
  expect plain-s plain-ok jsched-s ratio batch-s prof-s prof-x all-x steps ok bug dlock hang \
  live timeout error
false_verdicts=$tmp/false_verdicts
: > "$false_verdicts"
while read -r -u 3 name expect deps; do
  [ -n "$name" ] || continue
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  cp=""
  missing=""
  for j in ${deps//:/ }; do
    if [ -f "$jars/$j" ]; then cp=$cp$jars/$j:; else missing="$missing $jars/$j"; fi
  done
  if [ -n "$missing" ]; then
    printf '%-20s skipped: missing%s\n' "$name" "$missing"
    continue
  fi
  if ! javac -nowarn -d "$out" -cp "$cp" "$here/heavy/$name.java" 2> "$tmp/javac.log"; then
    printf '%-20s skipped: does not compile (%s)\n' "$name" "$(head -1 "$tmp/javac.log")"
    continue
  fi
  cp=$cp$out

  # Plain: the median of 3 wall times, and how many runs exited 0.
  times=()
  plain_ok=0
  for _ in 1 2 3; do
    t0=$(now_ns)
    if (cd "$tmp" && timeout 300 java -cp "$cp" "$name" < /dev/null > /dev/null 2>&1); then
      plain_ok=$((plain_ok + 1))
    fi
    times+=($(( $(now_ns) - t0 )))
  done
  plain=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p | awk '{printf "%.2f", $1 / 1e9}')

  # jsched: one batch of RUNS executions, one at a time, each JVM in a fresh directory.
  dir=$results/$name
  rm -rf "$dir"
  opts=(--strategy "$strategy" --runs "$runs" --jobs 1 --no-minimize --workdir fresh --seed "$seed"
    --agent "$agent" --out "$dir")
  [ -z "$hang_ms" ] || opts+=(--timeout "$hang_ms")
  [ -z "$params" ] || opts+=(--params "$params")
  t0=$(now_ns)
  status=0
  timeout $(( 600 + runs * 300 )) "$jsched" run "${opts[@]}" -- java -cp "$cp" "$name" \
    < /dev/null > "$tmp/batch.log" 2>&1 || status=$?
  batch=$(awk -v ns=$(( $(now_ns) - t0 )) -v n="$runs" 'BEGIN{printf "%.2f", ns / 1e9 / n}')
  records=$tmp/records
  : > "$records"
  [ ! -f "$dir/runs.jsonl" ] || grep -v '"profile_run":true' "$dir/runs.jsonl" > "$records" || true
  if [ ! -s "$records" ]; then
    printf '%-20s %-6s %7s %8s no executions recorded (jsched exit status %s): %s\n' "$name" \
      "$expect" "$plain" "$plain_ok/3" "$status" \
      "$(grep -m1 -i error "$tmp/batch.log" || tail -1 "$tmp/batch.log")"
    continue
  fi
  count() { grep -c "\"outcome\":\"$1\"" "$records" || true; }
  jsched_s=$(field elapsed_ms < "$records" |
    awk '{s += $1; n++} END {printf "%.2f", n ? s / n / 1000 : 0}')
  steps=$(field points < "$records" | awk '{s += $1; n++} END {printf "%.0f", n ? s / n : 0}')
  ratio=$(awk -v a="$jsched_s" -v b="$plain" 'BEGIN{printf "%.1f", (b > 0) ? a / b : 0}')
  other=$(grep -vcE '"outcome":"(ok|bug|deadlock|hang|livelock|timeout)"' "$records" || true)
  # The profile runs (pct, surw, portfolio): their mean time, and its ratio to the plain run's.
  prof_s=$({ grep -o 'profile runs of .*(\([0-9.]*\) s each on average)' "$tmp/batch.log" || true; } |
    sed 's/.*(\([0-9.]*\) s each.*/\1/' |
    awk '{s += $1; n++} END {if (n) printf "%.2f", s / n; else printf "-"}')
  prof_x=$(awk -v a="$prof_s" -v b="$plain" 'BEGIN{if (a == "-" || b <= 0) print "-"; else printf "%.1f", a / b}')
  # How many profile runs there were: the counts of their outcomes ("6 ok, 1 bug").
  prof_n=$({ grep -o 'profile runs of [^(]*(' "$tmp/batch.log" || true; } |
    grep -o '[0-9][0-9]* [a-z]*' | awk '{s += $1} END {print s + 0}')
  execs=$(wc -l < "$records")
  all_x=$(awk -v e="$jsched_s" -v n="$execs" -v p="$prof_s" -v k="$prof_n" -v b="$plain" \
    'BEGIN{if (p == "-") p = 0; if (b <= 0 || n == 0) print "-"; else printf "%.1f", (e * n + p * k) / n / b}')
  printf '%-20s %-6s %7s %8s %8s %7s %7s %6s %6s %5s %8s %4s %4s %5s %4s %4s %7s %5s\n' "$name" \
    "$expect" "$plain" "$plain_ok/3" "$jsched_s" "$ratio" "$batch" "$prof_s" "$prof_x" "$all_x" "$steps" \
    "$(count ok)" "$(count bug)" \
    "$(count deadlock)" "$(count hang)" "$(count livelock)" "$(count timeout)" "$other"
  if [ "$expect" = none ]; then
    # Every outcome but ok (and timeout: slow, no verdict) is a wrong verdict here.
    { grep -vE '"outcome":"(ok|timeout)"' "$dir/runs.jsonl" || true; } | while read -r line; do
      echo "$name: $(echo "$line" | field outcome) (seed $(echo "$line" | field seed))"
      echo "  replay: $(echo "$line" | string replay | sed 's/\\"/"/g')"
      echo "  detail: $(echo "$line" | string detail | sed 's/\\n.*//')"  # its first line
    done >> "$false_verdicts"
  fi
done 3<<< "$programs"
echo "strategy $strategy${params:+ ($params)}, $runs executions per program" \
  "(--jobs 1, --workdir fresh, master seed $seed)"
if [ -s "$false_verdicts" ]; then
  echo "findings in programs expected to pass (wrong verdicts unless the library is at fault):"
  cat "$false_verdicts"
else
  echo "no finding in the programs expected to pass"
fi
[ -z "$keep" ] || echo "results: $results/<program>"
