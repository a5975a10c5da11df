#!/usr/bin/env bash
# The real-model corpus on the GPU machine (no network, no Qt): builds the fxray CLI against the machine's own
# PyTorch, installs the carried wheels (expecttest, for OpInfo), runs tools/corpus/run_corpus.py --device cuda
# over one part of the corpus, and leaves at most 8 files in $OUT (the rest tarred).
#
#   scripts/corpus-device.sh [hf|vision|opinfo|rest|models|new|recipes1|recipes2|recipes3|distributed|all]
#     (default: all)
#     hf = the 9 older transformers models, vision = the 7 older timm/torchvision models (plain recipe),
#     opinfo = all of op_db, rest = vision + opinfo; new = T5, wav2vec2, Qwen2-MoE, Mixtral, timm ViT (plain);
#     recipes1..3 = the recipes (tools/corpus/recipes.py) over 8 representative models (RECIPE_MODELS below),
#     three recipes a call: bf16,dynamic,checkpoint | sac,flex,optimizer | accum,reduce-overhead,max-autotune;
#     distributed = the 2-rank dtensor_tp and fsdp2 steps with NCCL, one GPU per rank (run it on kind
#     nvidia-h100-x2; on one GPU they are skipped with the reason). One call of the 10-minute limit each: the first
#     call builds (~3 min), a warm machine keeps the build for the next.
# Carry .wheels/ (pip download expecttest -d .wheels). Environment: FXRAY_PYTHON (default /opt/torch/.venv/bin/python3
# or python3), FXRAY_BUILD_DIR (default /tmp/fxray-device-build, reused while the machine stays warm),
# FXRAY_CORPUS_DEVICE (default cuda), FXRAY_CORPUS_SIZE (tiny | small, default tiny), FXRAY_CORPUS_JOBS (default 8), FXRAY_CORPUS_MODEL_TIMEOUT
# (seconds per model capture or inductor trace process, default 300), FXRAY_CORPUS_ARGS (more run_corpus options),
# FXRAY_CORPUS_TAG (the corpus folder's name, default the part), FXRAY_SKIP_BUILD (1: $BUILD_DIR is built already),
# FXRAY_STAGE_COMPARE_UNTIL (seconds after the start: when set, the part's trace logs are then stage-compared on the
# device through output_code, tools/corpus/stage_compare_corpus.py, until that deadline; e.g. 540 in a 600 s call).
set -uo pipefail
cd "$(dirname "$0")/.."
PART=${1:-all}
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
# The distributed part replays its ranks over NCCL: its build has NCCL's process groups, in a folder of its own (a
# warm machine's CLI-only build is configured without them, and device_build_cli configures a folder only once).
CMAKE_EXTRA=()
if [ "$PART" = distributed ]; then
  BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build-nccl}
  CMAKE_EXTRA=(-DFXRAY_NCCL=ON)
fi
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
# FXRAY_CORPUS_TAG names the corpus folder when several calls of one part run at once (corpus-device-parallel.sh).
CORPUS=/tmp/fxray-corpus-${FXRAY_CORPUS_TAG:-$PART}
T0=$(date +%s)

RECIPE_MODELS=${FXRAY_RECIPE_MODELS:-qwen2,distilbert,bart,t5,wav2vec2,qwen2_moe,vit,resnet50}
PLAIN=(--recipes plain --distributed none)
case "$PART" in
  hf)     SELECT=(--models qwen2,mistral,opt,distilbert,roberta,bart,whisper,clip,deit --opinfo none "${PLAIN[@]}") ;;
  vision) SELECT=(--models resnet50,regnet,mobilevit,levit,densenet121,shufflenet,efficientnet_v2_s --opinfo none "${PLAIN[@]}") ;;
  models) SELECT=(--opinfo none "${PLAIN[@]}") ;;
  opinfo) SELECT=(--models none --opinfo all --distributed none) ;;
  rest)   SELECT=(--models resnet50,regnet,mobilevit,levit,densenet121,shufflenet,efficientnet_v2_s --opinfo all "${PLAIN[@]}") ;;
  new)    SELECT=(--models t5,wav2vec2,qwen2_moe,mixtral,vit --opinfo none "${PLAIN[@]}") ;;
  recipes1) SELECT=(--models "$RECIPE_MODELS" --recipes bf16,dynamic,checkpoint --distributed none --opinfo none) ;;
  recipes2) SELECT=(--models "$RECIPE_MODELS" --recipes sac,flex,optimizer --distributed none --opinfo none) ;;
  recipes3) SELECT=(--models "$RECIPE_MODELS" --recipes accum,reduce-overhead,max-autotune --distributed none --opinfo none) ;;
  distributed) SELECT=(--models none --distributed tp,fsdp2 --opinfo none) ;;
  all)    SELECT=() ;;
  *) echo "unknown part '$PART' (hf|vision|opinfo|rest|models|new|recipes1|recipes2|recipes3|distributed|all)"; exit 2 ;;
esac

{
  echo "== machine"; uname -a; nproc; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch, torch.distributed as d; print('gpus', torch.cuda.device_count(), 'nccl', d.is_nccl_available())" 2>&1
  "$PY" -c "import torch, transformers, torchvision, timm; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'transformers', transformers.__version__, 'torchvision', torchvision.__version__, 'timm', timm.__version__)"
} > "$OUT/machine.txt" 2>&1

