#!/usr/bin/env bash
# Issue 24's last goal (embed_ce forward's checked CUDA graph <= 1.3x its unchecked one) on the GPU machine, in one
# device call (~7 min):
#   1. scripts/fused-stats-device.sh without its bench: builds fxray and fused_stats_test, checks the statistics kernel
#      against ATen (every dtype, strided, inside a CUDA graph), and the planted NaN named by the checked CUDA graph;
#   2. bench/stats_probe.cu (nvcc alone), built from this tree and, when .devscratch/before holds another version of
#      the kernel and the probe (carried to the machine), from that one too: the statistics launch's variants timed
#      inside a CUDA graph (what each adds to a compute-only graph), registers and code size. To compare with an
#      earlier kernel: git archive REV bench/stats_probe.cu core/replay/values/stats_kernel.cu \
#      core/replay/values/stats_kernel.h | tar -x -C .devscratch/before, and pass carry [".devscratch/before"];
#   3. scripts/replay-bench-device.sh on the built fxray: the 8 bench graphs' checked replay against eager, and their
#      checked CUDA graphs against the unchecked ones (issue 24's two speed goals);
#   4. Nsight Compute where it can read the GPU's counters (the H100 machines; not gVisor's H200s): each probe
#      variant's kernel duration, and every kernel of fxray's checked replay of embed_ce forward.
#   5. tests/cuda/test_cuda_graph_cuda.py, as the call's time allows.
# Writes $OUT/ncu.log (everything), $OUT/summary.txt and $OUT/logs.tgz (the rest).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
LOGS=$(mktemp -d)
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
export FXRAY_PYTHON=$PY FXRAY_BUILD_DIR=$BUILD_DIR
exec > >(tee "$OUT/ncu.log") 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); kernel $(uname -r); ncu: ${NCU:-not found}"

probe_build() {  # probe_build NAME INCLUDE_ROOT PROBE_SOURCE
  nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -lineinfo -I"$2/core" "$3" -o "/tmp/probe-$1" \
    >"$LOGS/probe-build-$1.log" 2>&1
  echo "probe $1: build exit $?" >>"$LOGS/probe-build-$1.log"
}
# Waited for by pid: a bare `wait` also waits for the tee of this script's own output, which never ends (bash >= 5.1
# waits for process substitutions too: the first run of this script hung there until the call's 10 minutes ran out).
probe_build after . bench/stats_probe.cu &
PROBE_PIDS=$!
PROBES="after"
if [ -f .devscratch/before/bench/stats_probe.cu ]; then
  probe_build before .devscratch/before .devscratch/before/bench/stats_probe.cu &
  PROBE_PIDS="$PROBE_PIDS $!"
  PROBES="before after"
fi

echo "== 1. build and correctness (fused-stats-device.sh, no bench)"
OUT=$LOGS FXRAY_FUSED_BENCH=0 FXRAY_FUSED_CLI_TESTS= bash scripts/fused-stats-device.sh >"$LOGS/fused.log" 2>&1
echo "fused-stats-device.sh: exit $?"
cp "$LOGS/summary.txt" "$OUT/summary.txt" 2>/dev/null
cat "$LOGS/summary.txt" 2>/dev/null
wait $PROBE_PIDS
cat "$LOGS"/probe-build-*.log

echo "== 2. probe: time added to a compute-only CUDA graph (5 interleaved rounds, us)"
for v in $PROBES; do
  [ -x "/tmp/probe-$v" ] || continue
  echo "-- kernel $v"
  "/tmp/probe-$v" 5
  echo "-- kernel $v: resources"
  cuobjdump --dump-resource-usage "/tmp/probe-$v" 2>&1 | grep -E "Function|REG" | sed 's/^[[:space:]]*//' | paste - - \
    | sed -E 's/Function ([^ ]{0,60})[^ ]*/\1/' | cut -c1-200
  cuobjdump -sass "/tmp/probe-$v" 2>/dev/null | awk '/Function :/ {name=substr($3, 1, 70)} /\/\*[0-9a-f]{4}\*\// {n[name]++} END {for (k in n) print "  sass instructions", n[k], k}' \
    | sort -k3 -rn | head -12
done

