#!/usr/bin/env bash
# For a CUDA machine with PyTorch but no Qt, Graphviz or network (the H100/H200 device):
# configures core + CLI + the Qt-free tests against that machine's own PyTorch, builds with ninja, runs them.
# Logs go to $OUT when set (else ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}

{
  echo "== machine"; uname -a; nproc; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')"
  cmake --version | head -1; ninja --version; nvcc --version 2>&1 | tail -1
} 2>&1 | tee "$OUT/machine.txt"

echo "== configure" | tee "$OUT/configure.log"
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo 2>&1 | tee -a "$OUT/configure.log"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || { echo "configure failed ($rc)"; exit "$rc"; }

echo "== build" | tee "$OUT/build.log"
ninja -C "$BUILD_DIR" 2>&1 | tee -a "$OUT/build.log"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || { echo "build failed ($rc)"; exit "$rc"; }

echo "== tests" | tee "$OUT/ctest.log"
# FXRAY_DEVICE_TESTS=<regex> runs only the matching tests (e.g. "cuda_" while iterating on GPU code).
(cd "$BUILD_DIR" && ctest --output-on-failure -j8 --timeout 900 ${FXRAY_DEVICE_TESTS:+-R "$FXRAY_DEVICE_TESTS"} -V) 2>&1 \
  | tee -a "$OUT/ctest.log" | grep -E "^[0-9]+/[0-9]+ Test|tests passed|tests failed|^\s+[0-9]+ - "
rc=${PIPESTATUS[0]}

echo "== fxray info on the samples" | tee "$OUT/info.log"
"$BUILD_DIR/app/cli/fxray" info samples 2>&1 | tail -3 | tee -a "$OUT/info.log"

# FXRAY_DEVICE_BENCH=0 skips the benchmarks; FXRAY_DEVICE_BENCHES picks them (replay chain minimize; default: all).
if [ "${FXRAY_DEVICE_BENCH:-1}" = 1 ]; then
  for bench in ${FXRAY_DEVICE_BENCHES:-replay chain minimize}; do
    case "$bench" in
      replay)
        echo "== replay benchmark (fxray vs Python references, same run)" | tee "$OUT/bench.log"
        "$PY" bench/replay_bench.py --fxray "$BUILD_DIR/app/cli/fxray" --device cuda --repeats 100 --warmup 20 \
          --json "$OUT/bench.json" 2>&1 | tee -a "$OUT/bench.log" ;;
      chain)
        echo "== chained forward+backward replay of a 24-layer transformer (fxray vs eager)" | tee "$OUT/chain_bench.log"
        "$PY" bench/chain_bench.py --fxray "$BUILD_DIR/app/cli/fxray" 2>&1 | tee -a "$OUT/chain_bench.log" ;;
      minimize)
        echo "== minimize benchmark (fxray vs functorch's minifier; 1,500-node graph on CPU and CUDA)" | tee "$OUT/minimize_bench.log"
        "$PY" bench/minimize_bench.py --fxray "$BUILD_DIR/app/cli/fxray" 2>&1 | tee -a "$OUT/minimize_bench.log" ;;
    esac
  done
fi
exit "$rc"
