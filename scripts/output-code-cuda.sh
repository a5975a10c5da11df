#!/usr/bin/env bash
# Issue 27 on a CUDA machine (for the lead; no GPU on the development machine): the output_code stage on Triton.
# Builds core + CLI like scripts/device-check.sh (tests: the stage-compare ones), then captures TORCH_TRACE logs of
# a Linear/ReLU stack on CUDA without and with inductor's planted relu bug
# (triton.inject_relu_bug_TESTING_ONLY = "accuracy") and runs `fxray compare --device cuda` on both: the correct
# compile must agree through output_code, the planted one diverge at output_code naming a triton relu kernel.
# Also the 24-layer case of the issue (--layers 24 --width 256). Logs and JSON under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
PY=${FXRAY_PYTHON:-python3}
FXRAY_DEVICE_BENCH=0 FXRAY_DEVICE_TESTS="${FXRAY_DEVICE_TESTS:-cli_test_stage_compare|cuda_test_stage_compare}" bash scripts/device-check.sh
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
FXRAY="$BUILD_DIR/app/cli/fxray"
export FXRAY_PYTHON="$PY"
status=0
for shape in "1 16" "24 256"; do
  set -- $shape
  dir="$OUT/output_code_cuda_l$1"
  echo "== capture: $1 layer(s), width $2, CUDA" | tee "$OUT/output_code_l$1.log"
  start=$(date +%s.%N)
  "$PY" tools/runtime/make_output_code_traces.py --out "$dir" --device cuda --layers "$1" --width "$2" 2>&1 \
    | tee -a "$OUT/output_code_l$1.log"
  echo "capture: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f", e - s}') s" | tee -a "$OUT/output_code_l$1.log"
  for which in correct planted; do
    echo "== fxray compare $which (cuda)" | tee -a "$OUT/output_code_l$1.log"
    start=$(date +%s.%N)
    "$FXRAY" compare "$dir/$which.log#0/0" --device cuda -o "$dir/$which.json" 2>&1 | tee -a "$OUT/output_code_l$1.log"
    echo "compare: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f", e - s}') s" | tee -a "$OUT/output_code_l$1.log"
  done
  "$PY" - "$dir" <<'PYEOF' 2>&1 | tee -a "$OUT/output_code_l$1.log"
import json, sys
d = sys.argv[1]
c, p = (json.load(open(f"{d}/{w}.json")) for w in ("correct", "planted"))
oc = lambda r: next(s for s in r["stages"] if s["stage"] == "output_code")
ok = c["verdict"] == "agree" and oc(c)["verdict"] == "agree"
k = oc(p).get("kernel", {})
ok = ok and p["first_divergent_stage"] == "output_code" and k.get("found") and "relu" in k.get("kernel", "") + k.get("node", "")
print("CHECK", "PASS" if ok else "FAIL", "correct:", c["verdict"], "planted:", p["verdict"], p["first_divergent_stage"],
      "kernel:", k.get("kernel"), "node:", k.get("node"), "max abs:", k.get("max_abs"))
sys.exit(0 if ok else 1)
PYEOF
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
exit $status
