#!/usr/bin/env bash
# Stage compare through output_code of every corpus model on this machine's CPU (issue 27's CPU figure): for each
# model, its inductor TORCH_TRACE of the plain recipe (training step + bf16 inference, dropout on, C++ kernels), then
# tools/corpus/stage_compare_corpus.py --per-compile over that log; FXRAY_CPU_CORPUS_JOBS models at once (default 2:
# one a core on the 2-core CI machine, ~64 min for all 21). Each model's compare starts as soon as its trace is
# written, and each compile's verdict lands in progress.jsonl as it ends, so a stopped run still says what it did.
#   scripts/stages-cpu-corpus.sh OUT_DIR [model ...]     (default: every model of tools/corpus/models.py)
# OUT_DIR gets traces/<model>/, stages/<model>.{txt,json}, logs/<model>.trace.log, timeline.txt, progress.jsonl.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:?usage: scripts/stages-cpu-corpus.sh OUT_DIR [model ...]}"); shift
PY=${FXRAY_PYTHON:-$HOME/.cache/fxray/venv/bin/python}
FXRAY=$(realpath "${FXRAY_BIN:-build/app/cli/fxray}")
mkdir -p "$OUT"/{traces,models,logs,stages}
models=("$@")
((${#models[@]})) || mapfile -t models < <(cd tools/corpus && "$PY" -c "import models; print('\n'.join(models.MODELS))")

one() {  # one model: its trace, then its compare
  local m=$1 s
  s=$(date +%s)
  TORCHINDUCTOR_COMPILE_THREADS=1 TORCH_TRACE="$OUT/traces/$m" timeout 600 "$PY" tools/corpus/capture_model.py --model "$m" \
    --out "$OUT/models/$m" --mode trace --device cpu >"$OUT/logs/$m.trace.log" 2>&1
  echo "$m trace rc=$? $(( $(date +%s) - s )) s" >>"$OUT/timeline.txt"
  s=$(date +%s)
  timeout 1500 "$PY" tools/corpus/stage_compare_corpus.py "$OUT/traces/$m" --fxray "$FXRAY" --device cpu --per-compile \
    --jobs 1 --timeout 900 --stage-timeout 300 --json "$OUT/stages/$m.json" --progress "$OUT/progress.jsonl" \
    >"$OUT/stages/$m.txt" 2>&1
  echo "$m compare rc=$? $(( $(date +%s) - s )) s" >>"$OUT/timeline.txt"
}
export -f one
export OUT PY FXRAY
printf '%s\n' "${models[@]}" | xargs -P "${FXRAY_CPU_CORPUS_JOBS:-2}" -I{} bash -c 'one {}'
for f in "$OUT"/stages/*.txt; do grep "^total" "$f" | sed "s|^total|$(basename "$f" .txt)|"; done
