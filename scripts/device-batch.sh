#!/usr/bin/env bash
# Runs several device scripts in one call of the GPU machine, each with its own log folder, and tars them all into
# $OUT/logs.tgz (a call brings back at most 8 files). Usage: scripts/device-batch.sh NAME=SCRIPT [ARGS]... ,
#   e.g. scripts/device-batch.sh dist=scripts/distributed-device.sh oc=scripts/output-code-cuda.sh
# The logs are tarred after each job, so a call cut at its limit keeps the finished jobs' logs. FXRAY_BATCH_UNTIL
# (seconds after the start, default 540) is the batch's deadline: a job still running then gets SIGTERM (its whole
# process group, so the scripts can collect what they have; see corpus-device.sh), SIGKILL 15 s later, and the tar is
# still made. Never wrap this script in a shorter `timeout`: that kills the tar too (session 13 lost a call so).
# Each script's last lines are printed; FXRAY_BUILD_DIR is shared so later scripts reuse the first one's build.
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL=${OUT:-$PWD/device-logs}
mkdir -p "$FINAL"
LOGS=$(mktemp -d /tmp/fxray-device-batch-XXXXXX)
export FXRAY_BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-dist-build}
status=0
T0=$(date +%s)
UNTIL=${FXRAY_BATCH_UNTIL:-540}
for job in "$@"; do
  name=${job%%=*}
  cmd=${job#*=}
  mkdir -p "$LOGS/$name"
  start=$(date +%s)
  # Its own process group (setsid), so the deadline reaches the job's children too.
  OUT="$LOGS/$name" setsid bash $cmd >"$LOGS/$name/run.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && [ $(( $(date +%s) - T0 )) -lt "$UNTIL" ]; do sleep 2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "== $name: batch deadline ($UNTIL s) reached, stopping it"
    kill -TERM -- "-$pid" 2>/dev/null
    for _ in $(seq 15); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  wait "$pid"
  rc=$?
  [ "$rc" -eq 0 ] || status=$rc
  echo "== $name: rc=$rc, $(( $(date +%s) - start )) s"
  tail -15 "$LOGS/$name/run.log"
  # After every job: a call cut at its time limit still brings back what the finished jobs wrote.
  tar czf "$FINAL/logs.tgz" -C "$LOGS" .
done
exit "$status"
