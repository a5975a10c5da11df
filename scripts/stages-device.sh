#!/usr/bin/env bash
# Stage compare through output_code on the GPU machine over TORCH_TRACE logs captured earlier (a corpus part's
# traces, brought back by scripts/corpus-device.sh in corpus-<part>.tgz and carried here as a .tgz): builds the
# CLI, then tools/corpus/stage_compare_corpus.py --device cuda --per-compile (every compile its own fxray process,
# FXRAY_STAGE_COMPARE_JOBS at once, default 8), bounded by FXRAY_STAGES_UNTIL seconds after the start (default 560).
# FXRAY_STAGES_DEVICE=cpu compares CPU-recorded traces on this machine's cores instead (default cuda).
#   scripts/stages-device.sh .devscratch/traces-hf.tgz [more .tgz/.txz, folders or logs]  (xz packs traces ~6x smaller)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
T0=$(date +%s)
source scripts/device_cli_build.sh
device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; exit 1; }
left=$(( ${FXRAY_STAGES_UNTIL:-560} - ($(date +%s) - T0) ))
echo "== stage compare through output_code, $left s left"
timeout -k 5 "$left" "$PY" tools/corpus/stage_compare_corpus.py "$@" --fxray "$BUILD_DIR/app/cli/fxray" --device "${FXRAY_STAGES_DEVICE:-cuda}" \
  --per-compile --jobs "${FXRAY_STAGE_COMPARE_JOBS:-8}" --timeout 300 --stage-timeout 120 --json "$OUT/stages.json" --progress "$OUT/progress.jsonl" \
  >"$OUT/stages.txt" 2>&1
rc=$?
echo "stage compare: exit $rc after $(( $(date +%s) - T0 )) s"
cat "$OUT/stages.txt"
exit "$rc"
