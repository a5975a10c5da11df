# Sourced by the device scripts: builds the fxray CLI on the GPU machine (no Qt or Graphviz there) against that
# machine's own PyTorch, into $BUILD_DIR (kept while the machine stays warm, so the next call's build is quick).
#   device_build_cli LOG [extra cmake args...]   returns ninja's status; LOG gets cmake's and ninja's output.
# Needs PY (the Python whose torch fxray builds against) and BUILD_DIR.
device_build_cli() {
  local log=$1
  shift
  local t0
  t0=$(date +%s)
  {
    echo "== configure"
    [ -f "$BUILD_DIR/build.ninja" ] || cmake -S . -B "$BUILD_DIR" -G Ninja -DFXRAY_GUI=OFF -DFXRAY_GRAPHVIZ=OFF \
      -DFXRAY_PYTHON="$PY" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
    echo "== build"
    ninja -C "$BUILD_DIR" fxray
  } >"$log" 2>&1
  local rc=$?
  echo "build: exit $rc after $(( $(date +%s) - t0 )) s" >>"$log"
  [ "$rc" -eq 0 ] || grep -E "error|FAILED" "$log" | head -30
  return "$rc"
}
