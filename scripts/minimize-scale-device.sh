#!/usr/bin/env bash
# Issue 24's "minimize at scale" on a CUDA machine (for the lead; no GPU on the development machine). Builds core +
# CLI like scripts/minimize-output-code-cuda.sh (scripts/device-check.sh, no benchmarks, two quick tests), then runs
# bench/minimize_bench.py's scale cases on CUDA: the ~6,000-node joint graph of a 24-layer transformer's training step
# (bench/scale_model.py) with
#   scale_nan      a NaN planted in layer 12: fxray `minimize --until nan` vs functorch's fx_minifier
#                  ("an output holds NaN"; the accuracy minifier sees no divergence: eager has the NaN too);
#   scale_diverge  a buggy custom post-grad pass (erf -> erfc - 1, layer 12's GELU): fxray `minimize
#                  LOG#0/0/aot_joint_graph --until diverge:post_grad` (inductor's passes only, no codegen; growing
#                  prefixes, then truncation at the rewritten node) vs TORCHDYNAMO_REPRO_AFTER=aot
#                  TORCHDYNAMO_REPRO_LEVEL=4 and its minifier_launcher.py;
# each side bounded by 60 s (the goal: <= 5 nodes in < 60 s), each case by a wall-clock limit, so that the bench is
# done ~7 minutes after the build. Logs under $OUT: minimize_scale_cuda.log (the tables), the build's and the test's
# logs, the work folder (dumps, trace, minimized graphs; the inductor caches are left out).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
PY=${FXRAY_PYTHON:-python3}
FXRAY_DEVICE_BENCH=0 FXRAY_DEVICE_TESTS="${FXRAY_DEVICE_TESTS:-cli_test_minimize$|cli_test_minimize_post_grad}" bash scripts/device-check.sh
test_rc=$?
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
export FXRAY_PYTHON="$PY"
log="$OUT/minimize_scale_cuda.log"
work=/tmp/fxray-minimize-scale-work
rm -rf "$work"
echo "== minimize at scale: 24-layer transformer joint graph, CUDA" | tee "$log"
rc=0
# scale_diverge's wall limit: the step's TORCH_TRACE compile (65 s on the H100), fxray (<= 60 s), PyTorch's detect
# run and launcher (<= 60 s each).
for spec in scale_nan:110 scale_diverge:300; do
  case_name=${spec%%:*}
  start=$(date +%s)
  timeout -k 10 "${spec##*:}" "$PY" bench/minimize_bench.py --fxray "$BUILD_DIR/app/cli/fxray" --cases "$case_name" \
    --devices cuda --minifier-timeout 60 --work "$work" 2>&1 | tee -a "$log"
  case_rc=${PIPESTATUS[0]}
  echo "$case_name: exit $case_rc, $(( $(date +%s) - start )) s" | tee -a "$log"
  [ "$case_rc" -eq 0 ] || rc=1
done
# The work folder without the inductor caches (large, and nothing to read).
find "$work" -type d \( -name cache -o -name "scale_cache_*" \) -prune -exec rm -rf {} + 2>/dev/null
cp -r "$work" "$OUT/minimize_scale_work" 2>/dev/null
# A quick verdict for the log reader: fxray's rows must say finished, kept, and <= 5 nodes in < 60 s.
if grep -E "^fxray +True +[0-9.]+ +[0-5] +True" "$log" | awk '$3 < 60' | wc -l | grep -qx 2; then
  echo "CHECK PASS (both fxray rows: finished, <= 5 nodes, root cause kept, < 60 s)" | tee -a "$log"
else
  echo "CHECK FAIL (see the fxray rows above)" | tee -a "$log"; rc=1
fi
[ "$test_rc" -eq 0 ] && [ "$rc" -eq 0 ]
