#!/usr/bin/env bash
# Issue 24 on a CUDA machine ("checks on the device", "checked CUDA-graph replay"): builds only the fxray CLI against
# the machine's own PyTorch (cmake + ninja; no Qt or Graphviz there), then bench/replay_bench.py on CUDA: for each of
# the 8 bench graphs, fxray's checked replay with metadata checks only (--no-values), with value checks (the default:
# statistics reduced on the device, read back once per replay; on CUDA the timed repeats replay the checked pass
# captured as a CUDA graph), the same interpreted at every repeat ("before" columns: --interpreted-repeats), Python
# eager and torch.cuda.CUDAGraph, and fxray's CUDA graph without and with the value checks captured into it. Logs
# under $OUT; the figures tables close the output. ~3 minutes. FXRAY_SKIP_BUILD=1: $BUILD_DIR is built already.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}
REPEATS=${FXRAY_BENCH_REPEATS:-30}

{
  echo "== machine"; uname -a; nproc
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available())"
} 2>&1 | tee "$OUT/machine.txt"

echo "== configure + build fxray" | tee "$OUT/build.log"
start=$(date +%s)
[ -n "${FXRAY_SKIP_BUILD:-}" ] || cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; echo "configure failed"; exit 1; }
[ -n "${FXRAY_SKIP_BUILD:-}" ] || ninja -C "$BUILD_DIR" fxray >>"$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; echo "build failed"; exit 1; }
echo "built in $(( $(date +%s) - start )) s" | tee -a "$OUT/build.log"

echo "== replay benchmark on CUDA ($REPEATS runs after $((REPEATS / 5)) warm-up)" | tee "$OUT/bench.log"
FXRAY="$BUILD_DIR/app/cli/fxray"
# FXRAY_BENCH_BEFORE=0: without the interpreted "before" column (a shorter run); FXRAY_BENCH_CG_ROUNDS: rounds of the
# CUDA-graph columns (unchecked, checked), 1 by default.
BEFORE=(--fxray-before "$FXRAY" --before-args=--interpreted-repeats)
[ "${FXRAY_BENCH_BEFORE:-1}" = 0 ] && BEFORE=()
PYTHONUNBUFFERED=1 "$PY" bench/replay_bench.py --fxray "$FXRAY" "${BEFORE[@]}" --cg-rounds "${FXRAY_BENCH_CG_ROUNDS:-1}" \
  --device cuda --repeats "$REPEATS" --warmup $((REPEATS / 5)) --json "$OUT/bench.json" >>"$OUT/bench.log" 2>&1
rc=$?
# One planted NaN through the captured graph: the first node that makes it must be named after each replay.
echo "== checked CUDA graph on the planted NaN" | tee "$OUT/nan_cuda_graph.log"
"$FXRAY" replay tests/data/faults/nan_source/mlp_forward_0 --device cuda --cuda-graph --repeat 5 --in-process \
  >>"$OUT/nan_cuda_graph.log" 2>&1
"$FXRAY" replay tests/data/faults/nan_source/mlp_forward_0 --device cuda --cuda-graph --repeat 5 --in-process --json \
  >"$OUT/nan_cuda_graph.json" 2>>"$OUT/nan_cuda_graph.log"
"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); cg=r.get('cuda_graph',{}); print('eager first_nan_node', r.get('first_nan_node'), '| cuda graph', cg.get('status'), cg.get('reason'), json.dumps(cg.get('value_checks')))" \
  "$OUT/nan_cuda_graph.json" 2>&1 | tee -a "$OUT/nan_cuda_graph.log"
echo
sed -n '/^graph /,$p' "$OUT/bench.log"
exit "$rc"
