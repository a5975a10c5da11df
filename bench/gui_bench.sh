#!/usr/bin/env bash
# GUI open-to-first-paint benchmark (issues 4, 17 and 23): the largest sample, generated graphs of 5,000 and 20,000
# nodes (statement blocks), 20,000 and 100,000 nodes whose blocks run the same source lines (the hierarchy from
# repeated structure folds them ×1,999 and ×9,999), and a 24-layer Qwen2 training step's joint graph with its
# node_meta.json and without it (seed layout), each against Graphviz laying out all of its nodes (graphs up to
# FXRAY_BENCH_DOT_MAX nodes, default 8,000), in one run. Per graph: first paint, code view filled, the longest
# GUI-thread stall while opening ("max blocked") and while opening the fold and expanding a block ("blocked after").
#   bench/gui_bench.sh [--before BENCH_BINARY] [build dir, default build-torch or build]
#   --before: a fxray_bench_gui_open of another build (e.g. the tree before a change) runs on every graph right
#   before this build's, so that both are measured under the same load (its fxray-layout: $FXRAY_BEFORE_LAYOUT, else
#   the one beside it as the GUI finds it).
#   FXRAY_BENCH_QWEN=<qwen2_joint_0 dump folder> reuses a capture; else it is captured first (a few minutes on a CPU:
#   tools/corpus/capture_model.py --model qwen2 --layers 24, which needs the venv with transformers)
#   FXRAY_BENCH_GRAPHS="g20ks g100ks ..." runs only those (names below).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BEFORE=""
if [[ "${1:-}" == "--before" ]]; then
  BEFORE="$2"
  shift 2
  [[ -x "$BEFORE" ]] || { echo "gui_bench: $BEFORE is not an executable" >&2; exit 2; }
fi
BUILD="${1:-}"
if [[ -z "$BUILD" ]]; then
  for d in build-torch build; do [[ -x "$ROOT/$d/bench/fxray_bench_gui_open" ]] && { BUILD="$ROOT/$d"; break; }; done
fi
[[ -x "$BUILD/bench/fxray_bench_gui_open" ]] || { echo "gui_bench: build fxray_bench_gui_open first" >&2; exit 2; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
WANT="${FXRAY_BENCH_GRAPHS:-largest g5k g20k g20ks g100ks qwen qwen_ns}"
wanted() { [[ " $WANT " == *" $1 "* ]]; }

declare -a NAMES PATHS
add() { NAMES+=("$1"); PATHS+=("$2"); }
wanted largest && add largest "$ROOT/samples/h100/trace/mlp_encoder_inductor.log#1/0/aot_joint_graph"  # 193 nodes
gen() {  # name, nodes, extra gen_graph.py flags
  local name="$1" nodes="$2"
  shift 2
  wanted "$name" || return 0
  python3 "$ROOT/bench/gen_graph.py" "$TMP/$name/${name}_forward_0" --nodes "$nodes" "$@" >/dev/null
  add "$name" "$TMP/$name/${name}_forward_0"
}
gen g5k 5000
gen g20k 20000
gen g20ks 20000 --source-lines
gen g100ks 100000 --source-lines
if wanted qwen || wanted qwen_ns; then
  QWEN="${FXRAY_BENCH_QWEN:-}"
  if [[ -z "$QWEN" ]]; then
    PY="${FXRAY_VENV:-$HOME/.cache/fxray/venv}/bin/python"
    "$PY" "$ROOT/tools/corpus/capture_model.py" --model qwen2 --layers 24 --out "$TMP/qwen24" >/dev/null
    QWEN="$TMP/qwen24/dumps/qwen2/qwen2_joint_0"
  fi
  if wanted qwen && [[ -f "$QWEN/node_meta.json" ]]; then
    add qwen "$QWEN"
  fi
  if wanted qwen_ns; then
    # The seed layout: what the seed's own dumper writes, no node_meta.json (the hierarchy comes from repeats).
    mkdir -p "$TMP/qwen_ns"
    cp -r "$QWEN" "$TMP/qwen_ns/qwen2_joint_0"
    rm -f "$TMP/qwen_ns/qwen2_joint_0/node_meta.json"
    add qwen_ns "$TMP/qwen_ns/qwen2_joint_0"
  fi
fi

run() {  # binary, layout program or "", path
  local bin="$1" layout="$2" path="$3"
  env QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$TMP/config" ${layout:+FXRAY_LAYOUT="$layout"} "$bin" "$path" \
    2> >(grep -v "propagateSizeHints\|XDG_RUNTIME" >&2)
}
header_done=0
for i in "${!NAMES[@]}"; do
  for side in before after; do
    if [[ "$side" == before ]]; then
      [[ -n "$BEFORE" ]] || continue
      out="$(run "$BEFORE" "${FXRAY_BEFORE_LAYOUT:-}" "${PATHS[$i]}")"
    else
      out="$(run "$BUILD/bench/fxray_bench_gui_open" "" "${PATHS[$i]}")"
    fi
    if [[ $header_done == 0 ]]; then
      printf '%-7s %s\n' side "$(head -1 <<<"$out")"
      header_done=1
    fi
    tail -n +2 <<<"$out" | sed "s|^${PATHS[$i]}|${NAMES[$i]}|" | while IFS= read -r line; do printf '%-7s %s\n' "$side" "$line"; done
  done
done
