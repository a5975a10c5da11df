#!/usr/bin/env bash
# Replays carried TORCH_TRACE logs on the GPU machine, without capturing again: a recipe part's traces brought home
# from an earlier call (corpus-device.sh's traces-PART.tgz), replayed after fixes made at home. Builds the CLI
# (device_cli_build.sh), replays every log's graphs on CUDA with random inputs (`fxray replay LOG --device cuda
# --json`, FXRAY_TRACE_JOBS at once) and stage-compares every compile through output_code
# (tools/corpus/stage_compare_corpus.py) until FXRAY_STAGE_COMPARE_UNTIL seconds after the start (default 540).
#
#   scripts/traces-device.sh TRACES.tgz     (the tarball holds traces/<model.recipe>/*.log; carry it in the tree,
#                                             untracked: never commit it)
# Writes under $OUT: build.log, replay.txt (a line per log: graphs, verdict counts; then the graphs that did not
# pass), stages.txt, stages.json, progress.jsonl.
set -uo pipefail
cd "$(dirname "$0")/.."
TARBALL=${1:?usage: scripts/traces-device.sh TRACES.tgz}
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$PY" ] || PY=python3
T0=$(date +%s)
WORK=/tmp/fxray-carried-traces
rm -rf "$WORK" && mkdir -p "$WORK" && tar -xzf "$TARBALL" -C "$WORK" || { echo "cannot unpack $TARBALL"; exit 1; }

source scripts/device_cli_build.sh
device_build_cli "$OUT/build.log" || { echo "build failed: $OUT/build.log"; exit 1; }
FXRAY="$BUILD_DIR/app/cli/fxray"
echo "== built in $(( $(date +%s) - T0 )) s"

find "$WORK" -name '*.log' | sort > "$WORK/logs.txt"
mkdir -p "$WORK/replays"
# One fxray process per log (its worker reused across the log's graphs), FXRAY_TRACE_JOBS logs at once.
xargs -a "$WORK/logs.txt" -P "${FXRAY_TRACE_JOBS:-8}" -I{} sh -c \
  'timeout 300 "$0" replay "$1" --device cuda --json > "$2/$(basename "$(dirname "$1")").json" 2> /dev/null' \
  "$FXRAY" {} "$WORK/replays"
"$PY" - "$WORK/replays" > "$OUT/replay.txt" <<'PYEOF'
import collections, json, os, sys
bad = []
total = collections.Counter()
for name in sorted(os.listdir(sys.argv[1])):
    try:
        d = json.load(open(os.path.join(sys.argv[1], name)))
    except ValueError:
        print(f"{name[:-5]:40s} no JSON (timed out or crashed)")
        continue
    reports = d.get("reports", [d])
    verdicts = collections.Counter(r["verdict"] for r in reports)
    total.update(verdicts)
    print(f"{name[:-5]:40s} {len(reports):4d} graphs  {dict(verdicts)}")
    bad += [(r["address"], r["verdict"], next((f"{n['name']}: {str(n.get('message') or n.get('mismatches'))[:200]}"
             for n in r["nodes"] if n["status"] not in ("passed", "skipped")), "")) for r in reports if r["verdict"] != "pass"]
print(f"total: {dict(total)}")
for a, v, why in bad:
    print(f"  {v:10s} {a.split('/traces/')[-1]}  {why}")
PYEOF
cat "$OUT/replay.txt" | head -40
echo "== trace replays done after $(( $(date +%s) - T0 )) s"

left=$(( ${FXRAY_STAGE_COMPARE_UNTIL:-540} - ($(date +%s) - T0) ))
if [ "$left" -gt 30 ]; then
  timeout -k 5 "$left" "$PY" tools/corpus/stage_compare_corpus.py "$WORK/traces" --fxray "$FXRAY" --device cuda \
    --jobs "${FXRAY_STAGE_COMPARE_JOBS:-8}" --per-compile --timeout 300 --stage-timeout 120 \
    --json "$OUT/stages.json" --progress "$OUT/progress.jsonl" > "$OUT/stages.txt" 2>&1
  echo "stage compare: exit $? after $(( $(date +%s) - T0 )) s"
  tail -25 "$OUT/stages.txt"
else
  echo "stage compare skipped: $left s left"
fi
