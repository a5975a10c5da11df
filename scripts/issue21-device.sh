#!/usr/bin/env bash
# Issue 21's remaining GPU work in one call of the 10-minute limit (session 21): builds the CLI once, then runs at once
#   (a) tests/cuda/test_cuda_graph_cuda.py;
#   (b) scripts/entry-dumps-device.sh t5 flex (its failing graph dumps come home);
#   (c) scripts/corpus-device.sh recipes3 with only the recipes in FXRAY_S21_RECIPES (default max-autotune) over
#       FXRAY_RECIPE_MODELS, stage compare until the call's deadline.
# and leaves in $OUT: s21.log, logs.tgz (every small log and report of both), dumps-*.tgz and traces-recipes3.tgz.
#   scripts/issue21-device.sh [DEADLINE_S]     DEADLINE_S: seconds after the start when everything must be packed
#                                               (default 570; give the run tool's timeout_s a little more)
# Environment: FXRAY_PYTHON, FXRAY_RECIPE_MODELS, FXRAY_S21_RECIPES, FXRAY_SKIP_BUILD (as the scripts it calls),
# FXRAY_S21_PARTS (test,entry,corpus: which of them run; default all three).
set -uo pipefail
cd "$(dirname "$0")/.." || exit
T0=$(date +%s)
DEADLINE=${1:-570}
FINAL=${OUT:-$PWD/device-logs}
mkdir -p "$FINAL"
export FXRAY_PYTHON=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
PY=$FXRAY_PYTHON
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
export FXRAY_BUILD_DIR=$BUILD_DIR
PARTS=${FXRAY_S21_PARTS:-test,entry,corpus}
WORK=/tmp/fxray-s21
rm -rf "$WORK"
mkdir -p "$WORK/test" "$WORK/entry" "$WORK/corpus"
exec > >(tee "$FINAL/s21.log") 2>&1
elapsed() { echo $(( $(date +%s) - T0 )); }

source scripts/device_cli_build.sh
if [ -z "${FXRAY_SKIP_BUILD:-}" ]; then
  device_build_cli "$WORK/build.log" || { echo "build failed"; tar -czf "$FINAL/logs.tgz" -C "$WORK" .; exit 1; }
fi
echo "== built after $(elapsed) s"
export FXRAY_SKIP_BUILD=1

if [[ ",$PARTS," == *,corpus,* ]]; then
  (
    # The corpus script's own deadline for stage compare counts from its start, which is now.
    OUT=$WORK/corpus FXRAY_CORPUS_JOBS=${FXRAY_CORPUS_JOBS:-8} \
      FXRAY_STAGE_COMPARE_UNTIL=$(( DEADLINE - 25 - $(elapsed) )) \
      FXRAY_CORPUS_ARGS="--recipes ${FXRAY_S21_RECIPES:-max-autotune} ${FXRAY_CORPUS_ARGS:-}" \
      timeout -k 10 $(( DEADLINE - 15 - $(elapsed) )) bash scripts/corpus-device.sh recipes3 > "$WORK/corpus/run.log" 2>&1
    echo "== corpus: exit $? after $(elapsed) s"
  ) &
  CORPUS_PID=$!
fi

if [[ ",$PARTS," == *,test,* ]]; then
  (
    echo "== test_cuda_graph_cuda ($(elapsed) s)"
    FXRAY_BIN=$BUILD_DIR/app/cli/fxray FXRAY_SOURCE_DIR=$PWD PYTHONUNBUFFERED=1 \
      timeout -k 10 $(( DEADLINE - 20 - $(elapsed) )) "$PY" tests/cuda/test_cuda_graph_cuda.py > "$WORK/test/cuda_graph.log" 2>&1
    echo "test_cuda_graph_cuda: exit $? after $(elapsed) s"
    cat "$WORK/test/cuda_graph.log"
  ) &
  TEST_PID=$!
fi

if [[ ",$PARTS," == *,entry,* ]]; then
  echo "== entry t5 flex ($(elapsed) s)"
  OUT=$WORK/entry FXRAY_ENTRY_TIMEOUT=${FXRAY_ENTRY_TIMEOUT:-240} \
    timeout -k 10 $(( DEADLINE - 20 - $(elapsed) )) bash scripts/entry-dumps-device.sh t5 flex
  echo "entry: exit $? after $(elapsed) s"
fi

[ -n "${TEST_PID:-}" ] && wait "$TEST_PID"
[ -n "${CORPUS_PID:-}" ] && wait "$CORPUS_PID"
echo "== packing after $(elapsed) s"
for f in "$WORK"/entry/dumps-*.tgz "$WORK"/corpus/traces-*.tgz; do
  [ -f "$f" ] && mv "$f" "$FINAL/"
done
tar -czf "$FINAL/logs.tgz" -C "$WORK" .
ls -l "$FINAL"
echo "== done after $(elapsed) s"
sleep 1  # tee's last lines
