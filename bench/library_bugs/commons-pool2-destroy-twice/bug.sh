# package: commons-pool2
# Commons Pool 2.11.1 as released: nothing is taken out. The test of the race (ours; the suite has
# none) is added. PlainReproduction.java forces the same interleaving on a plain JVM.
cp "$bug_dir/TestEvictorClearOldestDestroyOnce.java" src/test/java/org/apache/commons/pool2/impl/
test_class=org.apache.commons.pool2.impl.TestEvictorClearOldestDestroyOnce
