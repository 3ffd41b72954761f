#!/usr/bin/env bash
# Installs, from Debian's archive, whatever jsched needs that this machine lacks.
# Usage: scripts/install-deps.sh [--test]   (--test adds what the test suite and benchmarks use)
set -euo pipefail
pkgs=(cmake ninja-build g++ make pkg-config zlib1g-dev libpugixml-dev libgtest-dev
      openjdk-17-jdk-headless)
if [ "${1:-}" = "--test" ]; then
  # maven + junit + mockito: the Surefire integration tests; libasm-java: the ASM comparison
  # benchmark; parallel: the sharding test; clang + libclang-rt: fuzzing; dpkg-dev: the package
  # test (cpack's dependency list); chromium: the timeline page's test (headless);
  # clang-format: the format check.
  pkgs+=(maven maven-debian-helper libsurefire-java junit4 junit5 libmockito-java libasm-java
         parallel clang libclang-rt-14-dev dpkg-dev chromium clang-format)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "jsched: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
