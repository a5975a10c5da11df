"""Shared by the fixture generators that write a TORCH_TRACE log (tests/data/*/make_*.py): the generator runs itself
again in a child with TORCH_TRACE set, where it compiles; this moves the one log the child wrote to where the tests
read it."""
import glob
import os
import shutil
import subprocess
import sys


def write_trace_log(script, log_path):
    """Runs `script` under TORCH_TRACE (caches off: every graph is compiled and logged) and moves its log to
    `log_path`."""
    trace = log_path + ".trace"
    shutil.rmtree(trace, ignore_errors=True)
    subprocess.run([sys.executable, os.path.abspath(script)], check=True,
                   env={**os.environ, "TORCH_TRACE": trace, "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"})
    (log,) = glob.glob(os.path.join(trace, "*.log"))
    shutil.move(log, log_path)
    shutil.rmtree(trace)
