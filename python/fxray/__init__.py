"""fxray's Python side: the capture backend that writes torch.compile graphs for fxray to read.

    import torch
    compiled = torch.compile(model, backend="fxray")    # dumps under $FXRAY_DUMP_DIR (default ./fxray_dumps)

or, naming the dump and its folder: ``torch.compile(model, backend=fxray.backend("mlp", "dumps"))``. The viewer,
replayer and minimizer are the `fxray` and `fxray-gui` programs installed beside this package. Importing `fxray`
does not import torch (``python -m fxray --help`` stays instant); the capture names load it on first use.
"""

from __future__ import annotations

import os
import re


def _version() -> str:
    """The installed distribution's version; in a checkout, the one CMakeLists.txt's project() declares."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("fxray")
        except PackageNotFoundError:
            pass
    except ImportError:  # pragma: no cover - Python < 3.8
        pass
    cmake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "CMakeLists.txt")
    try:
        with open(cmake) as f:
            m = re.search(r"project\(fxray VERSION ([0-9.]+)", f.read())
        return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


__version__ = _version()

_CAPTURE_NAMES = ("backend", "graph_dumper_aot", "CaptureBackend", "torch_info")


def __getattr__(name: str):
    if name in _CAPTURE_NAMES:
        from . import capture

        return getattr(capture, name)
    raise AttributeError(f"module 'fxray' has no attribute {name!r}")


__all__ = ["__version__", *_CAPTURE_NAMES]
