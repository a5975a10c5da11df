#!/usr/bin/env bash
# Issue 24's batch goal on a CUDA machine: "1,000 OpInfo graphs on one GPU in < 60 s". Captures OpInfo graphs on
# CUDA (tools/corpus/capture_opinfo.py: op_db's first float32 sample per op, with grad and under no_grad: 1-4 graphs
# an op) until FXRAY_OPINFO_GRAPHS graphs (default 1000) or FXRAY_OPINFO_CAPTURE_S seconds (default 300), restarting
# after an op that kills the capture process, then times `fxray replay DUMPS --device cuda --json` over the whole
# folder: one worker for all graphs (a crash costs one graph, a fresh worker takes over).
# Prints graphs, wall seconds, graphs/s and the verdicts; exits non-zero when no graph was captured or replayed.
# Logs under $OUT: machine.txt, build.log, capture.log, progress.jsonl, replay.json, replay.log, summary.txt.
# Usage (repository root, GPU machine): OUT=/path/to/logs bash scripts/opinfo-batch-device.sh   (~6-9 minutes;
# give it the whole call: timeout 590 bash scripts/opinfo-batch-device.sh). Needs `expecttest` in FXRAY_PYTHON.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}
WANT=${FXRAY_OPINFO_GRAPHS:-1000}
CAPTURE_S=${FXRAY_OPINFO_CAPTURE_S:-300}
WORK=${FXRAY_OPINFO_DIR:-/tmp/fxray-opinfo-cuda}
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"

{
  date -u; nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.is_available())"
} 2>&1 | tee "$OUT/machine.txt"
if ! "$PY" -c "import expecttest, torch.testing._internal.common_methods_invocations" >>"$OUT/machine.txt" 2>&1; then
  echo "FAIL: $PY cannot import expecttest / torch's OpInfo database (pip install expecttest)" | tee -a "$SUMMARY"
  exit 1
fi

echo "== build fxray" | tee "$OUT/build.log"
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >>"$OUT/build.log" 2>&1 && ninja -C "$BUILD_DIR" fxray >>"$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; echo "FAIL: build" | tee -a "$SUMMARY"; exit 1; }
FXRAY="$BUILD_DIR/app/cli/fxray"

# Capture, one process per run of ops; an op that kills the process (its "start" has no "done") is skipped.
rm -rf "$WORK"
mkdir -p "$WORK"
count_graphs() { find "$WORK/dumps" -name module.py 2>/dev/null | wc -l; }
NOPS=$("$PY" -c "from torch.testing._internal.common_methods_invocations import op_db; print(len(op_db))" 2>/dev/null || echo 0)
deadline=$(( $(date +%s) + CAPTURE_S ))
next=0
while [ "$(date +%s)" -lt "$deadline" ] && [ "$(count_graphs)" -lt "$WANT" ]; do
  left=$(( deadline - $(date +%s) ))
  PYTHONUNBUFFERED=1 timeout "$left" "$PY" tools/corpus/capture_opinfo.py --out "$WORK" --device cuda \
    --start "$next" --stop $(( next + 40 )) >>"$OUT/capture.log" 2>&1
  rc=$?
  last=$("$PY" -c "import json,sys; L=[json.loads(l) for l in open(sys.argv[1])]; print(max(l['i'] for l in L) if L else -1)" \
    "$WORK/progress.jsonl" 2>/dev/null || echo -1)
  [ "$last" -lt "$next" ] && last=$next  # nothing recorded: skip the op it died on
  next=$(( last + 1 ))
  echo "capture: ops up to $last (rc=$rc), $(count_graphs) graphs" | tee -a "$OUT/capture.log"
  if [ "$rc" -eq 0 ] && [ "$next" -ge "$NOPS" ]; then break; fi
done
cp "$WORK/progress.jsonl" "$OUT/" 2>/dev/null
graphs=$(count_graphs)
echo "captured $graphs graphs from ops 0..$((next - 1)) in $(( CAPTURE_S - (deadline - $(date +%s)) )) s" | tee -a "$SUMMARY"
[ "$graphs" -gt 0 ] || { echo "FAIL: no graph captured (capture.log)" | tee -a "$SUMMARY"; exit 1; }

# The batch: every graph of the folder, one worker on the GPU.
start=$(date +%s%N)
timeout 240 "$FXRAY" replay "$WORK/dumps" --device cuda --json >"$OUT/replay.json" 2>"$OUT/replay.log"
rc=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))
"$PY" - "$OUT/replay.json" "$wall" "$rc" <<'EOF' | tee -a "$SUMMARY"
import collections, json, sys
try:
    reports = json.load(open(sys.argv[1]))
except Exception as e:  # noqa: BLE001 - a cut or crashed run is reported, not raised
    print(f"FAIL: replay.json unreadable ({e}); fxray exit {sys.argv[3]}: see replay.log")
    sys.exit(1)
reports = reports["reports"] if "reports" in reports else [reports]
wall = float(sys.argv[2]) / 1000
verdicts = collections.Counter(r.get("verdict", "fatal" if r.get("fatal") else "?") for r in reports)
print(f"fxray replay FOLDER --device cuda: {len(reports)} graphs in {wall:.1f} s wall = {len(reports) / wall:.1f} graphs/s "
      f"(goal: 1,000 in < 60 s), exit {sys.argv[3]}")
print("verdicts:", dict(verdicts.most_common()))
sys.exit(0 if reports else 1)
EOF
