#!/usr/bin/env bash
# Installs what is missing, builds jsched, and runs the demo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
echo "== jsched classfile roundtrip over every class of the JDK"
"$root/build/runner/jsched" classfile roundtrip "$jdk"/jmods/*.jmod
