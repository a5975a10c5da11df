"""`python -m fxray`: capture a script's torch.compile graphs without editing it, and say what is installed.

    python -m fxray capture [-o DIR] [--name NAME] script.py [args...]   # every torch.compile -> backend="fxray"
    python -m fxray capture [-o DIR] [--name NAME] -m package.module [args...]
    python -m fxray version                                               # this package, torch, the fxray program

`capture` runs the script as `python script.py args` would (same __main__, same sys.argv[1:]), with torch.compile
made to use fxray's capture backend whatever backend the script names (inductor's mode= and options= do not apply
to it and are dropped): the graphs run eagerly, so the script's results are eager results. Then it lists what was
written, and what failed to write (each with its <stem>.capture_error.txt). Exit status: the script's.
"""

from __future__ import annotations

import argparse
import os
import runpy
import shutil
import subprocess
import sys


def _patch_torch_compile() -> None:
    import torch

    from . import dynamo

    original = torch.compile

    def compile_with_fxray(model=None, *args, **kwargs):
        dropped = [k for k in ("backend", "mode", "options") if kwargs.pop(k, None) is not None]
        if dropped:
            print(f"[fxray] torch.compile({', '.join(dropped)}=...) -> backend=\"fxray\"", file=sys.stderr)
        return original(model, *args, backend=dynamo.fxray_backend, **kwargs)

    torch.compile = compile_with_fxray


def _summary() -> int:
    from . import dynamo

    written = errors = 0
    for b in dynamo.backends():
        for d in b.written:
            info = b.graph_info.get(d, {})
            print(f"[fxray] wrote {d} ({info.get('nodes', '?')} nodes)", file=sys.stderr)
        for e in b.errors:
            print(f"[fxray] lost {e['graph']} ({e['stage']}): {e['error'].splitlines()[0]}", file=sys.stderr)
        written += len(b.written)
        errors += len(b.errors)
    folder = dynamo.dump_target()[0]
    print(f"[fxray] {written} graph(s) written under {folder}, {errors} write failure(s); next: fxray info {folder}",
          file=sys.stderr)
    return errors


def _capture(ns: argparse.Namespace, rest: list[str]) -> int:
    if ns.out:
        os.environ["FXRAY_DUMP_DIR"] = os.path.abspath(ns.out)
    if ns.name:
        os.environ["FXRAY_DUMP_NAME"] = ns.name
    if not ns.module and not rest:
        print("python -m fxray capture: error: no script given (script.py [args] or -m module [args])", file=sys.stderr)
        return 2
    target = ns.module or rest[0]
    if not ns.module and not os.path.isfile(target):
        print(f"python -m fxray capture: error: {target}: no such file", file=sys.stderr)
        return 2
    _patch_torch_compile()
    sys.argv = [target, *(rest if ns.module else rest[1:])]
    code = 0
    try:
        if ns.module:
            runpy.run_module(ns.module, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
            runpy.run_path(target, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    _summary()
    return code


def _version() -> int:
    from . import __version__
    from .capture import torch_info

    t = torch_info()
    print(f"fxray (Python package) {__version__}")
    print(f"torch {t['version']} (CUDA {t['cuda'] or 'none'}, git {(t['git'] or 'unknown')[:12]})")
    # The program pip installed beside this Python (an environment that is not activated), else the one on PATH.
    beside = os.path.join(os.path.dirname(sys.executable), "fxray")
    exe = beside if os.access(beside, os.X_OK) else shutil.which("fxray")
    if exe:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True)
        print(f"{exe}:\n  " + "\n  ".join(out.stdout.strip().splitlines()))
    else:
        print("the fxray program is not on PATH (pip install <fxray checkout> builds it)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fxray", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run a script with every torch.compile writing fxray dumps")
    cap.add_argument("-o", "--out", help="dump folder (default: $FXRAY_DUMP_DIR, else ./fxray_dumps)")
    cap.add_argument("--name", help="dump name (default: $FXRAY_DUMP_NAME, else model)")
    cap.add_argument("-m", dest="module", help="run a module as `python -m` would")
    # Everything from the script on is the script's, options included.
    cap.add_argument("script", nargs=argparse.REMAINDER, help="script.py [args...] (or, after -m, the module's args)")
    sub.add_parser("version", help="this package's version, torch's, and the fxray program's")
    ns = parser.parse_args(argv)
    if ns.command == "capture":
        return _capture(ns, ns.script)
    return _version()


if __name__ == "__main__":
    sys.exit(main())
