#!/usr/bin/env bash
# Several corpus parts at once on a multi-GPU host (kind nvidia-h200-x4): one build, then one corpus-device.sh per
# SPEC, each on its own GPU, all cut at one deadline; each SPEC's logs come back as two files (8 files at most).
#
#   scripts/corpus-device-parallel.sh SPEC [SPEC ...]     (at most 4)
#     SPEC = TAG=PART[:MODELS[:RECIPES]]   e.g. r1=recipes1:distilbert,bart:bf16,dynamic
#   FXRAY_PARALLEL_DEADLINE (seconds after the start when every part is stopped, default 570), FXRAY_CORPUS_JOBS
#   (per part, default 8), FXRAY_CORPUS_MODEL_TIMEOUT, FXRAY_PYTHON as corpus-device.sh.
# Out: $OUT/logs-TAG.tgz (that part's run log, table, summary, reports, stage compare), $OUT/traces-TAG.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
T0=$(date +%s)
DEADLINE=${FXRAY_PARALLEL_DEADLINE:-570}
export BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
export PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
[ "$#" -ge 1 ] && [ "$#" -le 4 ] || { echo "usage: $0 TAG=PART[:MODELS[:RECIPES]] ... (1 to 4)"; exit 2; }

source scripts/device_cli_build.sh
device_build_cli "$OUT/build.log" || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - T0 )) s"

gpu=0
pids=()
tags=()
for spec in "$@"; do
  tag=${spec%%=*}
  IFS=: read -r part models recipes <<<"${spec#*=}"
  left=$(( DEADLINE - ($(date +%s) - T0) ))
  dir=$OUT/$tag
  mkdir -p "$dir"
  (
    export CUDA_VISIBLE_DEVICES=$gpu OUT="$dir" FXRAY_CORPUS_TAG=$tag FXRAY_SKIP_BUILD=1 FXRAY_BUILD_DIR="$BUILD_DIR"
    export FXRAY_PYTHON="$PY" FXRAY_STAGE_COMPARE_UNTIL=$(( left - 15 ))
    [ -n "$models" ] && export FXRAY_RECIPE_MODELS=$models
    [ -n "$recipes" ] && export FXRAY_CORPUS_ARGS="${FXRAY_CORPUS_ARGS:-} --recipes $recipes"
    timeout -k 10 "$left" bash scripts/corpus-device.sh "$part" > "$dir/run.log" 2>&1
    echo "exit $?" >> "$dir/run.log"
  ) &
  pids+=($!)
  tags+=("$tag")
  echo "part $tag: $part on GPU $gpu (models ${models:-default}, recipes ${recipes:-of the part}), $left s"
  gpu=$(( gpu + 1 ))
done
wait "${pids[@]}"

for tag in "${tags[@]}"; do
  echo "== $tag"; tail -n 45 "$OUT/$tag/run.log"
  for t in "$OUT/$tag"/traces-*.tgz; do [ -f "$t" ] && mv "$t" "$OUT/traces-$tag.tgz"; done
  tar -czf "$OUT/logs-$tag.tgz" -C "$OUT" "$tag" && rm -rf "${OUT:?}/$tag"
done
rm -f "$OUT/build.log"   # its tail is printed when the build fails; a ninth file would not come back
echo "all parts done after $(( $(date +%s) - T0 )) s"
