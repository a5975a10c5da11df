#!/usr/bin/env bash
# Issue 22 on a host with 2 GPUs (device kind nvidia-h100-x2; no network, no apt): builds fxray's CLI with the
# Gloo and NCCL process groups, then
#   1. the committed 2-rank Gloo logs (tests/data/distributed) replayed on the CPU, and tests/cli/test_distributed.py
#      and test_distributed_fsdp.py;
#   2. the corpus's 2-rank DTensor tensor-parallel step captured with NCCL (one GPU per rank, saved inputs and eager
#      outputs per rank) and replayed over NCCL (rank r on cuda:r) with --inputs saved --expected auto: every
#      collective executed, outputs against eager per rank; the same step's inductor TORCH_TRACE logs replayed too;
#      The trace logs' DTensor compiles also get the single-rank reference (consistent inputs cut from one global
#      tensor; "=ref" where a rank's forward equals the unsharded step);
#   2c. DDP with compiled autograd (optimize_ddp="python_reducer") traced on 2 GPUs and replayed over NCCL;
#   2d. traceable FSDP2 (--recipe fsdp2_ca: compiled autograd, skip_fsdp_hooks=False; CUDA only in torch 2.11) traced
#       with aot_eager on 2 GPUs and replayed over NCCL: fsdp.all_gather_copy_in / all_gather_into_tensor /
#       split_with_sizes_copy in the forward, chunk_cat / reduce_scatter_tensor in the compiled-autograd backward;
#       Since the BackwardState input loads (an opaque value), every graph runs on both ranks: checked that no graph
#       is fatal, the job is not stopped, every collective runs on both ranks and the forward's graphs pass;
#   3. the capture's own step time beside fxray's per-rank replay time (one run, same machine);
#   4. tlparse's multi-rank logs (ranks 0 and 1 of each folder) over NCCL, when the corpus tgz is there: it lives in
#      the ignored .devscratch/ folder, which the device copy of the tree leaves out unless carried:
#        run(kind="nvidia-h100-x2", carry=[".devscratch/debs", ".devscratch/corpora/tlparse_test_inputs.tgz"],
#            command="bash scripts/distributed-device.sh")
#      without it the section says "skipped" and its check is SKIP (not counted).
# Self-checking: checks.txt lists each expectation as PASS/FAIL (every collective executed per rank, ...), and the
# script exits 1 when one fails. Logs: $OUT/summary.txt (checks and figures) and $OUT/logs.tgz (every log; a call
# brings back at most 8 files), tarred again after each section so a run cut at its limit keeps what it wrote.
# Budget: ~6 min on an nvidia-h100-x2 machine (each capture is bounded by `timeout`).
# FXRAY_DIST_SECTIONS=fsdp2_ca,tlparse (any of gloo,nccl_tp,ddp_ca,fsdp2_ca,timing,tlparse; default all) runs only
# those after the build, to check one fix without paying for the rest; the checks of the others then say SKIP.
# The gloo headers come from Debian's libgloo-dev .deb, carried in an ignored folder: on a machine with apt,
#   mkdir -p .devscratch/debs && (cd .devscratch/debs && apt-get download libgloo-dev)
# and carry .devscratch/debs with the run. Logs under $OUT (else ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL=${OUT:-$PWD/device-logs}
mkdir -p "$FINAL"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-dist-build}
PY=${FXRAY_PYTHON:-python3}
WORK=$(mktemp -d /tmp/fxray-dist-device-XXXXXX)
OUT="$WORK/logs"   # every section writes here; pack() puts it into $FINAL/logs.tgz
mkdir -p "$OUT"
T0=$(date +%s)
SECTIONS=${FXRAY_DIST_SECTIONS:-}
want() { [ -z "$SECTIONS" ] || [[ ",$SECTIONS," == *",$1,"* ]]; }
pack() {  # after each section: the logs so far, and the time spent
  echo "-- $1 done at +$(( $(date +%s) - T0 )) s" | tee -a "$OUT/timeline.txt"
  tar czf "$FINAL/logs.tgz" -C "$OUT" .
}

{
  echo "== machine"; uname -a; nproc
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch, torch.distributed as d; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'gpus', torch.cuda.device_count(), 'nccl', d.is_nccl_available(), 'gloo', d.is_gloo_available())"
} 2>&1 | tee "$OUT/machine.txt"

# Debian's gloo headers, unpacked (dpkg -x needs no root).
GLOO_INCLUDE=/usr/include
if [ ! -f /usr/include/gloo/context.h ]; then
  deb=$(ls .devscratch/debs/libgloo-dev_*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ]; then
    # Beside the build, not in $WORK: the build cache keeps the path for later configures (device-batch.sh).
    mkdir -p "$BUILD_DIR" && dpkg -x "$deb" "$BUILD_DIR/_gloo" && GLOO_INCLUDE="$BUILD_DIR/_gloo/usr/include"
  else
    echo "no gloo headers and no .devscratch/debs/libgloo-dev_*.deb: the Gloo groups are not built" | tee -a "$OUT/machine.txt"
    GLOO_INCLUDE=""
  fi
