#!/usr/bin/env bash
# Builds the libFuzzer harnesses in tests/fuzz with clang (ASan + UBSan) and runs each for a time budget.
#   scripts/fuzz.sh [seconds per harness, default 60]     corpora: build-fuzz/corpus/<harness>, seeded from samples/
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
OUT=build-fuzz
mkdir -p "$OUT"
CXX=${FXRAY_FUZZ_CXX:-clang++}
FLAGS=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Icore)
for harness in tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$harness" .cpp)
  case "$name" in
    fuzz_fx_parser) sources=(core/base/error.cpp core/graph/*.cpp) ;;
    *) echo "no source list for $name" >&2; exit 2 ;;
  esac
  echo "[fuzz] building $name"
  "$CXX" "${FLAGS[@]}" "$harness" "${sources[@]}" -o "$OUT/$name"
  corpus="$OUT/corpus/$name"
  mkdir -p "$corpus"
  find samples tests/data/fx tests/data/bad/dumps -name '*.py' -size -64k -exec cp -n {} "$corpus/" \; 2>/dev/null || true
  echo "[fuzz] running $name for ${SECONDS_EACH}s"
  "$OUT/$name" "$corpus" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$OUT/$name-" 2>&1 | grep -E "^(#[0-9]+ +DONE|==|SUMMARY|Done)|crash|leak|timeout" || true
done
