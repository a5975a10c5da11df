#!/usr/bin/env bash
# GUI open-to-first-paint benchmark (issues 4 and 17): the largest sample, generated 5,000- and 20,000-node graphs
# (the 20,000-node one also with module scopes: ~2,000 identical layers), and a 24-layer Qwen2 training step's joint
# graph with its node_meta.json (module hierarchy: first paint, opening the ×24 fold, expanding one layer), each
# against Graphviz laying out all of its nodes, in one run.
#   bench/gui_bench.sh [build dir, default build-torch or build]
#   FXRAY_BENCH_QWEN=<qwen2_joint_0 dump folder> reuses a capture; else it is captured first (a few minutes on a CPU:
#   tools/corpus/capture_model.py --model qwen2 --layers 24, which needs the venv with transformers)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-}"
if [[ -z "$BUILD" ]]; then
  for d in build-torch build; do [[ -x "$ROOT/$d/bench/fxray_bench_gui_open" ]] && { BUILD="$ROOT/$d"; break; }; done
fi
[[ -x "$BUILD/bench/fxray_bench_gui_open" ]] || { echo "gui_bench: build fxray_bench_gui_open first" >&2; exit 2; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
python3 "$ROOT/bench/gen_graph.py" "$TMP/g5k/gen5k_forward_0" --nodes 5000 >/dev/null
python3 "$ROOT/bench/gen_graph.py" "$TMP/g20k/gen20k_forward_0" --nodes 20000 >/dev/null
python3 "$ROOT/bench/gen_graph.py" "$TMP/g20km/gen20km_forward_0" --nodes 20000 --modules >/dev/null
QWEN="${FXRAY_BENCH_QWEN:-}"
if [[ -z "$QWEN" ]]; then
  PY="${FXRAY_VENV:-$HOME/.cache/fxray/venv}/bin/python"
  "$PY" "$ROOT/tools/corpus/capture_model.py" --model qwen2 --layers 24 --out "$TMP/qwen24" >/dev/null
  QWEN="$TMP/qwen24/dumps/qwen2/qwen2_joint_0"
fi
LARGEST="$ROOT/samples/h100/trace/mlp_encoder_inductor.log#1/0/aot_joint_graph"  # 193 nodes
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$TMP/config" "$BUILD/bench/fxray_bench_gui_open" \
  "$LARGEST" "$TMP/g5k/gen5k_forward_0" \
  "$TMP/g20k/gen20k_forward_0" "$TMP/g20km/gen20km_forward_0" "$QWEN" 2> >(grep -v "propagateSizeHints\|XDG_RUNTIME" >&2)