fi

build() {  # build <log> <extra cmake args...>
  local log=$1; shift
  cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo ${GLOO_INCLUDE:+-DFXRAY_GLOO_INCLUDE="$GLOO_INCLUDE"} "$@" >"$log" 2>&1 \
    && ninja -C "$BUILD_DIR" fxray >>"$log" 2>&1
}
echo "== build (gloo + nccl)" | tee "$OUT/build.log"
if ! build "$OUT/build.log" -DFXRAY_NCCL=ON; then
  tail -40 "$OUT/build.log"
  echo "== the NCCL build failed (above); building with Gloo only" | tee "$OUT/build_gloo_only.log"
  rm -rf "$BUILD_DIR"
  build "$OUT/build_gloo_only.log" -DFXRAY_NCCL=OFF || { tail -40 "$OUT/build_gloo_only.log"; pack build_failed; exit 1; }
fi
grep -E "^-- fxray:" "$OUT"/build*.log
FXRAY="$BUILD_DIR/app/cli/fxray"
pack build

if want gloo; then
echo "== 1. Gloo on the CPU: the committed 2-rank logs, and the CLI test" | tee "$OUT/gloo.log"
for case in allreduce tp_mlp ddp_ca; do
  "$FXRAY" replay "tests/data/distributed/$case" 2>&1 | tee -a "$OUT/gloo.log"
done
"$FXRAY" replay tests/data/distributed/ddp_ca --json >"$OUT/gloo_ddp_ca.json" 2>>"$OUT/gloo.log"
FXRAY_BIN="$FXRAY" FXRAY_SOURCE_DIR="$PWD" "$PY" tests/cli/test_distributed.py 2>&1 | tee "$OUT/test_distributed.log"
FXRAY_BIN="$FXRAY" FXRAY_SOURCE_DIR="$PWD" "$PY" tests/cli/test_distributed_fsdp.py 2>&1 | tee "$OUT/test_distributed_fsdp.log"
pack gloo
fi

if want nccl_tp; then
echo "== 2. NCCL: the DTensor TP step captured on 2 GPUs, replayed over NCCL" | tee "$OUT/nccl.log"
timeout 240 "$PY" tools/corpus/capture_distributed.py --recipe tp --device cuda --mode capture --out "$WORK/tp" 2>&1 | tee -a "$OUT/nccl.log"
cp "$WORK/tp/capture.json" "$OUT/tp_capture.json" 2>/dev/null
"$FXRAY" replay "$WORK/tp/dumps" --device cuda --inputs saved --expected auto 2>&1 | tee -a "$OUT/nccl.log"
"$FXRAY" replay "$WORK/tp/dumps" --device cuda --inputs saved --expected auto --json >"$OUT/nccl_replay.json" 2>>"$OUT/nccl.log"
"$FXRAY" replay "$WORK/tp/dumps" --device cuda 2>&1 | tee -a "$OUT/nccl.log"   # random inputs
echo "== 2b. NCCL: the same step under inductor, its TORCH_TRACE logs per rank" | tee -a "$OUT/nccl.log"
TORCH_TRACE="$WORK/trace" timeout 240 "$PY" tools/corpus/capture_distributed.py --recipe tp --device cuda --mode trace --out "$WORK/tp_trace" 2>&1 | tee -a "$OUT/nccl.log"
ls "$WORK/trace" | tee -a "$OUT/nccl.log"
"$FXRAY" replay "$WORK/trace" --device cuda 2>&1 | tee -a "$OUT/nccl.log"
"$FXRAY" replay "$WORK/trace" --device cuda --json >"$OUT/nccl_tp_trace_replay.json" 2>>"$OUT/nccl.log"
pack nccl_tp
fi

if want ddp_ca; then
echo "== 2c. NCCL: DDP with compiled autograd (python_reducer), inductor TORCH_TRACE per rank, replayed over NCCL" | tee "$OUT/ddp_ca.log"
TORCH_TRACE="$WORK/ddp_trace" timeout 240 "$PY" tools/corpus/capture_distributed.py --recipe ddp_ca --device cuda --mode trace --out "$WORK/ddp_ca" 2>&1 | tail -5 | tee -a "$OUT/ddp_ca.log"
cp "$WORK/ddp_ca/trace.json" "$OUT/ddp_ca_trace.json" 2>/dev/null
"$FXRAY" replay "$WORK/ddp_trace" --device cuda 2>&1 | tee -a "$OUT/ddp_ca.log"
"$FXRAY" replay "$WORK/ddp_trace" --device cuda --json >"$OUT/ddp_ca_replay.json" 2>>"$OUT/ddp_ca.log"
pack ddp_ca
fi

