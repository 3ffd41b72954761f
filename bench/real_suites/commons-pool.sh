# Commons Pool 1.6: Debian builds it with ant and runs no tests; its pom.xml is upstream's. Sourced
# by bench/real_suites.sh in the unpacked source, once. Maps the pom's parent (commons-parent 22)
# and JUnit (4.10) to the versions in Debian's repository, raises its Java level to what JDK 17
# compiles, and patches the pom as maven-debian-helper would for a Maven-built package.
# Its test dependencies (build-dep installs what Debian's own build needs only).
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq junit4 >&2
cat > debian/maven.rules <<'RULES'
junit junit * s/.*/4.x/ * *
org.apache.commons commons-parent * s/.*/debian/ * *
RULES
touch debian/maven.ignoreRules
sed -i 's#<maven.compile.source>1.5<#<maven.compile.source>1.8<#; s#<maven.compile.target>1.5<#<maven.compile.target>1.8<#' \
  pom.xml
# Without its parent the pom names no plugin versions, which Debian's offline Maven cannot
# resolve: the versions Debian packages for the test phase, and no release plugins (assembly,
# sources, javadoc, site), which the tests do not need.
python3 - pom.xml <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
managed = "".join(
    "<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>%s</artifactId>"
    "<version>%s</version></plugin>" % pv
    for pv in (("maven-resources-plugin", "3.3.0"), ("maven-compiler-plugin", "3.10.1"),
               ("maven-surefire-plugin", "2.22.3"), ("maven-jar-plugin", "debian")))
s = re.sub(r"<pluginManagement>.*?</pluginManagement>",
           "<pluginManagement><plugins>" + managed + "</plugins></pluginManagement>", s, flags=re.S)
for a in ("maven-assembly-plugin", "maven-source-plugin", "maven-javadoc-plugin"):
    s = re.sub(r"\s*<plugin>(?:(?!</plugin>).)*?<artifactId>" + a + r"</artifactId>.*?</plugin>", "",
               s, flags=re.S)
open(p, "w").write(s)
PY
mh_patchpoms -plibcommons-pool-java --debian-build -rdebian/maven.rules -idebian/maven.ignoreRules
touch debian/stamp-poms-patched
# maven-debian-helper would link what the build needs into debian/maven-repo (the build's local
# repository); a tree of links to all of Debian's repository does the same for an ant package.
rm -rf debian/maven-repo
cp -rs /usr/share/maven-repo debian/maven-repo
