#!/usr/bin/env bash
# Issue 24's last goal on the GPU machine, in one device call (~9 min): a checked CUDA graph <= 1.3x the unchecked one,
# with the captured value checks turned into NaN/Inf presence checks for the timed replays.
#   1. scripts/fused-stats-device.sh without its bench: builds fxray and fused_stats_test, checks the statistics kernel
#      against ATen (every dtype, strided, in a CUDA graph, and the presence kernel swapped into one), rows mapped and
#      in device memory, and the planted NaN named by the checked CUDA graph;
#   2. embed_ce forward (the graph that missed the goal), interleaved rounds of --cuda-graph --repeat 300 with value
#      checks off (--no-values), presence checks in the timed replays (the default) and full statistics on every
#      replay (FXRAY_STATS_PRESENCE=0): replay medians and back-to-back means, and their ratios to the unchecked;
#   2b. bench/stats_probe.cu: the statistics launch's variants in a stand-in graph, the presence swap as shipped last;
#   3. tests/cuda/test_cuda_graph_cuda.py (a NaN only some replays make, named through presence checks);
#   4. scripts/replay-bench-device.sh on the built fxray, as the call's time allows: the 8 bench graphs.
# Writes $OUT/presence.log (everything), $OUT/summary.txt and $OUT/logs.tgz (the rest).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
LOGS=$(mktemp -d)
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
export FXRAY_PYTHON=$PY FXRAY_BUILD_DIR=$BUILD_DIR
exec >"$OUT/presence.log" 2>&1
echo "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

# The probe (nvcc alone) builds beside step 1, waited for by its pid (as scripts/stats-ncu-device.sh learned to).
nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Icore bench/stats_probe.cu -o /tmp/stats_probe \
  >"$LOGS/probe-build.log" 2>&1 &
PROBE_PID=$!

echo "== 1. build and correctness (fused-stats-device.sh, no bench)"
OUT=$LOGS FXRAY_FUSED_BENCH=0 FXRAY_FUSED_CLI_TESTS= bash scripts/fused-stats-device.sh >"$LOGS/fused.log" 2>&1
echo "fused-stats-device.sh: exit $?"
cp "$LOGS/summary.txt" "$OUT/summary.txt" 2>/dev/null
cat "$LOGS/summary.txt" 2>/dev/null
grep -E "^FAIL|presence graph" "$LOGS/fused_test.log" | head -20
FXRAY="$BUILD_DIR/app/cli/fxray"

echo "== 2. embed_ce forward: checked CUDA graph, presence vs full statistics (3 interleaved rounds, 300 replays)"
G=samples/h100/dumps/embed_ce/embed_ce_forward_0
figures() {  # figures LABEL JSON
  "$PY" - "$1" "$2" <<'PYEOF'
import json, sys
cg = json.load(open(sys.argv[2]))["cuda_graph"]
vc = cg.get("value_checks") or {}
print(f"{sys.argv[1]:>9}: median {cg['replay_median_us']:.1f} us  back to back {cg['replay_back_to_back_us']:.1f} us  "
      f"status {cg['status']}  replays read {vc.get('replays')} (presence {vc.get('presence_replays')})  "
      f"rows differ {(vc.get('rows_vs_pass') or {}).get('differ')}  note {vc.get('note')}")
PYEOF
}
for round in 1 2 3; do
  "$FXRAY" replay $G --device cuda --cuda-graph --repeat 300 --in-process --json --no-values >"$LOGS/ab_none_$round.json" 2>>"$LOGS/ab.err"
  figures unchecked "$LOGS/ab_none_$round.json"
  "$FXRAY" replay $G --device cuda --cuda-graph --repeat 300 --in-process --json >"$LOGS/ab_presence_$round.json" 2>>"$LOGS/ab.err"
  figures presence "$LOGS/ab_presence_$round.json"
  FXRAY_STATS_PRESENCE=0 "$FXRAY" replay $G --device cuda --cuda-graph --repeat 300 --in-process --json \
    >"$LOGS/ab_full_$round.json" 2>>"$LOGS/ab.err"
  figures full "$LOGS/ab_full_$round.json"
done
"$PY" - "$LOGS" <<'PYEOF'
import glob, json, statistics, sys
def med(kind, key):
    return statistics.median(json.load(open(p))["cuda_graph"][key] for p in sorted(glob.glob(f"{sys.argv[1]}/ab_{kind}_*.json")))
for key in ("replay_median_us", "replay_back_to_back_us"):
    base = med("none", key)
    print(f"{key}: unchecked {base:.1f} us; presence {med('presence', key):.1f} us = {med('presence', key) / base:.2f}x; "
          f"full {med('full', key):.1f} us = {med('full', key) / base:.2f}x (medians of 3 rounds)")
PYEOF
tail -3 "$LOGS/ab.err"

echo "== 2b. bench/stats_probe.cu: what each statistics variant adds to embed_ce forward's stand-in graph (5 rounds)"
wait $PROBE_PID
echo "probe build: exit $?"
[ -x /tmp/stats_probe ] && timeout 120 /tmp/stats_probe 5

echo "== 3. tests/cuda/test_cuda_graph_cuda.py"
FXRAY_BIN=$FXRAY FXRAY_SOURCE_DIR=$PWD timeout 200 "$PY" tests/cuda/test_cuda_graph_cuda.py >"$LOGS/test_cuda_graph_cuda.log" 2>&1
echo "test_cuda_graph_cuda.py: exit $?"
grep -vE "^\s*$" "$LOGS/test_cuda_graph_cuda.log" | tail -25

left=$((560 - SECONDS))
echo "== 4. replay bench ($left s left)"
if [ "$left" -gt 150 ]; then
  mkdir -p "$LOGS/bench"
  OUT=$LOGS/bench FXRAY_SKIP_BUILD=1 FXRAY_BENCH_BEFORE=0 FXRAY_BENCH_CG_ROUNDS=2 timeout $((left - 15)) \
    bash scripts/replay-bench-device.sh >"$LOGS/bench/stdout.log" 2>&1
  echo "replay-bench-device.sh: exit $?"
  sed -n '/^graph /,$p' "$LOGS/bench/bench.log"
  tail -2 "$LOGS/bench/nan_cuda_graph.log"
fi
tar -czf "$OUT/logs.tgz" -C "$LOGS" . 2>/dev/null
echo "== done in $SECONDS s"
