#!/usr/bin/env bash
# Issue 21 on a CUDA machine: builds like scripts/device-check.sh (its CUDA tests and the RNG test), then
# scripts/rng_device_check.py. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
FXRAY_DEVICE_BENCH=0 FXRAY_DEVICE_TESTS="${FXRAY_DEVICE_TESTS:-cuda_|cli_test_rng}" bash scripts/device-check.sh
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PYTHONUNBUFFERED=1 "${FXRAY_PYTHON:-python3}" scripts/rng_device_check.py "$BUILD_DIR/app/cli/fxray" "$OUT" 2>&1 | tee "$OUT/rng_device.log"
