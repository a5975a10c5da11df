#!/usr/bin/env bash
# Sets up (scripts/bootstrap.sh) and builds fxray. Usage: scripts/build.sh [--sanitize] [extra cmake args]
#   FXRAY_BUILD_DIR  build directory (default: build, or build-asan with --sanitize)
#   FXRAY_VENV       python venv with torch (default: ~/.cache/fxray/venv)
#   FXRAY_FATAL_WARNINGS=1  a compiler warning fails the build (scripts/test.sh sets it; see below)
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=OFF
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=ON
  shift
fi
FXRAY_VENV=${FXRAY_VENV:-$HOME/.cache/fxray/venv}
if [ "$sanitize" = ON ]; then
  BUILD_DIR=${FXRAY_BUILD_DIR:-build-asan}
  # Core + CLI + their tests: sanitizers are for our parsing and graph code, not for Qt's widgets, LibTorch, or
  # Debian's Graphviz 2.42 (its pango plugin reads a freed font name: a heap-use-after-free inside libgvc).
  extra=(-DFXRAY_SANITIZE=ON -DFXRAY_GUI=OFF -DFXRAY_TORCH=OFF -DFXRAY_GRAPHVIZ=OFF -DCMAKE_BUILD_TYPE=Debug)
else
  BUILD_DIR=${FXRAY_BUILD_DIR:-build}
  extra=()
fi

bash scripts/bootstrap.sh
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/fxray/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Paths below the checkout hashed relative to it, and the build directory not hashed: a fresh clone elsewhere (CI)
# hits what an earlier build cached. The precompiled headers are only cacheable with this sloppiness.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}

echo "[build] configuring $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_PYTHON="$FXRAY_VENV/bin/python" "${extra[@]}" "$@" >"$BUILD_DIR.configure.log" 2>&1 \
  || { cat "$BUILD_DIR.configure.log"; exit 1; }
grep -E "^-- fxray:" "$BUILD_DIR.configure.log" || true
echo "[build] building $BUILD_DIR"
if [ "${FXRAY_FATAL_WARNINGS:-0}" != 1 ]; then
  ninja -C "$BUILD_DIR" -j"$(nproc)"
  exit 0
fi
# Warnings as errors, read from the compilers' output rather than compiled in with -Werror (FXRAY_WERROR): that
# flag would change every compile command and miss the shared ccache, and a cache hit replays its warnings, so a
# fresh build folder (CI's clean clone) shows every warning of every file; an incremental one, those it rebuilt.
ninja -C "$BUILD_DIR" -j"$(nproc)" 2>&1 | tee "$BUILD_DIR.build.log"
if grep -qE ":[0-9]+:[0-9]+: warning:" "$BUILD_DIR.build.log"; then
  echo "[build] compiler warnings in $BUILD_DIR (FXRAY_FATAL_WARNINGS=1 makes them errors):"
  grep -E ":[0-9]+:[0-9]+: warning:" "$BUILD_DIR.build.log"
  exit 1
fi