# expecttest (OpInfo imports it) from the carried wheels; into the venv, or beside it when the venv is read-only.
if ! "$PY" -c "import expecttest" 2>/dev/null; then
  if ! "$PY" -m pip install -q --no-index --no-deps .wheels/*.whl >> "$OUT/machine.txt" 2>&1; then
    "$PY" -m pip install -q --no-index --no-deps --target /tmp/fxray-wheels .wheels/*.whl >> "$OUT/machine.txt" 2>&1
    export PYTHONPATH=/tmp/fxray-wheels${PYTHONPATH:+:$PYTHONPATH}
  fi
fi
"$PY" -c "import expecttest; print('expecttest ok')" >> "$OUT/machine.txt" 2>&1

# Only the CLI target: the corpus needs nothing else, and a warm machine keeps the build for the next part.
# FXRAY_SKIP_BUILD=1: a caller built $BUILD_DIR already (parts running at once must not run ninja together).
source scripts/device_cli_build.sh
if [ -z "${FXRAY_SKIP_BUILD:-}" ]; then
  device_build_cli "$OUT/build.log" "${CMAKE_EXTRA[@]}" || { echo "build failed: $OUT/build.log"; exit 1; }
fi

# What the part has made so far, into $OUT: also run when the batch's deadline stops this script (SIGTERM).
collect_corpus() {
  cp "$CORPUS/table.txt" "$OUT/table-$PART.txt" 2>/dev/null
  cp "$CORPUS/summary.json" "$OUT/summary-$PART.json" 2>/dev/null
  # Everything small enough to read later (not the dumps' tensors): reports, logs, capture records; the trace logs
  # in a tarball of their own, kept only under 12 MB: a returned file may be 16 MB at most, and device-batch.sh tars
  # this folder again (session 15 lost recipes3's whole logs.tgz, 29 MB, to that limit).
  (cd "$CORPUS" && find . -path ./traces -prune -o \( -name '*.json' -o -name '*.jsonl' -o -name '*.log' -o -name '*.txt' \) -print0 \
    | tar -czf "$OUT/corpus-$PART.tgz" --null -T -) 2>> "$OUT/build.log"
  # Tarred outside $OUT and moved in only when complete and small: session 16's batch deadline killed this tar half
  # way, and the partial 23 MB tarball in $OUT made the whole batch's logs.tgz too big to come back.
  if [ -d "$CORPUS/traces" ]; then
    local traces=/tmp/fxray-traces-$PART.tgz
    if tar -czf "$traces" -C "$CORPUS" traces 2>> "$OUT/build.log" && [ "$(stat -c %s "$traces")" -le 12000000 ]; then
      mv "$traces" "$OUT/traces-$PART.tgz"
    else
      echo "traces-$PART.tgz left out (over 12 MB or not finished); the logs stay in $CORPUS/traces while the machine is warm"
      rm -f "$traces"
    fi
  fi
  echo "corpus part '$PART': exit ${rc:-killed} after $(( $(date +%s) - T0 )) s; $OUT/table-$PART.txt"
}
trap 'echo "stopped after $(( $(date +%s) - T0 )) s"; collect_corpus; exit 143' TERM

echo "== corpus part '$PART' (built in $(( $(date +%s) - T0 )) s)"
# --skip-capture (in FXRAY_CORPUS_ARGS) replays what an earlier call on this warm machine captured.
[[ " ${FXRAY_CORPUS_ARGS:-} " == *" --skip-capture "* ]] || rm -rf "$CORPUS"
# Eight inductor compiles at once: two compile workers each, not one per core each.
TORCHINDUCTOR_COMPILE_THREADS=2 PYTHONUNBUFFERED=1 "$PY" tools/corpus/run_corpus.py --out "$CORPUS" --device "${FXRAY_CORPUS_DEVICE:-cuda}" --fxray "$BUILD_DIR/app/cli/fxray" \
  --size "${FXRAY_CORPUS_SIZE:-tiny}" --jobs "${FXRAY_CORPUS_JOBS:-8}" --replay-traces \
  --model-timeout "${FXRAY_CORPUS_MODEL_TIMEOUT:-300}" "${SELECT[@]}" \
  ${FXRAY_CORPUS_ARGS:-} > "$OUT/corpus-$PART.log" 2>&1
rc=$?
collect_corpus
head -n 30 "$OUT/table-$PART.txt" 2>/dev/null

if [ -n "${FXRAY_STAGE_COMPARE_UNTIL:-}" ] && [ -d "$CORPUS/traces" ]; then
  left=$(( FXRAY_STAGE_COMPARE_UNTIL - ($(date +%s) - T0) ))
  if [ "$left" -gt 30 ]; then
    echo "== stage compare of the part's traces through output_code ($left s left)"
    timeout -k 5 "$left" "$PY" tools/corpus/stage_compare_corpus.py "$CORPUS/traces" --fxray "$BUILD_DIR/app/cli/fxray" \
      --device "${FXRAY_CORPUS_DEVICE:-cuda}" --jobs "${FXRAY_STAGE_COMPARE_JOBS:-8}" --per-compile --timeout 300 --stage-timeout 120 \
      --json "$OUT/stages-$PART.json" --progress "$OUT/progress-$PART.jsonl" > "$OUT/stages-$PART.txt" 2>&1
    echo "stage compare: exit $? after $(( $(date +%s) - T0 )) s"
    cat "$OUT/stages-$PART.txt"
  else
    echo "stage compare skipped: $left s left"
  fi
fi
exit "$rc"
