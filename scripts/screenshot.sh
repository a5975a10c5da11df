#!/usr/bin/env bash
# Screenshot of the GUI for the docs: runs fxray-gui on the bundled samples under a virtual X server, waits for
# its window, grabs the screen with ImageMagick and stops the app.
#   scripts/screenshot.sh [out.png] [path]     (FXRAY_GUI=<binary> to pick the build; default build-gui, build;
#   FXRAY_GUI_ARGS="--minimize G --until nan" adds options; FXRAY_SHOT_WAIT=seconds before the grab, default 3;
#   FXRAY_SHOT_SCREEN=WxH, default 1400x900)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/docs/screenshot-main.png}"
TARGET="${2:-$ROOT/samples}"
GUI="${FXRAY_GUI:-}"
if [[ -z "$GUI" ]]; then
  for dir in build-gui build; do
    if [[ -x "$ROOT/$dir/app/gui/fxray-gui" ]]; then GUI="$ROOT/$dir/app/gui/fxray-gui"; break; fi
  done
fi
[[ -x "$GUI" ]] || { echo "screenshot: no fxray-gui binary (build it, or set FXRAY_GUI)" >&2; exit 2; }
for tool in xvfb-run import xwininfo; do
  command -v "$tool" >/dev/null || { echo "screenshot: $tool is missing (scripts/bootstrap.sh installs it)" >&2; exit 2; }
done
mkdir -p "$(dirname "$OUT")"

# Inside the virtual display: no window manager, so the window is placed with -geometry to fill the screen.
SCREEN="${FXRAY_SHOT_SCREEN:-1400x900}"
xvfb-run -a -s "-screen 0 ${SCREEN}x24" bash -s -- "$GUI" "$TARGET" "$OUT" "${FXRAY_SHOT_WAIT:-3}" "$SCREEN" ${FXRAY_GUI_ARGS:-} <<'INNER'
set -euo pipefail
gui="$1"; target="$2"; out="$3"; wait_s="$4"; screen="$5"; shift 5
export QT_QPA_PLATFORM=xcb
export XDG_CONFIG_HOME="$(mktemp -d)"  # default window layout, not the one a developer saved
"$gui" -geometry "${screen}+0+0" "$@" "$target" >/tmp/fxray-screenshot.log 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if xwininfo -root -tree 2>/dev/null | grep -q '"fxray"'; then break; fi
  kill -0 "$pid" 2>/dev/null || { echo "screenshot: fxray-gui exited early:" >&2; cat /tmp/fxray-screenshot.log >&2; exit 1; }
  sleep 0.1
done
sleep "$wait_s"  # discovery, loading (and a minimize run) go on in the background: let them fill in
import -window root "$out"
kill "$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT
INNER
echo "wrote $OUT"
