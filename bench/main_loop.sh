# Sourced by the scripts that compare jsched's executions per second with a bare loop of the same
# main (bench/java/MainLoop.java): needs $here and the caller's name in $0, and $jar where the
# caller runs the samples; sets $tmp (removed on exit) with MainLoop compiled in it.
[ -z "${jar:-}" ] || [ -f "$jar" ] || { echo "$(basename "$0"): build the samples first ($jar)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/java/MainLoop.java"
# The rate a line "... (N per second) ..." or "...: N per second" gives.
rate() { sed -n 's/.*(\([0-9.]*\) per second).*/\1/p; s/.*: \([0-9.]*\) per second$/\1/p'; }
# The larger of two rates (the second may be empty).
best() { awk -v a="$1" -v b="${2:-0}" 'BEGIN{print (a>b)?a:b}'; }
