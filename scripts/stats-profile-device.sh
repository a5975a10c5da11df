#!/usr/bin/env bash
# Issue 24's last goal (embed_ce forward's checked CUDA graph <= 1.3x its unchecked one) on the GPU machine: where the
# captured value checks spend their time. Builds the CLI, then for each bench graph named in FXRAY_PROFILE_GRAPHS
# (default embed_ce forward and mlp forward):
#   - A/B of fxray's CUDA-graph replay, unchecked (--no-values) against checked, with the statistics rows in mapped
#     host memory (the default) and in device memory (FXRAY_STATS_MAPPED=0), ROUNDS interleaved rounds each;
#   - when Nsight Systems is on the machine: one profile of each, --cuda-graph-trace=node, and the kernels' summary
#     (the statistics kernel's own GPU time against the graph's other kernels).
# Writes $OUT/profile.log (and nsys reports when there). FXRAY_SKIP_BUILD=1: $BUILD_DIR is built already.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
ROUNDS=${FXRAY_PROFILE_ROUNDS:-3}
exec > >(tee "$OUT/profile.log") 2>&1
source scripts/device_cli_build.sh
if [ -z "${FXRAY_SKIP_BUILD:-}" ]; then
  device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; exit 1; }
fi
FXRAY=$BUILD_DIR/app/cli/fxray
H100=samples/h100/dumps
GRAPHS=${FXRAY_PROFILE_GRAPHS:-$H100/embed_ce/embed_ce_forward_0 $H100/mlp/mlp_forward_0}

echo "== cuda graph replays, unchecked vs checked (30 timed after 6 warm-up; medians of synchronised replays, back-to-back means)"
for g in $GRAPHS; do
  for round in $(seq "$ROUNDS"); do
    for variant in unchecked checked checked-device-rows; do
      args=(--cuda-graph --repeat 30 --warmup 6 --device cuda --in-process --json)
      envs=()
      [ "$variant" = unchecked ] && args+=(--no-values)
      [ "$variant" = checked-device-rows ] && envs=(FXRAY_STATS_MAPPED=0)
      env "${envs[@]}" "$FXRAY" replay "$g" "${args[@]}" 2>/dev/null | "$PY" -c "
import json, sys
r = json.load(sys.stdin); cg = r.get('cuda_graph', {})
print(f\"$(basename "$g") round $round $variant: {cg.get('status')} sync {cg.get('replay_median_us', 0):.1f} us, b2b {cg.get('replay_back_to_back_us', 0):.1f} us\")"
    done
  done
done

NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
echo "== nsys: ${NSYS:-not found}"
if [ -n "$NSYS" ]; then
  for g in $GRAPHS; do
    for variant in unchecked checked; do
      name=$(basename "$g")-$variant
      args=(--cuda-graph --repeat 200 --warmup 6 --device cuda --in-process)
      [ "$variant" = unchecked ] && args+=(--no-values)
      timeout 120 "$NSYS" profile -q -t cuda --cuda-graph-trace=node -o "/tmp/prof-$name" -f true "$FXRAY" replay "$g" "${args[@]}" > /dev/null 2>&1
      echo "-- $name: kernels (the 200 timed replays and the 200 back-to-back ones dominate)"
      timeout 120 "$NSYS" stats -q --report cuda_gpu_kern_sum --format csv "/tmp/prof-$name.nsys-rep" 2>&1 \
        | "$PY" -c "
import csv, sys
rows = list(csv.DictReader(l for l in sys.stdin if l.strip() and not l.startswith('Processing') and not l.startswith('NOTICE')))
for r in rows[:14]:
    print(f\"  {float(r.get('Avg (ns)', 0)):9.0f} ns avg  {int(r.get('Instances', 0)):6d}x  {r.get('Name', '')[:110]}\")" || echo "  (no summary)"
      # The last replays' kernels one after the other: the gaps between them are launch latency inside the graph.
      timeout 120 "$NSYS" stats -q --report cuda_gpu_trace --format csv "/tmp/prof-$name.nsys-rep" 2>/dev/null \
        | "$PY" -c "
import csv, sys
rows = list(csv.DictReader(l for l in sys.stdin if l.strip() and not l.startswith('Processing') and not l.startswith('NOTICE')))
rows = [r for r in rows if r.get('Name')]
tail = rows[-24:]
prev = None
for r in tail:
    s, d = int(r['Start (ns)']), int(r['Duration (ns)'])
    gap = '' if prev is None else f'gap {s - prev:6d} ns'
    print(f'  {d:7d} ns  {gap:>14}  {r[\"Name\"][:90]}')
    prev = s + d" || echo "  (no trace)"
    done
  done
fi
echo "== done"
