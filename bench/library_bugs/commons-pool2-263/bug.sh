# package: commons-pool2
# Commons Pool issue POOL-263 (fixed in 2.3): a returnObject() concurrent with close() could leave
# the returned object among the idle objects of the closed pool, never destroyed. returnObject()
# checks that the pool is open, then adds the object to the idle objects; the fix checks again
# after the add and clears the pool when it was closed meanwhile. Sourced in a copy of Commons
# Pool 2.11.1's source: that second check taken out again, and a test of the scenario added.
file=src/main/java/org/apache/commons/pool2/impl/GenericObjectPool.java
python3 - "$file" <<'PY'
import re, sys
path = sys.argv[1]
with open(path, newline="") as f:
    src = f.read()
# The check after the add in returnObject() (the one followed by its statistics), not the same
# check in ensureIdle().
fix = re.compile(r"^ {12}if \(isClosed\(\)\) \{\r?\n(?: {16}//[^\r\n]*\r?\n)+ {16}clear\(\);\r?\n"
                 r" {12}\}\r?\n(?= {8}\}\r?\n {8}updateStatsReturn\(activeTime\);)", re.M)
src, n = fix.subn("", src)
if n != 1:
    sys.exit("commons-pool2-263: the fix is not where it was in 2.11.1")
with open(path, "w", newline="") as f:
    f.write(src)
PY
[ "$(grep -c 'Pool closed while object was being added' "$file")" = 1 ] ||
  { echo "commons-pool2-263: the fix is still in place" >&2; return 1; }
cp "$bug_dir/TestReturnObjectDuringClose.java" src/test/java/org/apache/commons/pool2/impl/
test_class=org.apache.commons.pool2.impl.TestReturnObjectDuringClose
