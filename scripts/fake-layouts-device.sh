#!/usr/bin/env bash
# Issue 21 on a CUDA machine: are the ops core/replay/engine/fake_layouts.cpp sets apart (their fake-tensor rule lays
# an output out otherwise than their eager kernel) the same on CUDA as on the CPU? Runs
# tests/data/layouts/probe_fake_layouts.py on cuda and cpu (the machine's torch; no build), logs and JSON under $OUT.
# The list holds if the "differ:" lines of both logs name the same ops.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
PY=${FXRAY_PYTHON:-python3}
for dev in cuda cpu; do
  PYTHONUNBUFFERED=1 "$PY" tests/data/layouts/probe_fake_layouts.py --device "$dev" --json "$OUT/fake_layouts_$dev.json" \
    2>&1 | tee "$OUT/fake_layouts_$dev.log"
done
grep -h '^differ:' "$OUT"/fake_layouts_*.log
