#!/usr/bin/env bash
# One corpus entry captured on the GPU machine and replayed there with its saved inputs against its eager outputs;
# the graph folders whose replay does not pass come back whole (tensors included, tarred, at most 12 MB), so that a
# fault seen only on CUDA can be studied on a CPU machine (session 17's t5.flex_forward_2: 4 outputs differed from
# eager and the dump never came home).
#   scripts/entry-dumps-device.sh MODEL [RECIPE]     e.g. scripts/entry-dumps-device.sh t5 flex
# Environment: FXRAY_PYTHON, FXRAY_BUILD_DIR (as corpus-device.sh), FXRAY_SKIP_BUILD=1, FXRAY_ENTRY_TIMEOUT (capture,
# seconds, default 240). Writes into $OUT: capture-*.log, replay-*.json (every report), dumps-*.tgz (failing graphs).
set -uo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:?usage: entry-dumps-device.sh MODEL [RECIPE]}
RECIPE=${2:-plain}
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
source scripts/device_cli_build.sh
if [ -z "${FXRAY_SKIP_BUILD:-}" ]; then
  device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; exit 1; }
fi
ENTRY=$MODEL-$RECIPE
DIR=/tmp/fxray-entry-$ENTRY
rm -rf "$DIR"
timeout -k 5 "${FXRAY_ENTRY_TIMEOUT:-240}" "$PY" tools/corpus/capture_model.py --model "$MODEL" --recipe "$RECIPE" \
  --device cuda --out "$DIR" > "$OUT/capture-$ENTRY.log" 2>&1
echo "capture $ENTRY: exit $?"
"$BUILD_DIR/app/cli/fxray" replay "$DIR/dumps" --json --device cuda --inputs saved --expected auto \
  > "$OUT/replay-$ENTRY.json" 2> "$OUT/replay-$ENTRY.err"
rc=$?
echo "replay: exit $rc"
# 0: every graph passed, 1: some did not; anything else (no fxray, a crash of the CLI): no reports to read.
if [ "$rc" -gt 1 ] || [ ! -s "$OUT/replay-$ENTRY.json" ]; then
  echo "no replay reports (exit $rc): see $OUT/replay-$ENTRY.err"
  exit 1
fi
# The folders (relative to $DIR) of every report that did not pass.
"$PY" - "$OUT/replay-$ENTRY.json" "$DIR" > /tmp/fxray-failing-$ENTRY.txt <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for r in d.get("reports", [d]):
    if r.get("verdict") != "pass":
        path = r.get("address") or r.get("path") or ""
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        print(os.path.relpath(folder, sys.argv[2]), r.get("verdict"), file=sys.stderr)
        print(os.path.relpath(folder, sys.argv[2]))
PY
if [ -s /tmp/fxray-failing-$ENTRY.txt ]; then
  tar -czf /tmp/fxray-dumps-$ENTRY.tgz -C "$DIR" -T /tmp/fxray-failing-$ENTRY.txt
  if [ "$(stat -c %s /tmp/fxray-dumps-$ENTRY.tgz)" -le 12000000 ]; then
    mv /tmp/fxray-dumps-$ENTRY.tgz "$OUT/dumps-$ENTRY.tgz"
  else
    echo "dumps-$ENTRY.tgz over 12 MB: left out"
  fi
else
  echo "every graph of $ENTRY passed"
fi