if want fsdp2_ca; then
echo "== 2d. NCCL: traceable FSDP2 (compiled autograd, skip_fsdp_hooks=False), aot_eager TORCH_TRACE per rank" | tee "$OUT/fsdp2_ca.log"
TORCH_TRACE="$WORK/fsdp2_trace" timeout 200 "$PY" tools/corpus/capture_distributed.py --recipe fsdp2_ca --device cuda --mode trace \
  --backend aot_eager --out "$WORK/fsdp2_ca" 2>&1 | tail -5 | tee -a "$OUT/fsdp2_ca.log"
cp "$WORK/fsdp2_ca/trace.json" "$OUT/fsdp2_ca_trace.json" 2>/dev/null
cp "$WORK/fsdp2_ca"/trace.rank*.json "$OUT/" 2>/dev/null   # per-rank steps with tracebacks, if a step failed
if ls "$WORK/fsdp2_trace"/*.log >/dev/null 2>&1; then
  mkdir -p "$OUT/fsdp2_trace" && cp "$WORK/fsdp2_trace"/*.log "$OUT/fsdp2_trace/"   # small (aot_eager): for a CPU look
  "$FXRAY" replay "$WORK/fsdp2_trace" --device cuda 2>&1 | tee -a "$OUT/fsdp2_ca.log"
  "$FXRAY" replay "$WORK/fsdp2_trace" --device cuda --json >"$OUT/fsdp2_ca_replay.json" 2>>"$OUT/fsdp2_ca.log"
fi
pack fsdp2_ca
fi

if want timing; then
echo "== 3. time per rank step: the capture's eager step vs fxray's replay, same machine" | tee "$OUT/timing.log"
"$PY" - "$OUT/tp_capture.json" "$OUT/nccl_replay.json" <<'EOF' 2>&1 | tee -a "$OUT/timing.log"
import json, sys
cap = json.load(open(sys.argv[1])) if sys.argv[1] else {}
rep = json.load(open(sys.argv[2]))["distributed"]
print("capture steps (eager + compile, seconds):", {k: v.get("seconds") for k, v in cap.get("steps", {}).items()})
for r in rep["ranks"]:
    us = sum(x.get("total_us", 0) for x in r["reports"] if "joint" not in x["address"])
    print(f"rank {r['rank']}: forward+backward replay {us / 1e3:.1f} ms, collectives {r['collectives_run']}/{r['collectives_total']}")
print("job wall time (workers' start and rendezvous included):", rep["seconds"], "s")
EOF

pack timing
fi
if want tlparse; then
echo "== 4. tlparse's multi-rank logs, ranks 0 and 1, over NCCL (carry .devscratch/corpora/tlparse_test_inputs.tgz)" | tee "$OUT/tlparse_nccl.log"
tgz=.devscratch/corpora/tlparse_test_inputs.tgz
if [ -f "$tgz" ]; then
  mkdir -p "$WORK/tlparse" && tar xzf "$tgz" -C "$WORK/tlparse"
  for d in multi_rank_logs multi_rank_runtime multi_rank_schedule; do
    mkdir -p "$WORK/pair/$d"
    cp "$WORK/tlparse/$d"/dedicated_log_torch_trace_rank_[01]*.log "$WORK/pair/$d/" 2>/dev/null || continue
    echo "-- $d (ranks 0-1)" | tee -a "$OUT/tlparse_nccl.log"
    start=$(date +%s.%N)
    "$FXRAY" replay "$WORK/pair/$d" --device cuda 2>&1 | tail -25 | tee -a "$OUT/tlparse_nccl.log"
    echo "wall: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f", e - s}') s" | tee -a "$OUT/tlparse_nccl.log"
    "$FXRAY" replay "$WORK/pair/$d" --device cuda --json >"$OUT/tlparse_$d.json" 2>>"$OUT/tlparse_nccl.log"
  done
else
  echo "no $tgz: skipped" | tee -a "$OUT/tlparse_nccl.log"
fi
pack tlparse
fi

echo "== checks" | tee "$OUT/checks.txt"
"$PY" scripts/distributed_device_check.py "$OUT" 2>&1 | tee -a "$OUT/checks.txt"
checks=${PIPESTATUS[0]}
{ cat "$OUT/machine.txt"; cat "$OUT/timeline.txt"; cat "$OUT/checks.txt"; } >"$FINAL/summary.txt"
pack checks
rm -rf "$WORK"
exit "$checks"
