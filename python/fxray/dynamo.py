"""`torch.compile(model, backend="fxray")`: the capture backend under a name, found through the
`torch_dynamo_backends` entry point that pyproject.toml declares (torch looks the name up there).

Where it writes: $FXRAY_DUMP_DIR (default ./fxray_dumps, resolved when the first graph compiles), the dumps named
$FXRAY_DUMP_NAME (default "model"): <dir>/<name>/<name>_{forward,backward,joint}_<i>/ with real inputs (.pt),
eager outputs (.expected.pt), random state (.rng.pt) and node_meta.json (fxray/capture.py). Under torchrun (RANK
and WORLD_SIZE > 1 in the environment) each rank writes <name>_rank<R>, as tools/corpus's distributed capture does,
so ranks never overwrite each other. One backend per (folder, name) per process: every compile of the process
shares its graph numbering, so two models' graphs never take the same folder.
"""

from __future__ import annotations

import os
import threading
from typing import Any

DEFAULT_DUMP_DIR = "fxray_dumps"
DEFAULT_NAME = "model"

_lock = threading.Lock()
_backends: dict[tuple[str, str], Any] = {}


def dump_target() -> tuple[str, str]:
    """(folder, name) the next compile writes to, from the environment."""
    folder = os.path.abspath(os.environ.get("FXRAY_DUMP_DIR") or DEFAULT_DUMP_DIR)
    name = os.environ.get("FXRAY_DUMP_NAME") or DEFAULT_NAME
    rank, world = os.environ.get("RANK"), os.environ.get("WORLD_SIZE")
    if rank is not None and world is not None and world.isdigit() and int(world) > 1:
        name = f"{name}_rank{rank}"
    return folder, name


def current_backend():
    """The process's CaptureBackend for the environment's (folder, name), created on first use."""
    from .capture import CaptureBackend

    key = dump_target()
    with _lock:
        b = _backends.get(key)
        if b is None:
            b = _backends[key] = CaptureBackend(key[1], key[0])
        return b


def backends() -> list:
    """Every backend this process has used (what `python -m fxray capture` summarizes)."""
    with _lock:
        return list(_backends.values())


def fxray_backend(gm, example_inputs, **_ignored: Any):
    """The `torch_dynamo_backends` entry point: torch.compile calls it once per Dynamo graph."""
    return current_backend()(gm, example_inputs)
