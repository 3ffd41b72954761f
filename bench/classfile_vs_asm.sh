#!/usr/bin/env bash
# Read+write throughput of jsched's class-file library against ASM 9 (Debian's libasm-java),
# on the same class bytes (every class of the installed JDK's jmods), one core each, in one run.
# Both sides fully decode (instructions, frames) and re-encode every class. ASM's "copy" mode,
# which copies unchanged methods without decoding them, is printed for reference.
#
#   bench/classfile_vs_asm.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
asm=/usr/share/java/asm.jar
[ -f "$asm" ] || { echo "bench: needs Debian's libasm-java ($asm)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -nowarn -cp "$asm" -d "$tmp" "$here/java/AsmRoundtrip.java"
"$build/bench/classfile_bench" --rounds 1 --dump "$tmp/classes.dump" "$jdk"/jmods/*.jmod >/dev/null 2>&1
ours=0; theirs=0
# Alternate the two tools so that machine noise hits both alike; keep each one's best.
for rep in 1 2 3; do
  o=$(taskset -c 0 "$build/bench/classfile_bench" --rounds 5 "$jdk"/jmods/*.jmod 2>/dev/null | sed -E 's/.*best ([0-9.]+) MB\/s.*/\1/')
  a=$(taskset -c 0 java -cp "$asm:$tmp" AsmRoundtrip "$tmp/classes.dump" full 10 2>/dev/null | sed -E 's/.*best ([0-9.]+) MB\/s.*/\1/')
  ours=$(echo "$o $ours" | awk '{print ($1>$2)?$1:$2}')
  theirs=$(echo "$a $theirs" | awk '{print ($1>$2)?$1:$2}')
done
copy=$(taskset -c 0 java -cp "$asm:$tmp" AsmRoundtrip "$tmp/classes.dump" copy 10 2>/dev/null | sed -E 's/.*best ([0-9.]+) MB\/s.*/\1/')
classes=$("$build/runner/jsched" classfile roundtrip "$jdk"/jmods/*.jmod | tail -1)
echo "input: $classes"
echo "jsched read+write:        $ours MB/s"
echo "ASM 9 read+write (full):  $theirs MB/s"
echo "ASM 9 copy-through mode:  $copy MB/s (unchanged methods copied, not decoded)"
echo "ratio jsched/ASM (full):  $(awk -v a="$ours" -v b="$theirs" 'BEGIN{printf "%.2f", a/b}')"
