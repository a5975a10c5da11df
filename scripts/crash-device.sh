#!/usr/bin/env bash
# One crash on the GPU machine, examined: builds the fxray CLI (cmake + ninja, like scripts/replay-bench-device.sh),
# then runs an fxray replay (default: the graph that crashed in the replay bench) in variants that narrow the cause:
# the libraries it loads (cuDNN from the torch wheel or from elsewhere), its RUNPATH, the same op in Python eager,
# and the replay with the wheel's cuDNN first on LD_LIBRARY_PATH. gdb's backtrace when gdb is there. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-logs}
mkdir -p "$OUT"
BUILD_DIR=${FXRAY_BUILD_DIR:-/tmp/fxray-device-build}
PY=${FXRAY_PYTHON:-python3}
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF -DFXRAY_PYTHON="$PY" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$OUT/build.log" 2>&1 && ninja -C "$BUILD_DIR" fxray >>"$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
FXRAY="$BUILD_DIR/app/cli/fxray"
G=${FXRAY_CRASH_GRAPH:-samples/h100/dumps/cnn_channels_last/cnn_channels_last_forward_0}
run() { echo "== $*"; timeout 120 "$@" >"$OUT/last.out" 2>&1; echo "exit $?"; tail -4 "$OUT/last.out"; }
echo "== RUNPATH"; readelf -d "$BUILD_DIR/app/cli/libfxray_cli_torch.so" | grep -i -E "runpath|rpath"
ls /usr/local/cuda/lib64 2>/dev/null | grep -i cudnn | head -5
LD_DEBUG=libs timeout 120 "$FXRAY" replay "$G" --in-process --device cuda --no-values 2>&1 | grep -E "calling init: .*(cudnn|cublas)|trying file=.*cudnn" | sort -u | head -20
cudnn_dir=$("$PY" -c "import nvidia.cudnn, os; print(os.path.join(list(nvidia.cudnn.__path__)[0], 'lib'))" 2>/dev/null)
echo "wheel cudnn: $cudnn_dir"
"$PY" - <<'PY'
import torch
print("torch cudnn", torch.backends.cudnn.version())
x = torch.randn(8, 3, 32, 32, device="cuda").to(memory_format=torch.channels_last)
w = torch.randn(16, 3, 3, 3, device="cuda").to(memory_format=torch.channels_last)
y = torch.ops.aten.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
torch.cuda.synchronize(); print("eager convolution ok", y.shape, y.stride())
PY
run "$FXRAY" replay "$G" --in-process --device cuda --no-values
[ -n "$cudnn_dir" ] && run env LD_LIBRARY_PATH="$cudnn_dir" "$FXRAY" replay "$G" --in-process --device cuda --no-values
run env FXRAY_NO_CUDNN=1 "$FXRAY" replay "$G" --in-process --device cpu --no-values
if command -v gdb >/dev/null; then
  timeout 180 gdb -batch -ex run -ex bt --args "$FXRAY" replay "$G" --in-process --device cuda --no-values 2>&1 | tail -40
else
  echo "no gdb on this machine"
fi
