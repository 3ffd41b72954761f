# Commons Pool 1.6: Debian builds it with ant and runs no tests; its pom.xml is upstream's. Sourced
# by bench/real_suites.sh in the unpacked source, once. Maps the pom's parent (commons-parent 22)
# and JUnit (4.10) to the versions in Debian's repository, raises its Java level to what JDK 17
# compiles, and patches the pom as maven-debian-helper would for a Maven-built package.
cat > debian/maven.rules <<'RULES'
junit junit * s/.*/4.x/ * *
org.apache.commons commons-parent * s/.*/debian/ * *
RULES
touch debian/maven.ignoreRules
sed -i 's#<maven.compile.source>1.5<#<maven.compile.source>1.8<#; s#<maven.compile.target>1.5<#<maven.compile.target>1.8<#' \
  pom.xml
mh_patchpoms -plibcommons-pool-java --debian-build -rdebian/maven.rules -idebian/maven.ignoreRules
touch debian/stamp-poms-patched
