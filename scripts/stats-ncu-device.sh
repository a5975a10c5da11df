#!/usr/bin/env bash
# Issue 24's last goal (embed_ce forward's checked CUDA graph <= 1.3x its unchecked one) on the GPU machine, with
# Nsight Compute (ncu; the H100 machines run it, the gVisor H200s cannot read its counters):
#   1. bench/stats_probe.cu (nvcc alone): the statistics launch's variants timed inside a CUDA graph (what each adds to a
#      compute-only graph), its registers and code size;
#   2. ncu on the probe: each variant's kernel duration on the GPU, launch size, registers;
#   3. ncu --set full on the real statistics kernel of fxray's checked CUDA-graph replay of embed_ce forward, and the
#      duration of every kernel of that graph.
# Writes $OUT/ncu.log, $OUT/ncu-stats-full.txt, $OUT/build.log. FXRAY_SKIP_BUILD=1: $BUILD_DIR is built already.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
exec > >(tee "$OUT/ncu.log") 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); ncu: ${NCU:-not found}"

echo "== probe build (nvcc)"
PROBE=/tmp/stats_probe
( nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -lineinfo -Icore bench/stats_probe.cu -o $PROBE \
    > /tmp/probe-build.log 2>&1; echo "probe build exit $?" >> /tmp/probe-build.log ) &
probe_pid=$!
source scripts/device_cli_build.sh
if [ -z "${FXRAY_SKIP_BUILD:-}" ]; then
  device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; }
fi
wait $probe_pid
cat /tmp/probe-build.log

if [ -x $PROBE ]; then
  echo "== probe: time added to a compute-only CUDA graph (5 interleaved rounds)"
  $PROBE 5
  echo "== registers, stack, shared memory per kernel"
  cuobjdump --dump-resource-usage $PROBE 2>&1 | grep -E "Function|REG" | sed 's/^[[:space:]]*//' | paste - - | cut -c1-220
  echo "== SASS instructions per kernel"
  cuobjdump -sass $PROBE 2>/dev/null | awk '/Function :/ {name=$3} /\/\*[0-9a-f]{4}\*\// {n[name]++} END {for (k in n) print n[k], k}' \
    | sort -rn | head -20
  if [ -n "$NCU" ]; then
    echo "== ncu: probe kernels (duration on the GPU, no clock control; 8 + 2 + 40 replays of each variant)"
    timeout 240 "$NCU" --clock-control none --csv --page raw \
      --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread \
      -k regex:'fusedStats|f32Only|noMerge|nanCount|nanFlag|empty' $PROBE 1 8 2>&1 \
      | "$PY" -c "
import csv, sys
rows = [r for r in csv.DictReader(l for l in sys.stdin if l.startswith('\"'))]
rows = [r for r in rows if r.get('Kernel Name') and r.get('gpu__time_duration.sum', '').replace('.', '', 1).replace(',', '').isdigit()]
seen = {}
for r in rows:
    name = r['Kernel Name'].split('(')[0][:60]
    seen.setdefault(name + ' grid ' + r['launch__grid_size'], []).append(float(r['gpu__time_duration.sum'].replace(',', '')))
for k, v in seen.items():
    v.sort()
    print(f'  {k:80s} n={len(v):3d} median {v[len(v)//2]:8.0f} ns  min {v[0]:8.0f} ns')
"
  fi
fi

FXRAY=$BUILD_DIR/app/cli/fxray
G=samples/h100/dumps/embed_ce/embed_ce_forward_0
if [ -x "$FXRAY" ] && [ -n "$NCU" ]; then
  echo "== fxray checked CUDA-graph replay of embed_ce forward: every kernel's duration (ncu, graph nodes one by one)"
  timeout 200 "$NCU" --clock-control none --csv --page raw --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size \
    -c 60 "$FXRAY" replay $G --device cuda --cuda-graph --repeat 3 --warmup 1 --in-process 2>&1 \
    | "$PY" -c "
import csv, sys
rows = [r for r in csv.DictReader(l for l in sys.stdin if l.startswith('\"'))]
for r in rows:
    if r.get('Kernel Name') and r.get('gpu__time_duration.sum', '')[:1].isdigit():
        print(f\"  {r['gpu__time_duration.sum']:>8} ns grid {r['launch__grid_size']:>5} x {r['launch__block_size']:>4}  {r['Kernel Name'][:100]}\")
" | tail -40
  echo "== ncu --set full of fxray's statistics kernel (2 launches) -> ncu-stats-full.txt"
  timeout 200 "$NCU" --clock-control none --set full --print-details all -k regex:fusedStats -c 2 \
    "$FXRAY" replay $G --device cuda --cuda-graph --repeat 3 --warmup 1 --in-process > "$OUT/ncu-stats-full.txt" 2>&1
  grep -E "Duration|Registers Per|Grid Size|Block Size|Achieved Occupancy|Stall|Warp Cycles Per Issued|Elapsed Cycles|Memory Throughput|L2 Hit" \
    "$OUT/ncu-stats-full.txt" | head -60
fi
echo "== done"
