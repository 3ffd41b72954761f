# Guava 31.1: Debian builds guava and guava-testlib without tests and ignores guava-tests. Sourced
# by bench/real_suites.sh in the unpacked source, once, before maven-debian-helper patches the
# poms. Brings guava-tests into the build (not installed) with the test dependencies Debian
# packages (JUnit 4, Truth, Mockito, EasyMock), keeps its concurrency tests
# (com.google.common.util.concurrent: futures, executors, services, monitors, rate limiting) and
# removes the others, and guava-testlib's own tests. Debian's Truth is 0.39, older than the
# tests': isSameInstanceAs is its isSameAs, and a few annotations Debian lacks (the Checker
# Framework's @Nullable, J2ObjC's) are replaced or dropped. The benchmarks need Caliper, which
# Debian lacks.
# Its test dependencies (build-dep installs what Debian's own build needs only).
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq junit4 libtruth-java libjimfs-java libeasymock-java libmockito-java >&2
sed -i 's#^guava-tests/pom.xml --ignore$#guava-tests/pom.xml --ignore-pom#' debian/libguava-java.poms
sed -i -E '/^(com.google.guava guava-tests|org.easymock easymock|org.mockito mockito-core) /d' \
  debian/maven.ignoreRules
cat >> debian/maven.ignoreRules <<'RULES'
com.google.truth.extensions truth-java8-extension * * * *
com.google.jimfs jimfs * * * *
org.codehaus.mojo build-helper-maven-plugin * * * *
RULES
cat >> debian/maven.rules <<'RULES'
com.google.truth truth * s/.*/debian/ * *
org.mockito mockito-core * s/.*/debian/ * *
org.easymock easymock * s/.*/debian/ * *
RULES
rm -rf guava-tests/benchmark guava-testlib/test
find guava-tests/test -mindepth 1 -maxdepth 4 ! -path 'guava-tests/test/com' \
  ! -path 'guava-tests/test/com/google' ! -path 'guava-tests/test/com/google/common' \
  ! -path 'guava-tests/test/com/google/common/util' -prune -exec rm -rf {} +
find guava-tests/test/com/google/common/util -mindepth 1 -maxdepth 1 ! -name concurrent \
  -exec rm -rf {} +
sed -i -e 's/isSameInstanceAs(/isSameAs(/g; s/isNotSameInstanceAs(/isNotSameAs(/g' \
  -e 's/import org.checkerframework.checker.nullness.qual.Nullable;/import javax.annotation.Nullable;/' \
  -e 's/import com.google.j2objc.annotations.[A-Za-z]*;//; s/@J2ObjCIncompatible\b//g' \
  guava-tests/test/com/google/common/util/concurrent/*.java
sed -i -E 's/isAtLeast\(([0-9]+)\);/isAtLeast(\1L);/' \
  guava-tests/test/com/google/common/util/concurrent/ServiceManagerTest.java
# As debian/rules does before its build: failureaccess's class, which guava's futures use.
cp -Rp futures/failureaccess/src/com/google/common/util/concurrent/internal \
  guava/src/com/google/common/util/concurrent/
