# package: hikaricp
# HikariCP issue 955 (fixed in 2.7.0 and 2.4.13): a connection's open statements are tracked in
# a FastList, which is not thread-safe, and the tracking was not synchronized, so a statement
# closed on another thread than the one that made it could corrupt the list. Sourced in a copy
# of HikariCP 2.7.9's source: the fix taken out again, and a test of the issue's scenario added.
sed -i -E 's/^(   (final |private ))synchronized (void untrackStatement|<T extends Statement> T trackStatement|void closeStatements)/\1\3/' \
  src/main/java/com/zaxxer/hikari/pool/ProxyConnection.java
grep -q 'synchronized void untrackStatement' src/main/java/com/zaxxer/hikari/pool/ProxyConnection.java &&
  { echo "hikaricp-955: the fix is still in place" >&2; return 1; }
cp "$bug_dir/StatementCloseRaceTest.java" src/test/java/com/zaxxer/hikari/pool/
test_class=com.zaxxer.hikari.pool.StatementCloseRaceTest
