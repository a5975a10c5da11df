#!/usr/bin/env bash
# Issue 24 on a CUDA machine: the one-pass statistics kernel (core/replay/values/stats_kernel.cu). Builds the fxray CLI
# and the engine's fused-statistics test against the machine's PyTorch (cmake + ninja, no Qt or Graphviz), then
#   1. checks the build has the kernel (configure said "CUDA kernels=ON": nvcc found, LibTorch with CUDA);
#   2. runs tests/engine/fused_stats_test --cuda: the kernel's rows against ATen's reductions for every dtype, NaN,
#      +-Inf, all-NaN, strided views, 1M-element tensors, and inside a captured CUDA graph replayed on new values;
#   3. runs the planted-NaN graph through the checked CUDA graph: the first NaN node must still be named;
#   4. runs bench/replay_bench.py on CUDA with the value tables, where "before" is the same binary with
#      FXRAY_FUSED_STATS=0 (ATen's five reductions per output): fused vs ATen in one run;
#   5. as time allows, tests/cuda/test_cuda_graph_cuda.py and test_replay_cuda.py (CLI tests through value checks).
# Self-checking: prints PASS/FAIL per step and a summary; exits non-zero when a step failed. Logs under $OUT
# (machine.txt, build.log, fused_test.log, nan_cuda_graph.log/.json, stats_{fused,aten}_*.json, bench.log, bench.json,
# test_*_cuda.log, summary.txt).
# About 6-9 minutes (build ~2-3 of them). Usage (from the repository root, on the GPU machine):
#   OUT=/path/to/logs bash scripts/fused-stats-device.sh
# FXRAY_BENCH_REPEATS=200 passes per timing (a pass is 0.05-1 ms: a few hundred keep the CPU clocked up, which a
# host-bound replay's figure depends on), FXRAY_BENCH_ROUNDS=4 interleaved rounds of fxray meta / fxray values /
# Python eager per graph (the goal ratio: the median of the per-round ratios; one process's figure moved by 2x
# between runs before). FXRAY_FUSED_BENCH=0 skips step 4; FXRAY_FUSED_CLI_TESTS names step 5's tests (empty: none).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}
REPEATS=${FXRAY_BENCH_REPEATS:-200}
ROUNDS=${FXRAY_BENCH_ROUNDS:-4}
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
failed=0
step() {  # step NAME RC DETAIL (rc 77: skipped, as ctest's SKIP_RETURN_CODE; it fails nothing, but says so)
  local verdict=PASS
  if [ "$2" -eq 77 ]; then verdict=SKIP; elif [ "$2" -ne 0 ]; then verdict=FAIL; failed=1; fi
  echo "$verdict $1 (rc=$2) $3" | tee -a "$SUMMARY"
}

{
  echo "== machine"; date -u; uname -a; nproc
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available())"
  echo "nvcc: $(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || echo none)"
  git log --oneline -1 2>/dev/null || true
} 2>&1 | tee "$OUT/machine.txt"

echo "== configure + build fxray and fused_stats_test" | tee "$OUT/build.log"
start=$(date +%s)
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >>"$OUT/build.log" 2>&1
rc=$?
grep -E "^-- fxray:" "$OUT/build.log" | tee -a "$SUMMARY"
if [ "$rc" -ne 0 ]; then
  tail -40 "$OUT/build.log"; step configure "$rc" "see build.log"; exit 1
fi
# Timed on its own first: how long nvcc takes over the kernel (CI compiles it too where nvcc is).
kstart=$(date +%s)
ninja -C "$BUILD_DIR" fxray_replay_cuda >>"$OUT/build.log" 2>&1
krc=$?
kernel_s=$(( $(date +%s) - kstart ))
ninja -C "$BUILD_DIR" fxray fused_stats_test >>"$OUT/build.log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
  grep -E "error|FAILED" "$OUT/build.log" | head -40; step build "$rc" "see build.log"; exit 1
fi
step build 0 "in $(( $(date +%s) - start )) s (kernel target: rc=$krc, ${kernel_s} s)"
grep -q "CUDA kernels=ON" "$OUT/build.log"
step kernel-built $? "(configure's 'fxray: CUDA kernels=' line above says why when not)"

