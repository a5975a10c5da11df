#!/usr/bin/env bash
# THE run command: sets up, builds and opens the fxray GUI on the bundled samples (or on the path given).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec ./build/app/gui/fxray-gui "${@:-samples}"
