#!/usr/bin/env bash
# Runs several device scripts in one call of the GPU machine, each with its own log folder, and tars them all into
# $OUT/logs.tgz (a call brings back at most 8 files). Usage: scripts/device-batch.sh NAME=SCRIPT [ARGS]... ,
#   e.g. scripts/device-batch.sh dist=scripts/distributed-device.sh oc=scripts/output-code-cuda.sh
# Each script's last lines are printed; FXRAY_BUILD_DIR is shared so later scripts reuse the first one's build.
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL=${OUT:-$PWD/device-logs}
mkdir -p "$FINAL"
LOGS=$(mktemp -d /tmp/fxray-device-batch-XXXXXX)
export FXRAY_BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-dist-build}
status=0
for job in "$@"; do
  name=${job%%=*}
  cmd=${job#*=}
  mkdir -p "$LOGS/$name"
  start=$(date +%s)
  OUT="$LOGS/$name" bash $cmd >"$LOGS/$name/run.log" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || status=$rc
  echo "== $name: rc=$rc, $(( $(date +%s) - start )) s"
  tail -15 "$LOGS/$name/run.log"
done
tar czf "$FINAL/logs.tgz" -C "$LOGS" .
exit "$status"
