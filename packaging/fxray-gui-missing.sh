#!/bin/sh
# Installed as fxray-gui when fxray was built without Qt6: says why there is no GUI and how to get one.
echo "fxray-gui: this fxray was built without its GUI: Qt6's development files were not found at build time." >&2
echo "  Debian/Ubuntu: sudo apt install qt6-base-dev qt6-svg-dev libgl1-mesa-dev" >&2
echo "  then build again: pip install --no-build-isolation <fxray checkout>   (or scripts/build.sh)" >&2
echo "  The command line works without it: fxray --help" >&2
exit 2
