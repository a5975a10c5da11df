"""fxray_capture: the capture backend's old name, kept for the scripts and tests that import it by path.

The backend lives in the Python package `fxray` (python/fxray/capture.py), which `pip install` puts in the user's
environment (`torch.compile(model, backend="fxray")`). Importing this file makes `fxray_capture` *be* that
module (same object: monkeypatching and private names work as before), taken from this checkout's python/ folder
so that tools/ and tests always run the capture code beside them, not an older installed copy.
"""

import os
import sys

_PACKAGE_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
if _PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, _PACKAGE_ROOT)

from fxray import capture as _capture  # noqa: E402

sys.modules[__name__] = _capture
