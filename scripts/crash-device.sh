#!/usr/bin/env bash
# One crash on the GPU machine, examined: builds the fxray CLI (cmake + ninja, like scripts/replay-bench-device.sh),
# then runs FXRAY_CRASH_CMD (an fxray replay command line, default: the one that crashed in the replay bench) under
# gdb for a backtrace when gdb is there, and a few variants of it to narrow the cause. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$OUT/build.log" 2>&1 && ninja -C "$BUILD_DIR" fxray >>"$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
FXRAY="$BUILD_DIR/app/cli/fxray"
G=${FXRAY_CRASH_GRAPH:-samples/h100/dumps/cnn_channels_last/cnn_channels_last_forward_0}
run() { echo "== fxray replay $G $*"; timeout 120 "$FXRAY" replay "$G" "$@" >"$OUT/last.out" 2>&1; echo "exit $?"; tail -4 "$OUT/last.out"; }
run --in-process --device cuda --no-values
run --in-process --device cuda --no-values --repeat 3 --warmup 1
run --in-process --device cuda
run --device cuda --no-values
run --in-process --device cuda --no-values --inputs random
if command -v gdb >/dev/null; then
  echo "== gdb backtrace"
  timeout 180 gdb -batch -ex run -ex bt -ex "info threads" --args "$FXRAY" replay "$G" --in-process --device cuda --no-values \
    --repeat 3 --warmup 1 2>&1 | grep -v "^\[New Thread\|^\[Thread" | tail -60
else
  echo "no gdb on this machine"
fi
