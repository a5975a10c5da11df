#!/usr/bin/env bash
# Installs what fxray needs to build and test, and nothing else. Idempotent: every step checks first.
#   Debian packages (Qt6, Graphviz, Xvfb, ninja, ccache, ...) when missing,
#   a Python venv with torch==2.11.0 + pytest + scikit-build-core (pip install of fxray, pyproject.toml) outside the repository (FXRAY_VENV, default ~/.cache/fxray/venv),
#   and the real-model corpus's libraries (transformers, torchvision, timm, expecttest) in it.
# Prints what it does. Safe to run on every build.
set -euo pipefail

FXRAY_VENV=${FXRAY_VENV:-$HOME/.cache/fxray/venv}
TORCH_VERSION=${FXRAY_TORCH_VERSION:-2.11.0}

say() { printf '[bootstrap] %s\n' "$*"; }

# Debian packages. Each entry: package name. Checked with dpkg-query so a re-run costs ~0.1 s.
DEB_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl1-mesa-dev
  libgraphviz-dev graphviz
  xvfb xauth x11-utils imagemagick fonts-dejavu-core
  zlib1g-dev
  clang libclang-rt-14-dev
  libgloo-dev  # headers only: the wheel's LibTorch has Gloo inside but ships no gloo headers (distributed replay)
  nlohmann-json3-dev  # headers only: LibTorch's functorch headers include it (vmap in dynamo graphs, ops/vmap_ops)
)
missing=()
for p in "${DEB_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages: all present"
fi

# Python venv with torch (LibTorch comes from the wheel: torch.utils.cmake_prefix_path).
PYTHON=${FXRAY_PYTHON:-python3}
if [ ! -x "$FXRAY_VENV/bin/python" ]; then
  say "creating venv $FXRAY_VENV"
  mkdir -p "$(dirname "$FXRAY_VENV")"
  "$PYTHON" -m venv "$FXRAY_VENV"
fi
if "$FXRAY_VENV/bin/python" -c "import torch, pytest, numpy, scikit_build_core, sys; sys.exit(0 if torch.__version__.split('+')[0] == '$TORCH_VERSION' else 1)" 2>/dev/null; then
  say "venv: torch $TORCH_VERSION, pytest, numpy, scikit-build-core present in $FXRAY_VENV"
else
  say "installing torch==$TORCH_VERSION pytest numpy scikit-build-core into $FXRAY_VENV (large download, once)"
  "$FXRAY_VENV/bin/python" -m pip install -q --upgrade pip
  "$FXRAY_VENV/bin/python" -m pip install -q "torch==$TORCH_VERSION" pytest numpy "scikit-build-core>=1.1"
fi

# The real-model corpus (tools/corpus): model libraries at the versions of the GPU machine. Checked from the
# installed packages' metadata first, so a re-run costs nothing. timm is pinned to what pip resolved here (1.0.29).
CORPUS_PACKAGES=("transformers==5.17.0" "torchvision==0.26.0" "timm==1.0.29" "expecttest")
# Installed versions from package metadata (importing transformers + torchvision takes seconds).
if "$FXRAY_VENV/bin/python" -c "
import sys; from importlib.metadata import version as v
sys.exit(0 if (v('transformers'), v('torchvision').split('+')[0], v('timm')) == ('5.17.0', '0.26.0', '1.0.29') and v('expecttest') else 1)" 2>/dev/null; then
  say "venv: corpus packages (transformers, torchvision, timm, expecttest) present"
else
  say "installing ${CORPUS_PACKAGES[*]} into $FXRAY_VENV (the real-model corpus)"
  "$FXRAY_VENV/bin/python" -m pip install -q "${CORPUS_PACKAGES[@]}"
fi
say "done"
