#!/usr/bin/env bash
# Configures and builds jsched into build/ (or $JSCHED_BUILD_DIR), its tests and benchmarks
# included unless the arguments say -DJSCHED_TESTS=OFF (later -D arguments win).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${JSCHED_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJSCHED_TESTS=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
