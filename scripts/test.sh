#!/usr/bin/env bash
# THE test command: sets up, builds and runs every test (unit, CLI end-to-end, capture pytest), then the core
# and CLI tests again under ASan + UBSan, then every parser's libFuzzer harness for a fixed budget of inputs
# (when clang is there). Usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."

# Our code builds without a warning (FXRAY_WARNINGS, cmake/FxrayHelpers.cmake): one fails the run here.
FXRAY_FATAL_WARNINGS=1 bash scripts/build.sh
echo "[test] ctest (build)"
(cd build && ctest --output-on-failure -j2 --timeout 900)

if [ "${1:-}" != "--no-sanitize" ]; then
  bash scripts/build.sh --sanitize
  echo "[test] ctest (build-asan: core + cli under ASan/UBSan)"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j2 --timeout 900 -L "core|cli")
fi

if [ "${1:-}" != "--no-sanitize" ] && command -v clang++ >/dev/null; then
  echo "[test] fuzz harnesses, 3000 inputs each (scripts/fuzz.sh runs them for longer)"
  # A fresh corpus each time: the budget then covers the same inputs on every machine.
  rm -rf build-fuzz/corpus
  FXRAY_FUZZ_RUNS=3000 bash scripts/fuzz.sh
fi