FXRAY="$BUILD_DIR/app/cli/fxray"
TEST="$BUILD_DIR/tests/fused_stats_test"

echo "== fused_stats_test (CPU, then --cuda)" | tee "$OUT/fused_test.log"
"$TEST" >>"$OUT/fused_test.log" 2>&1
step fused-test-cpu $? "$(tail -1 "$OUT/fused_test.log")"
"$TEST" --cuda >>"$OUT/fused_test.log" 2>&1
rc=$?
step fused-test-cuda "$rc" "$(tail -1 "$OUT/fused_test.log")"
# The rows in device memory, read back with a copy (the path before mapped host rows; also the fallback's).
echo "== fused_stats_test --cuda, FXRAY_STATS_MAPPED=0" >>"$OUT/fused_test.log"
FXRAY_STATS_MAPPED=0 "$TEST" --cuda >>"$OUT/fused_test.log" 2>&1
rc=$?
step fused-test-cuda-unmapped "$rc" "$(tail -1 "$OUT/fused_test.log")"
grep -E "FAIL|SKIP|note" "$OUT/fused_test.log" | grep -v "^note: statistics of\|^note: CUDA graph replay" | head -40
# What one statistics launch costs (fused_stats_test's timings, mapped rows then device rows): into the summary.
grep -E "^note: statistics of|^note: CUDA graph replay" "$OUT/fused_test.log" | tee -a "$SUMMARY"

# The planted NaN through the checked CUDA graph (the checks captured into it): the origin must be named.
echo "== checked CUDA graph on the planted NaN" | tee "$OUT/nan_cuda_graph.log"
"$FXRAY" replay tests/data/faults/nan_source/mlp_forward_0 --device cuda --cuda-graph --repeat 5 --in-process --json \
  >"$OUT/nan_cuda_graph.json" 2>>"$OUT/nan_cuda_graph.log"
"$PY" - "$OUT/nan_cuda_graph.json" >>"$OUT/nan_cuda_graph.log" 2>&1 <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
cg = r.get("cuda_graph", {})
vc = cg.get("value_checks") or {}
print("eager first_nan_node", r.get("first_nan_node"), "| cuda graph", cg.get("status"), cg.get("reason"), json.dumps(vc))
ok = bool(r.get("first_nan_node")) and cg.get("status") == "captured" and vc.get("first_nan_node") == r["first_nan_node"]
sys.exit(0 if ok else 1)
EOF
step nan-origin-cuda-graph $? "$(tail -1 "$OUT/nan_cuda_graph.log")"
# The same with the rows in device memory (FXRAY_STATS_MAPPED=0): both read-back paths name the origin.
FXRAY_STATS_MAPPED=0 "$FXRAY" replay tests/data/faults/nan_source/mlp_forward_0 --device cuda --cuda-graph --repeat 5 \
  --in-process --json >"$OUT/nan_cuda_graph_unmapped.json" 2>>"$OUT/nan_cuda_graph.log"
"$PY" - "$OUT/nan_cuda_graph_unmapped.json" >>"$OUT/nan_cuda_graph.log" 2>&1 <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))
cg = r.get("cuda_graph", {})
vc = cg.get("value_checks") or {}
print("unmapped: eager first_nan_node", r.get("first_nan_node"), "| cuda graph", cg.get("status"), json.dumps(vc))
sys.exit(0 if r.get("first_nan_node") and vc.get("first_nan_node") == r["first_nan_node"] else 1)
EOF2
step nan-origin-cuda-graph-unmapped $? "$(tail -1 "$OUT/nan_cuda_graph.log")"
# Every node's numbers, fused (default) against ATen's reductions (FXRAY_FUSED_STATS=0): on the graph with NaN, then
# on two other forward graphs (deterministic kernels; many jobs in one launch, multi-block jobs, views sharing rows).
cat >"$OUT/compare_stats.py" <<'EOF'
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def num(v):
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "Infinity")) if "inf" in v else math.nan
bad = n = 0
for x, y in zip(a["nodes"], b["nodes"]):
    for ox, oy in zip(x.get("outputs", []), y.get("outputs", [])):
        for k in ("nan", "inf", "min", "max", "mean", "numel"):
            if k not in ox and k not in oy:
                continue
            n += 1
            vx, vy = num(ox.get(k, "nan")), num(oy.get(k, "nan"))
            same = (math.isnan(vx) and math.isnan(vy)) or vx == vy or (k == "mean" and abs(vx - vy) <= 1e-9 * max(1, abs(vy)))
            if not same:
                bad += 1
                print("differs:", x["name"], k, ox.get(k), oy.get(k))
