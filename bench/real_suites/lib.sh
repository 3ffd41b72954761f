# What bench/real_suites.sh and bench/seeded_bugs.sh share: a Debian source package's Maven build
# made ready to run its tests, and a run of them. Sourced; the caller sets `here` (bench/), `work`
# (where sources are kept), `cap` (seconds of one Maven run) and `java_home`.

# A deb-src line for the archive and suite of the machine's own binary sources.
ensure_deb_src() {
  if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return
  fi
  local from=/etc/apt/sources.list.d/debian.sources
  [ -f "$from" ] || { echo "${0##*/}: error: no deb-src line and no $from to derive one" >&2; exit 2; }
  awk 'BEGIN{RS=""; ORS="\n\n"} /Types:[^\n]*deb/ {sub(/Types:[^\n]*/, "Types: deb-src"); print; exit}' \
    "$from" > /etc/apt/sources.list.d/jsched-deb-src.sources
  apt-get update -qq
}

# The unpacked source of $1 (fetched and unpacked the first time).
source_dir() {
  local pkg=$1 dir
  dir=$(find "$work" -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -1)
  if [ -z "$dir" ]; then
    ensure_deb_src
    # set -e does not reach into the $(source_dir) that calls this: every step says so itself.
    (cd "$work" && apt-get source -qq --download-only "$pkg" >&2 &&
      dpkg-source -x "$(ls "$pkg"_*.dsc | tail -1)" >&2) || return 1
    dir=$(find "$work" -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -1)
    [ -n "$dir" ] || return 1
  fi
  if [ ! -e "$dir/.jsched-build-deps" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq "$pkg" >&2 || return 1
    touch "$dir/.jsched-build-deps"
  fi
  echo "$dir"
}

# The tests enabled, Debian's poms in place, and the argLine convention.
prepare() {
  local pkg=$1 dir=$2 props=$2/debian/maven.properties
  if grep -q '^maven.test.skip=' "$props" 2>/dev/null; then
    sed -i 's/^maven.test.skip=.*/maven.test.skip=false/' "$props"
  else
    echo "maven.test.skip=false" >> "$props"
  fi
  # What a package's Debian build leaves out for its tests, brought back by a recipe of its own.
  local recipe=$here/real_suites/$pkg.sh
  if [ -f "$recipe" ] && [ ! -e "$dir/.jsched-recipe" ]; then
    (cd "$dir" && set -e && . "$recipe") >&2 && touch "$dir/.jsched-recipe"
  fi
  [ -e "$dir/debian/stamp-poms-patched" ] || (cd "$dir" && dh_auto_configure >&2)
  if grep -q '<argLine>' "$dir/pom.xml" && ! grep -q 'jsched.argLine' "$dir/pom.xml"; then
    sed -i 's#<argLine>#<argLine>${jsched.argLine} #' "$dir/pom.xml"
  fi
  # A pom's own limit on one test JVM (Surefire kills the fork, and the classes after it get
  # no result): the run's cap bounds it instead.
  sed -i "s#<forkedProcessTimeoutInSeconds>[0-9]*<#<forkedProcessTimeoutInSeconds>$cap<#" \
    "$dir/pom.xml"
}

# mvn as maven-debian-helper runs it (offline, Debian's repository and rules).
mvn_in() {
  local dir=$1
  shift
  (cd "$dir" && "$java_home/bin/java" -cp /usr/share/maven/boot/plexus-classworlds-2.x.jar \
    -Dmaven.home=/usr/share/maven -Dmaven.multiModuleProjectDirectory="$dir" \
    -Dclassworlds.conf=/etc/maven/m2-debian.conf \
    -Dproperties.file.manual="$dir/debian/maven.properties" \
    org.codehaus.plexus.classworlds.launcher.Launcher -s/etc/maven/settings-debian.xml \
    -Ddebian.dir="$dir/debian" -Dmaven.repo.local="$dir/debian/maven-repo" -Dnotimestamp=true \
    -Dlocale=en_US -B "$@")
}

# One run of the suite (with the caller's mvn_extra arguments, e.g. -Dtest=...): "tests passed
# skipped jsched-found executions seconds cpu".
mvn_extra=()
run_suite() {
  local dir=$1 argline=$2 log=$3 t0 t1 cpu
  rm -rf "$dir"/target/surefire-reports "$dir"/*/target/surefire-reports
  local set_arg=()
  if grep -q 'jsched.argLine' "$dir/pom.xml"; then
    set_arg=("-Djsched.argLine=$argline")
  elif [ -n "$argline" ]; then
    set_arg=("-DargLine=$argline")
  fi
  t0=$(date +%s.%N)
  local times=$log.time TIMEFORMAT='%U %S'
  { time (timeout --kill-after=30 "$cap" \
    bash -c "$(declare -f mvn_in); java_home='$java_home' mvn_in \"\$@\"" _ "$dir" \
    -Dmaven.test.failure.ignore=true "${set_arg[@]}" "${mvn_extra[@]}" test > "$log" 2>&1 || true) ; } 2> "$times"
  t1=$(date +%s.%N)
  cpu=$(awk '{printf "%.0f", $1 + $2}' "$times" 2>/dev/null || echo 0)
  # A multi-module build (guava) has its reports in its modules.
  python3 - "$dir" "$t0" "$t1" "$cpu" <<'EOF'
import glob, os, re, sys
top, t0, t1, cpu = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
dirs = glob.glob(os.path.join(top, "target/surefire-reports")) + \
    glob.glob(os.path.join(top, "*/target/surefire-reports"))
tests = passed = skipped = found = 0
for f in [x for d in dirs for x in glob.glob(os.path.join(d, "TEST-*.xml"))]:
    xml = open(f, encoding="utf-8", errors="replace").read()
    for m in re.finditer(r"<testcase\b[^>]*?(/>|>(.*?)</testcase>)", xml, re.S):
        tests += 1
        body = m.group(2) or ""
        if "<skipped" in body:
            skipped += 1
        elif "<failure" in body or "<error" in body:
            found += "jsched found a " in body
        else:
            passed += 1
executions = 0
for f in [x for d in dirs for p in ("*.dumpstream", "*-output.txt")
          for x in glob.glob(os.path.join(d, p))]:
    for m in re.finditer(r"jsched: \S+: (\d+) iterations? in ", open(f, errors="replace").read()):
        executions += int(m.group(1))
print(tests, passed, skipped, found, executions, round(t1 - t0), cpu)
EOF
}

