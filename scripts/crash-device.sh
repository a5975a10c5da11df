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
LD_DEBUG=libs timeout 120 "$FXRAY" replay "$G" --in-process --device cuda --no-values 2>"$OUT/ld_debug.log" >/dev/null
grep -E "calling init|cannot open|not found|error" "$OUT/ld_debug.log" | sed 's/^ *[0-9]*://' | sort -u | tail -25
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
# What Python's `import torch` does before any op (torch/__init__.py preloads the nvidia wheels' libraries): if the
# replay passes this way, the crash is in how LibTorch's cuDNN finds its own sub-libraries from a C++ program.
if [ -n "$cudnn_dir" ]; then
  run env LD_PRELOAD="$(ls "$cudnn_dir"/libcudnn*.so.9 | tr '\n' ':')" "$FXRAY" replay "$G" --in-process --device cuda --no-values
  nv=$(dirname "$(dirname "$cudnn_dir")")
  run env LD_PRELOAD="$(ls "$nv"/*/lib/lib*.so.* 2>/dev/null | grep -v -E "libnvblas|libcufile_rdma" | tr '\n' ':')" "$FXRAY" replay "$G" --in-process --device cuda --no-values
fi
if command -v gdb >/dev/null; then
  timeout 180 gdb -batch -ex run -ex bt --args "$FXRAY" replay "$G" --in-process --device cuda --no-values 2>&1 | tail -40
else
  echo "no gdb on this machine"
fi
