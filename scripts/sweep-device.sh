#!/usr/bin/env bash
# Issue 24 on a CUDA machine: builds like scripts/device-check.sh (its CUDA tests and the sweep tests), then
# scripts/sweep_device_check.py: a seed sweep on CUDA, the sweep bench on CUDA, and `--repeat N --until diverge`
# naming index_add's float atomics. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
FXRAY_DEVICE_BENCH=0 FXRAY_DEVICE_TESTS="${FXRAY_DEVICE_TESTS:-cli_test_sweep}" bash scripts/device-check.sh
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PYTHONUNBUFFERED=1 "${FXRAY_PYTHON:-python3}" scripts/sweep_device_check.py "$BUILD_DIR/app/cli/fxray" "$OUT" 2>&1 | tee "$OUT/sweep_device.log"
