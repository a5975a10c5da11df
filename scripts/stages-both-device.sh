#!/usr/bin/env bash
# Stage compare through output_code on the GPU machine, CUDA-recorded and CPU-recorded traces at once: one CLI build
# (scripts/device_cli_build.sh), then tools/corpus/stage_compare_corpus.py --per-compile twice in parallel, CUDA
# compiles on the GPU (FXRAY_STAGES_CUDA_JOBS at once, default 8) and CPU compiles on the machine's cores
# (FXRAY_STAGES_CPU_JOBS, default 20), both bounded by FXRAY_STAGES_UNTIL seconds after the start (default 560).
#   scripts/stages-both-device.sh CUDA_TRACES... -- CPU_TRACES...    (.tgz/.txz archives, folders or logs)
# Logs under $OUT: stages-{cuda,cpu}.txt (tables), .json (every compile), progress-{cuda,cpu}.jsonl (each compile
# as it ended: what a stopped run compared), build.log.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
T0=$(date +%s)
cuda=() cpu=() side=cuda
for a in "$@"; do
  if [ "$a" = "--" ]; then side=cpu; elif [ "$side" = cuda ]; then cuda+=("$a"); else cpu+=("$a"); fi
done
source scripts/device_cli_build.sh
device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; exit 1; }
left=$(( ${FXRAY_STAGES_UNTIL:-560} - ($(date +%s) - T0) ))
echo "== stage compare through output_code, CUDA ${cuda[*]:-none} and CPU ${cpu[*]:-none}, $left s left"
compare() {  # DEVICE JOBS INPUTS...
  local dev=$1 jobs=$2
  shift 2
  timeout -k 5 "$left" "$PY" tools/corpus/stage_compare_corpus.py "$@" --fxray "$BUILD_DIR/app/cli/fxray" --device "$dev" \
    --per-compile --jobs "$jobs" --timeout 300 --stage-timeout 120 --json "$OUT/stages-$dev.json" \
    --progress "$OUT/progress-$dev.jsonl" >"$OUT/stages-$dev.txt" 2>&1
  echo "stage compare $dev: exit $? after $(( $(date +%s) - T0 )) s"
}
[ "${#cuda[@]}" -eq 0 ] || compare cuda "${FXRAY_STAGES_CUDA_JOBS:-8}" "${cuda[@]}" &
[ "${#cpu[@]}" -eq 0 ] || compare cpu "${FXRAY_STAGES_CPU_JOBS:-20}" "${cpu[@]}" &
wait
tail -n 25 "$OUT"/stages-*.txt
