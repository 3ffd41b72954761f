#!/usr/bin/env bash
# Installs the Debian Java library packages the full class-file sweep runs over
# (tests/corpus/packages.txt, one per line: Debian's lib*-java packages of common library
# families, about 400 MB to download), beyond the test dependencies. Idempotent.
# Usage: scripts/install-corpus.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t pkgs < <(grep -v '^#' "$root/tests/corpus/packages.txt")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "jsched: the corpus's ${#pkgs[@]} packages are installed"
  exit 0
fi
echo "jsched: installing ${#missing[@]} of the corpus's ${#pkgs[@]} packages" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