print(f"{sys.argv[3]}: fused vs ATen statistics: {n} numbers compared, {bad} differ; verdicts {a.get('verdict')} / "
      f"{b.get('verdict')}; first_nan_node {a.get('first_nan_node')} / {b.get('first_nan_node')}")
sys.exit(0 if n > 0 and bad == 0 and a.get("first_nan_node") == b.get("first_nan_node") and a.get("verdict") == b.get("verdict") else 1)
EOF
compare_stats() {  # compare_stats STEP NAME ADDRESS
  "$FXRAY" replay "$3" --device cuda --in-process --json >"$OUT/stats_fused_$2.json" 2>>"$OUT/nan_cuda_graph.log"
  FXRAY_FUSED_STATS=0 "$FXRAY" replay "$3" --device cuda --in-process --json >"$OUT/stats_aten_$2.json" 2>>"$OUT/nan_cuda_graph.log"
  "$PY" "$OUT/compare_stats.py" "$OUT/stats_fused_$2.json" "$OUT/stats_aten_$2.json" "$2" >>"$OUT/nan_cuda_graph.log" 2>&1
  step "$1" $? "$(tail -1 "$OUT/nan_cuda_graph.log")"
}
compare_stats stats-fused-equals-aten nan_mlp tests/data/faults/nan_source/mlp_forward_0
compare_stats stats-fused-equals-aten-cnn cnn_fwd samples/h100/dumps/cnn_channels_last/cnn_channels_last_forward_0
# (Not the encoder layer: efficient attention's philox seed/offset outputs are uninitialised memory with dropout off.)
compare_stats stats-fused-equals-aten-embed embed_ce_fwd samples/h100/dumps/embed_ce/embed_ce_forward_0

# The bench: "before" is this build with the fused statistics off (ATen's reductions), in the same run.
# FXRAY_FUSED_BENCH=0: the checks only (another script times what it needs).
if [ "${FXRAY_FUSED_BENCH:-1}" != 0 ]; then
echo "== replay benchmark on CUDA ($ROUNDS rounds of $REPEATS runs after $((REPEATS / 5)) warm-up)" | tee "$OUT/bench.log"
bench_start=$SECONDS
# What is left of ~9.5 minutes (the device command's 10) after the build and tests, 120-400 s; bench.json is written
# after every graph, so a bench cut short still gives the goals of the graphs it finished.
bench_limit=$(( 545 - SECONDS )); [ "$bench_limit" -gt 400 ] && bench_limit=400; [ "$bench_limit" -lt 120 ] && bench_limit=120
ATEN="$OUT/fxray-aten-stats"
printf '#!/bin/sh\nFXRAY_FUSED_STATS=0 exec "%s" "$@"\n' "$(realpath "$FXRAY")" >"$ATEN"
chmod +x "$ATEN"
PYTHONUNBUFFERED=1 timeout "$bench_limit" "$PY" bench/replay_bench.py --fxray "$FXRAY" --fxray-before "$ATEN" \
  --device cuda --repeats "$REPEATS" --warmup $((REPEATS / 5)) --rounds "$ROUNDS" --cg-rounds 2 --before-repeats 30 --json "$OUT/bench.json" >>"$OUT/bench.log" 2>&1
step bench $? "in $((SECONDS - bench_start)) s of $bench_limit (before = FXRAY_FUSED_STATS=0: ATen's reductions; tables below and in bench.log)"
rm -f "$ATEN"
# Issue 24's two goals, per graph, from bench.json (same run): values / eager <= 0.5x (the median of the per-round
# ratios; the ratio of the medians, and each round's, in bench.log); checked / unchecked CUDA graph <= 1.3x
# (synchronised medians, 2 rounds of each in turn, the median of the per-round ratios; back to back in brackets).
"$PY" - "$OUT/bench.json" <<'EOF' 2>&1 | tee "$OUT/goals.txt" | tee -a "$SUMMARY"
import json, sys
rows = json.load(open(sys.argv[1]))
r2 = lambda a, b: a / b if a and b else None  # noqa: E731
f = lambda v: f"{v:6.2f}x" if v is not None else f"{'-':>7}"  # noqa: E731
print(f"{'graph':32} {'meta/eager':>10} {'values/eager':>12} {'ATen/eager':>10} {'fused/ATen':>10} {'cg checked/unchecked':>21}"
      f"  values/eager per round")
