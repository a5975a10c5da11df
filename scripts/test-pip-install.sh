#!/usr/bin/env bash
# The pip path of issue 25, end to end: a fresh venv holding torch (and nothing of fxray), `pip install
# --no-build-isolation <this checkout>` (a full build of CLI + worker + GUI against that venv's LibTorch, reusing
# ccache and build-pip/), then the installed programs on the venv's PATH: fxray --version, a training step with
# torch.compile(backend="fxray") writing dumps, fxray info listing them, fxray replay passing on saved inputs,
# fxray-gui --help. Minutes (a first build), so not in ctest: tests/cli/test_install.py covers the same install
# layout and backend from the existing build in seconds.
#   scripts/test-pip-install.sh [WORK_DIR]      (default: a new /tmp/fxray-pip-XXXX; the venv is WORK_DIR/venv)
#   FXRAY_PIP_TORCH=share (default): the venv gets the fxray venv's torch and its requirements only, as symlinks
#                                    in its site-packages (no download; torch's libraries sit inside the venv)
#                   cpu | 2.11.0:    pip installs that torch (cpu: torch==$FXRAY_TORCH_VERSION from PyTorch's CPU index)
#   FXRAY_PIP_FROM=checkout (default) | sdist: install from the checkout, or from an sdist made of it first
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
FXRAY_VENV=${FXRAY_VENV:-$HOME/.cache/fxray/venv}
WORK=${1:-$(mktemp -d /tmp/fxray-pip-XXXX)}
TORCH=${FXRAY_PIP_TORCH:-share}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/fxray/ccache}  # scripts/build.sh's cache
say() { printf '[pip-install] %s\n' "$*"; }

mkdir -p "$WORK"
V=$WORK/venv/bin/python
if [ ! -x "$V" ]; then
  say "fresh venv $WORK/venv"
  "$FXRAY_VENV/bin/python" -m venv "$WORK/venv"
fi
case "$TORCH" in
  share)
    say "linking torch and its requirements from $FXRAY_VENV"
    "$FXRAY_VENV/bin/python" - "$($V -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" <<'PY'
import os, re, sys
from importlib.metadata import distribution
site = sys.argv[1]
todo, seen = ["torch"], set()
while todo:
    name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
    if name in seen:
        continue
    seen.add(name)
    try:
        dist = distribution(name)
    except Exception:
        continue
    for req in dist.requires or []:
        if "extra ==" not in req:
            todo.append(re.split(r"[ ;<>=!~\[(]", req, 1)[0])
    tops = {str(f).split("/")[0] for f in dist.files or [] if not str(f).startswith("..")}
    for top in tops:
        src = os.path.join(str(dist.locate_file("")), top)
        dst = os.path.join(site, top)
        if os.path.exists(src) and not os.path.lexists(dst) and top != "__pycache__" and not top.endswith(".pth"):
            os.symlink(src, dst)
print("linked:", ", ".join(sorted(seen)))
PY
    ;;
  cpu) "$V" -m pip install -q "torch==${FXRAY_TORCH_VERSION:-2.11.0}" --index-url https://download.pytorch.org/whl/cpu ;;
  *) "$V" -m pip install -q "torch==$TORCH" ;;
esac
"$V" -m pip install -q "scikit-build-core>=1.1"
"$V" -c "import torch; print('[pip-install] venv torch', torch.__version__, torch.__file__)"

TARGET=$SRC
if [ "${FXRAY_PIP_FROM:-checkout}" = sdist ]; then
  rm -rf "$WORK/sdist"
  TARGET=$WORK/sdist/$("$V" -c "import scikit_build_core.build as b; print(b.build_sdist('$WORK/sdist'))" | tail -1)
fi
say "pip install --no-build-isolation $TARGET (log: $WORK/pip.log)"
start=$(date +%s)
if ! "$V" -m pip install --no-build-isolation -v "$TARGET" >"$WORK/pip.log" 2>&1; then
  tail -40 "$WORK/pip.log"; exit 1
fi
say "pip install took $(( $(date +%s) - start )) s"
grep -E "fxray: Qt6 GUI|Qt6's development files" "$WORK/pip.log" || true

B=$WORK/venv/bin
say "$B/fxray --version"; "$B/fxray" --version
mkdir -p "$WORK/run" && cd "$WORK/run"
"$V" - <<'PY'
import torch, torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="fxray")    # the entry point pip installed; dumps under ./fxray_dumps
compiled(torch.randn(8, 16)).pow(2).mean().backward()
PY
"$B/fxray" info fxray_dumps | grep -E "^fxray_dumps|written by|graph\(s\)"
"$B/fxray" replay fxray_dumps/model/model_forward_0 --inputs saved --expected auto
"$V" -m fxray version
QT_QPA_PLATFORM=offscreen "$B/fxray-gui" --help >/dev/null 2>&1 && say "fxray-gui --help: ok" || say "fxray-gui --help: exit $?"
say "ok: $WORK"
