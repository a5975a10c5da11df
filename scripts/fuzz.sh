#!/usr/bin/env bash
# Builds the libFuzzer harnesses in tests/fuzz with clang (ASan + UBSan) and runs each for a time budget.
#   scripts/fuzz.sh [seconds per harness, default 60] [harness ...]   corpora: build-fuzz/corpus/<harness>, seeded
#   from samples/ and tests/data. A crash, leak or timeout fails the script (exit 1) and leaves its input in
#   build-fuzz/<harness>-crash-*; keep each as a regression input in tests/data/bad/.
#   FXRAY_FUZZ_RUNS=N: a fixed budget of N inputs per harness with a fixed seed instead of a time budget, so
#   that the result is the same on every run (what the test command uses).
#   FXRAY_FUZZ_CAP=N with a time budget: also stop a harness after N inputs (the long campaigns: 10M or an hour).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
ONLY=("$@")
OUT=build-fuzz
mkdir -p "$OUT"
CXX=${FXRAY_FUZZ_CXX:-clang++}
FLAGS=(-std=c++20 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -Icore)
IO=(core/base/error.cpp core/base/json.cpp core/base/md5.cpp core/base/utf8.cpp core/io/*.cpp core/graph/*.cpp)
# core/graph reads module sidecars (node_meta.json) through core/base/json.
GRAPH=(core/base/error.cpp core/base/json.cpp core/base/utf8.cpp core/graph/*.cpp)

# Every source is compiled once, into build-fuzz/obj, a job per core and through ccache (as scripts/build.sh), and each
# harness is then linked from those objects: six harnesses built from the same sources, one clang call each, were
# 25 of CI's 53 minutes on two cores.
LAUNCH=()
if command -v ccache >/dev/null; then
  LAUNCH=(ccache)
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/fxray/ccache} CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
fi
object_of() { local s=${1//\//_}; echo "$OUT/obj/${s%.cpp}.o"; }
mkdir -p "$OUT/obj"
mapfile -t SOURCES < <(printf '%s\n' "${IO[@]}" "${GRAPH[@]}" tests/fuzz/fuzz_*.cpp | sort -u)
JOBS=$(nproc)
echo "[fuzz] compiling ${#SOURCES[@]} sources ($JOBS at a time)"
running=0
for src in "${SOURCES[@]}"; do
  "${LAUNCH[@]}" "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$(object_of "$src")" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || { echo "[fuzz] a compile failed" >&2; wait; exit 1; }
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || { echo "[fuzz] a compile failed" >&2; wait; exit 1; }
  running=$((running - 1))
done
status=0
for harness in tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$harness" .cpp)
  if [ ${#ONLY[@]} -gt 0 ] && [[ ! " ${ONLY[*]} " == *" $name "* ]]; then continue; fi
  corpus="$OUT/corpus/$name"
  mkdir -p "$corpus"
  case "$name" in
    fuzz_fx_parser)
      sources=("${GRAPH[@]}")
      find samples tests/data/fx tests/data/bad/dumps -name '*.py' -size -64k -exec cp -n {} "$corpus/" \; 2>/dev/null || true ;;
    fuzz_annotation)
      sources=("${GRAPH[@]}")
      grep -rhoE '"(f|bf|i|u|c|b)[0-9]*\[[^"]*\][^"]*"|"Sym\([^"]*\)"' samples tests/data/fx 2>/dev/null | tr -d '"' | sort -u | head -400 |
        while read -r a; do printf '%s' "$a" > "$corpus/$(printf '%s' "$a" | md5sum | cut -c1-16)"; done ;;
    fuzz_pickle)
      sources=("${IO[@]}")
      find samples tests/data -name '*.input' -exec cp -n {} "$corpus/" \; 2>/dev/null || true
      find tests/data/bad/pickle -type f -size -64k -exec cp -n {} "$corpus/" \; 2>/dev/null || true ;;
    fuzz_pt_file)
      sources=("${IO[@]}")
      find samples tests/data -name '*.pt' -size -256k -exec cp -n {} "$corpus/" \; 2>/dev/null || true
      find tests/data/bad/zip -type f -size -256k -exec cp -n {} "$corpus/" \; 2>/dev/null || true ;;
    fuzz_trace_log)
      sources=("${IO[@]}")
      find samples tests/data/bad/trace tests/data/bad/trace_md5 -name '*.log' -size -256k -exec cp -n {} "$corpus/" \; 2>/dev/null || true ;;
    fuzz_ir_parsers)
      sources=("${GRAPH[@]}")
      find samples/cpu/torchscript samples/cpu/ltc -type f ! -name '*.pt' -exec cp -n {} "$corpus/" \; 2>/dev/null || true ;;
    *) echo "no source list for $name" >&2; exit 2 ;;
  esac
  echo "[fuzz] linking $name"
  objects=()
  for src in "${sources[@]}"; do objects+=("$(object_of "$src")"); done
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$(object_of "$harness")" "${objects[@]}" -o "$OUT/$name"
  log="$OUT/$name.log"
  budget=(-max_total_time="$SECONDS_EACH")
  what="${SECONDS_EACH}s"
  if [ -n "${FXRAY_FUZZ_CAP:-}" ]; then
    budget+=(-runs="$FXRAY_FUZZ_CAP")
    what="$what or $FXRAY_FUZZ_CAP inputs"
  fi
  if [ -n "${FXRAY_FUZZ_RUNS:-}" ]; then
    budget=(-runs="$FXRAY_FUZZ_RUNS" -seed=1)
    what="$FXRAY_FUZZ_RUNS inputs"
  fi
  echo "[fuzz] running $name ($what)"
  if ! "$OUT/$name" "$corpus" "${budget[@]}" -max_len=262144 -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$OUT/$name-" >"$log" 2>&1; then
    echo "[fuzz] $name FOUND A PROBLEM (log: $log)"; status=1
  fi
  grep -E "^(#[0-9]+ +DONE|Done)|stat::number_of_executed_units|cov:" "$log" | tail -2 || true
done
exit $status