met_v = met_cg = 0
for r in rows:
    v = r.get("values_eager_ratio") or r2(r["values_us"], r["eager_us"])
    cg = r.get("cuda_graph_checked_ratio") or r2(r.get("fxray_cuda_graph_values_us"), r.get("fxray_cuda_graph_us"))
    b2b = r.get("cuda_graph_checked_b2b_ratio") or r2(r.get("fxray_cuda_graph_values_b2b_us"), r.get("fxray_cuda_graph_b2b_us"))
    met_v += v is not None and v <= 0.5
    met_cg += cg is not None and cg <= 1.3
    print(f"{r['graph']:32} {f(r.get('meta_eager_ratio') or r2(r['fxray_us'], r['eager_us'])):>10} {f(v):>12} "
          f"{f(r2(r.get('before_values_us'), r['eager_us'])):>10} {f(r2(r['values_us'], r.get('before_values_us'))):>10} "
          f"{f(cg):>12} ({f(b2b)})  "
          + " ".join(f"{v / e:.2f}" if v and e else "-" for v, e in zip(r.get("values_rounds_us", []), r.get("eager_rounds_us", []))))
print(f"goals: values <= 0.5x eager on {met_v} of {len(rows)}; checked CUDA graph <= 1.3x unchecked on {met_cg} of {len(rows)}")
EOF
fi

# The CUDA CLI tests that go through value checks, as time allows (the whole script should stay under ~9.5 min: one device command).
for t in ${FXRAY_FUSED_CLI_TESTS-test_cuda_graph_cuda test_replay_cuda}; do
  left=$(( 540 - SECONDS ))
  if [ "$left" -lt 40 ]; then
    echo "SKIP $t: ${SECONDS} s used" | tee -a "$SUMMARY"
    continue
  fi
  FXRAY_BIN="$FXRAY" FXRAY_SOURCE_DIR="$PWD" timeout "$left" "$PY" "tests/cuda/$t.py" >"$OUT/$t.log" 2>&1
  step "$t" $? "$(tail -1 "$OUT/$t.log")"
done
# Where the value checks' time goes on the GPU (cnn forward: the largest values - meta gap on the H100), where Nsight
# Systems is installed: kernels and CUDA API calls of 50 value-checked passes against 50 metadata-only ones
# (nsys_values.txt, nsys_meta.txt). Not a pass/fail step.
if command -v nsys >/dev/null 2>&1; then
  CNN=samples/h100/dumps/cnn_channels_last/cnn_channels_last_forward_0
  for mode in values meta; do
    extra=""; [ "$mode" = meta ] && extra="--no-values"
    timeout 120 nsys profile -t cuda,osrt -o "$OUT/nsys_$mode" --force-overwrite true \
      "$FXRAY" replay "$CNN" --device cuda --in-process --json --repeat 50 --warmup 5 $extra >/dev/null 2>>"$OUT/nsys.log"
    timeout 120 nsys stats --report cuda_api_sum,cuda_gpu_kern_sum,cuda_gpu_mem_time_sum --format table \
      "$OUT/nsys_$mode.nsys-rep" >"$OUT/nsys_$mode.txt" 2>>"$OUT/nsys.log"
    rm -f "$OUT/nsys_$mode.nsys-rep" "$OUT/nsys_$mode.sqlite"
  done
  echo "note: nsys profiles of cnn forward: nsys_values.txt, nsys_meta.txt" | tee -a "$SUMMARY"
else
  echo "note: no nsys: no kernel/API profile of the value checks" | tee -a "$SUMMARY"
fi

echo
sed -n '/^graph /,$p' "$OUT/bench.log"
echo
echo "== summary"; cat "$SUMMARY"
exit "$failed"
