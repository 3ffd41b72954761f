# HikariCP 2.7.9: Debian builds no tests, so its rules drop the test dependencies. Sourced by
# bench/real_suites.sh in the unpacked source, once, before maven-debian-helper patches the pom.
# Brings back the test dependencies Debian packages (JUnit 4, Mockito, log4j 2, H2, commons-csv)
# and removes the tests whose libraries Debian lacks: Prometheus, Micrometer, OSGi (pax-exam),
# Hibernate, PostgreSQL (a server), JNDI (simple-jndi).
# Its test dependencies (build-dep installs what Debian's own build needs only).
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq junit4 libmockito-java liblog4j2-java libh2-java libcommons-csv-java >&2
sed -i -E '/^(junit junit|org.apache.logging.log4j log4j-(api|core)|org.mockito mockito-core|com.h2database h2|org.apache.commons commons-csv) /d' \
  debian/maven.ignoreRules
cat >> debian/maven.rules <<'RULES'
junit junit * s/.*/4.x/ * *
org.apache.logging.log4j * * s/.*/debian/ * *
org.mockito mockito-core * s/.*/debian/ * *
com.h2database h2 * s/.*/debian/ * *
org.apache.commons commons-csv * s/.*/debian/ * *
RULES
test=src/test/java/com/zaxxer/hikari
rm -rf "$test/metrics/prometheus" "$test/metrics/micrometer" "$test/osgi" \
  "$test/pool/TestHibernate.java" "$test/pool/PostgresTest.java" "$test/pool/TestJNDI.java"
# log4j-slf4j-impl is not in Debian: TestElf reaches log4j's loggers directly instead (the tests
# that read HikariCP's log output then fail plainly too, and count as failing plainly).
python3 - "$test/pool/TestElf.java" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read().replace("import org.apache.logging.slf4j.Log4jLogger;\n", "")
s = re.sub(r"Log4jLogger log4Jlogger = \(Log4jLogger\) LoggerFactory.getLogger\(clazz\);\s*"
           r"Field field = [^;]*;\s*field.setAccessible\(true\);\s*"
           r"Logger logger = \(Logger\) field.get\(log4Jlogger\);",
           "Logger logger = (Logger) org.apache.logging.log4j.LogManager.getLogger(clazz);", s)
open(p, "w").write(s)
PY
# Its argLine names JaCoCo's property, which nothing sets here.
sed -i 's#<argLine>${surefireArgLine} ${sureFireOptions9}</argLine>#<argLine>${jsched.argLine}</argLine>#' pom.xml
