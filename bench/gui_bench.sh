#!/usr/bin/env bash
# GUI open-to-first-paint benchmark (issue 4): the largest sample and generated 5,000- and 20,000-node graphs,
# each against Graphviz laying out all of its nodes, in one run.
#   bench/gui_bench.sh [build dir, default build-torch or build]
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
LARGEST="$ROOT/samples/h100/trace/mlp_encoder_inductor.log#1/0/aot_joint_graph"  # 193 nodes
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$TMP/config" "$BUILD/bench/fxray_bench_gui_open" \
  "$LARGEST" "$TMP/g5k/gen5k_forward_0" \
  "$TMP/g20k/gen20k_forward_0" 2> >(grep -v "propagateSizeHints\|XDG_RUNTIME" >&2)