echo "== 3. replay bench on CUDA (scripts/replay-bench-device.sh: 30 runs, CUDA-graph columns in 2 rounds; no interpreted column)"
H100=samples/h100/dumps
mkdir -p "$LOGS/bench"
OUT=$LOGS/bench FXRAY_SKIP_BUILD=1 FXRAY_BENCH_BEFORE=0 FXRAY_BENCH_CG_ROUNDS=2 timeout 240 bash scripts/replay-bench-device.sh \
  >"$LOGS/bench/stdout.log" 2>&1
echo "replay-bench-device.sh: exit $?"
sed -n '/^graph /,$p' "$LOGS/bench/bench.log"
tail -2 "$LOGS/bench/nan_cuda_graph.log"

if [ -n "$NCU" ] && [ "$SECONDS" -lt 430 ]; then
  echo "== 4. ncu: probe kernels' durations on the GPU (no clock control; 8 + 2 + 40 replays of each variant)"
  for v in $PROBES; do
    [ -x "/tmp/probe-$v" ] || continue
    echo "-- kernel $v"
    timeout 60 "$NCU" --clock-control none --csv --page raw \
      --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread \
      -k regex:'fusedStats|f32Only|noMerge|nanCount|nanFlag|empty' "/tmp/probe-$v" 1 8 2>&1 | tee "$LOGS/ncu-probe-$v.csv" \
      | "$PY" -c "
import csv, sys
lines = [l for l in sys.stdin if l.startswith('\"')]
if not lines: print('  (ncu gave no rows: see ncu-probe csv in logs.tgz)'); sys.exit()
seen = {}
for r in csv.DictReader(lines):
    d = r.get('gpu__time_duration.sum', '').replace(',', '')
    if not r.get('Kernel Name') or not d.replace('.', '', 1).isdigit(): continue
    seen.setdefault(r['Kernel Name'].split('(')[0][:60] + ' grid ' + r['launch__grid_size'], []).append(float(d))
for k, v in seen.items():
    v.sort(); print(f'  {k:80s} n={len(v):3d} median {v[len(v)//2]:8.0f} ns  min {v[0]:8.0f} ns')
"
  done
  FXRAY=$BUILD_DIR/app/cli/fxray
  G=$H100/embed_ce/embed_ce_forward_0
  if [ -x "$FXRAY" ]; then
    echo "== 4b. ncu: every kernel of fxray's checked pass and CUDA-graph replays of embed_ce forward (first 40)"
    timeout 45 "$NCU" --clock-control none --csv --page raw --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size \
      -c 40 "$FXRAY" replay $G --device cuda --cuda-graph --repeat 3 --warmup 1 --in-process 2>&1 | tee "$LOGS/ncu-fxray.csv" \
      | "$PY" -c "
import csv, sys
lines = [l for l in sys.stdin if l.startswith('\"')]
for r in csv.DictReader(lines):
    d = r.get('gpu__time_duration.sum', '')
    if r.get('Kernel Name') and d[:1].isdigit():
        print(f\"  {d:>8} ns grid {r['launch__grid_size']:>5} x {r['launch__block_size']:>4}  {r['Kernel Name'][:100]}\")
"
    echo "== 4c. ncu --set full of fxray's statistics kernel (2 launches; key lines; whole report in logs.tgz)"
    timeout 45 "$NCU" --clock-control none --set full --print-details all -k regex:fusedStats -c 2 \
      "$FXRAY" replay $G --device cuda --cuda-graph --repeat 3 --warmup 1 --in-process >"$LOGS/ncu-stats-full.txt" 2>&1
    grep -E "Duration|Registers Per|Grid Size|Block Size|Achieved Occupancy|Stall|Warp Cycles Per Issued|Elapsed Cycles|Memory Throughput|L2 Hit|No Instruction|Executed Instructions " \
      "$LOGS/ncu-stats-full.txt" | head -60
  fi
fi
left=$(( 560 - SECONDS ))
if [ "$left" -gt 60 ] && [ -x "$BUILD_DIR/app/cli/fxray" ]; then
  echo "== 5. test_cuda_graph_cuda (${left} s left)"
  FXRAY_BIN="$BUILD_DIR/app/cli/fxray" FXRAY_SOURCE_DIR="$PWD" timeout "$left" "$PY" tests/cuda/test_cuda_graph_cuda.py \
    >"$LOGS/test_cuda_graph_cuda.log" 2>&1
  echo "test_cuda_graph_cuda: exit $? $(tail -1 "$LOGS/test_cuda_graph_cuda.log")"
fi
tar -czf "$OUT/logs.tgz" -C "$LOGS" . 2>/dev/null
echo "== done"
