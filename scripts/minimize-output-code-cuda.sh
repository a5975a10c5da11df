#!/usr/bin/env bash
# Issue 27 on a CUDA machine (for the lead; no GPU on the development machine): `fxray minimize --until
# diverge:output_code` on Triton. Builds core + CLI like scripts/output-code-cuda.sh (scripts/device-check.sh; test:
# the CPU minimize-output_code one), then runs bench/minimize_bench.py's output_code case on CUDA: inductor's planted
# relu bug (triton.inject_relu_bug_TESTING_ONLY = "accuracy") in the issue's 24-layer stack (width 256), fxray's
# minimizer against PyTorch's accuracy minifier (TORCHDYNAMO_REPRO_AFTER=aot, TORCHDYNAMO_REPRO_LEVEL=4) in the same
# run: time, result size, whether each finishes and keeps the relu, whether fxray's repro.py diverges.
# Wall time: the build (~3-4 min on 16 cores) + at most ~5 min of benchmark (each side's runs are bounded).
# Logs under $OUT: minimize_output_code_cuda.log (the table), the build's and the test's logs, the work folder.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
PY=${FXRAY_PYTHON:-python3}
FXRAY_DEVICE_BENCH=0 FXRAY_DEVICE_TESTS="${FXRAY_DEVICE_TESTS:-cli_test_minimize_output_code}" bash scripts/device-check.sh
test_rc=$?
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
export FXRAY_PYTHON="$PY"
log="$OUT/minimize_output_code_cuda.log"
echo "== minimize --until diverge:output_code vs PyTorch's minifier, 24 layers, width 256, CUDA" | tee "$log"
start=$(date +%s)
timeout -k 10 330 "$PY" bench/minimize_bench.py --fxray "$BUILD_DIR/app/cli/fxray" --cases output_code --devices cuda \
  --layers 24 --width 256 --minifier-timeout 150 --work "$OUT/minimize_output_code_work" 2>&1 | tee -a "$log"
bench_rc=${PIPESTATUS[0]}
echo "bench: exit $bench_rc, $(( $(date +%s) - start )) s" | tee -a "$log"
# A quick verdict for the log reader: fxray's row must say it finished, kept the relu and its repro diverges.
if grep -E "^fxray +True .* True +.*repro.py: diverges" "$log" >/dev/null; then
  echo "CHECK PASS (fxray finished, relu kept, repro diverges)" | tee -a "$log"
else
  echo "CHECK FAIL (see the fxray row above)" | tee -a "$log"; bench_rc=1
fi
[ "$test_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
