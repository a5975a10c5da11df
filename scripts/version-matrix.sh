#!/usr/bin/env bash
# The torch version matrix (issue 25): fxray built against each torch, the corpus CI slice captured and replayed with
# each, and every version's dumps replayed by every other version's fxray. Writes ROOT/version-matrix.md (the
# README's table) and a log per step under ROOT.
#   scripts/version-matrix.sh [ROOT]       (default ~/.cache/fxray/matrix; venvs, builds and corpora live there)
#   FXRAY_MATRIX_VERSIONS   torch versions (default "2.9.1 2.10.0 2.11.0")
#   FXRAY_MATRIX_INDEX      pip index for torch and torchvision (default: PyPI, whose Linux wheels are CUDA builds,
#                           ~3 GB a venv with their nvidia-* packages; they run on the CPU too). PyTorch's own CPU
#                           index (https://download.pytorch.org/whl/cpu, ~200 MB) where a machine may reach it.
#   FXRAY_MATRIX_REUSE_VENV a venv whose torch is one of the versions is used for it instead of a new one
#                           (default ~/.cache/fxray/venv, fxray's own)
#   FXRAY_MATRIX_DEVICE     cpu | cuda: run_corpus.py --device (default cpu)
# Cost: per version a venv (torch + torchvision + timm + transformers), a build of fxray's CLI and replay module
# against it (no GUI, no tests: ~15-25 min on 2 cores, LibTorch's headers differ per version so ccache helps little)
# and the CI slice (~3 min captured + replayed); then N*(N-1) cross replays (~1 min each). About 1.5 h for three
# versions on 2 cores; needs network for the wheels.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
ROOT=${1:-$HOME/.cache/fxray/matrix}
VERSIONS=(${FXRAY_MATRIX_VERSIONS:-2.9.1 2.10.0 2.11.0})
INDEX=${FXRAY_MATRIX_INDEX:-}
index_args=(); [ -n "$INDEX" ] && index_args=(--index-url "$INDEX")
REUSE_VENV=${FXRAY_MATRIX_REUSE_VENV:-$HOME/.cache/fxray/venv}
DEVICE=${FXRAY_MATRIX_DEVICE:-cpu}
BASE_PYTHON=${FXRAY_PYTHON:-python3}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/fxray/ccache}
say() { printf '[matrix] %s\n' "$*"; }
mkdir -p "$ROOT"

venv_of() { echo "$ROOT/venv-$1"; }
build_of() { echo "$ROOT/build-$1"; }

for v in "${VERSIONS[@]}"; do
  venv=$(venv_of "$v")
  if [ ! -e "$venv" ] && "$REUSE_VENV/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$v')" 2>/dev/null; then
    ln -s "$REUSE_VENV" "$venv"  # the version fxray's own venv already holds
  fi
  if ! "$venv/bin/python" -c "import torch, torchvision, timm, transformers, expecttest, sys; sys.exit(torch.__version__.split('+')[0] != '$v')" 2>/dev/null; then
    say "venv for torch $v: $venv"
    "$BASE_PYTHON" -m venv "$venv"
    echo "torch==$v" >"$ROOT/constraints-$v.txt"  # nothing below may move torch
    "$venv/bin/python" -m pip install -q "torch==$v" "${index_args[@]}" >"$ROOT/pip-$v.log" 2>&1
    # torchvision: the release built for this torch, from the same index; the rest from PyPI, torch held.
    "$venv/bin/python" -m pip install -q torchvision "${index_args[@]}" -c "$ROOT/constraints-$v.txt" >>"$ROOT/pip-$v.log" 2>&1
    "$venv/bin/python" -m pip install -q timm transformers expecttest pytest numpy "scikit-build-core>=1.1" \
      -c "$ROOT/constraints-$v.txt" >>"$ROOT/pip-$v.log" 2>&1
  fi
  build=$(build_of "$v")
  say "building fxray against torch $v: $build"
  cmake -S "$SRC" -B "$build" -G Ninja -DFXRAY_PYTHON="$venv/bin/python" -DFXRAY_GUI=OFF -DBUILD_TESTING=OFF \
    -DFXRAY_BENCH=OFF >"$ROOT/configure-$v.log" 2>&1 || { tail -30 "$ROOT/configure-$v.log"; exit 1; }
  ninja -C "$build" fxray fxray_cli_torch >"$ROOT/build-$v.log" 2>&1 || { tail -30 "$ROOT/build-$v.log"; exit 1; }
  "$build/app/cli/fxray" --version | sed 's/^/  /'
  say "CI slice with torch $v (captured and replayed by it)"
  rm -rf "$ROOT/corpus-$v"
  "$venv/bin/python" tools/corpus/run_corpus.py --slice ci --device "$DEVICE" --out "$ROOT/corpus-$v" \
    --fxray "$build/app/cli/fxray" >"$ROOT/corpus-$v.log" 2>&1 || say "  slice exited $? (see $ROOT/corpus-$v.log)"
done

# Cross: the dumps version A captured, replayed by version B's fxray (run_corpus --skip-capture on a copy).
for a in "${VERSIONS[@]}"; do
  for b in "${VERSIONS[@]}"; do
    [ "$a" = "$b" ] && continue
    out="$ROOT/cross-$a-by-$b"
    rm -rf "$out" && cp -r "$ROOT/corpus-$a" "$out"
    say "dumps of torch $a replayed by fxray built against $b"
    "$(venv_of "$b")/bin/python" tools/corpus/run_corpus.py --slice ci --device "$DEVICE" --out "$out" --skip-capture \
      --fxray "$(build_of "$b")/app/cli/fxray" >"$out.log" 2>&1 || say "  exited $? (see $out.log)"
  done
done

# The table: one row per (captured by, replayed by), from each run's summary.json totals.
"$BASE_PYTHON" - "$ROOT" "${VERSIONS[@]}" <<'PY'
import json, os, sys
root, versions = sys.argv[1], sys.argv[2:]
rows = ["| captured by | replayed by | graphs captured / lost | loaded | trace records loaded | saved inputs: clean / = eager "
        "| random inputs clean | fxray crashes |", "|---|---|---|---|---|---|---|---|"]
for a in versions:
    for b in versions:
        d = os.path.join(root, f"corpus-{a}" if a == b else f"cross-{a}-by-{b}", "summary.json")
        try:
            t = json.load(open(d))["totals"]
        except (OSError, ValueError, KeyError) as e:
            rows.append(f"| {a} | {b} | no summary ({type(e).__name__}: see the logs) | | | | | |")
            continue
        rows.append(f"| {a} | {b} | {t['captured']} / {t['lost']} | {t['loaded']} | {t['trace_loaded']} / {t['trace_records']} "
                    f"| {t['saved_clean']} / {t['equal']} of {t['saved']} | {t['random_clean']} / {t['random']} | {t['fxray_crashes']} |")
text = "\n".join(rows) + "\n"
open(os.path.join(root, "version-matrix.md"), "w").write(text)
print(text)
PY
