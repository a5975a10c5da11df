"""What capture left on disk, read without fxray: graph folders written, graphs lost (capture_error files with
their stage and reason), and the graph records a TORCH_TRACE log holds (counted independently of fxray's loader,
so "all records load" is checked against the log itself)."""
import json
import os
import re

# A record header: level, MMDD, time, pid, source:line] {json}
_HEADER = re.compile(r"^[VIWEC]\d{4} [\d:.]+ +\d+ [^\]]+\] (\{.*\})\s*$")
_GRAPH_RECORDS = {"dynamo_output_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph",
                  "aot_inference_graph", "compiled_autograd_graph", "exported_program"}
_META_KEYS = {"frame_id", "frame_compile_id", "attempt", "has_payload", "rank", "compiled_autograd_id"}


def graph_folders(dumps: str) -> list:
    """Seed-layout graph folders (module.py + <stem>.input) under dumps."""
    found = []
    for root, dirs, files in os.walk(dumps):
        dirs.sort()
        if "module.py" in files:
            found.append(root)
    return found


def capture_errors(dumps: str) -> list:
    """[{graph, stage, error}] from every <stem>.capture_error.txt (one entry per recorded failure)."""
    out = []
    for root, _, files in os.walk(dumps):
        for f in sorted(files):
            if not f.endswith(".capture_error.txt"):
                continue
            entry = {}
            for line in open(os.path.join(root, f), errors="replace"):
                key, sep, value = line.partition(": ")
                if key in ("graph", "stage", "error") and sep:
                    if key == "graph" and entry.get("graph"):  # next failure of the same graph
                        out.append(entry)
                        entry = {}
                    entry[key] = value.strip()
            if entry:
                out.append(entry)
    return out


def lost_graphs(dumps: str) -> list:
    """Failures that cost a whole graph (its module.py), as opposed to its inputs or eager outputs."""
    return [e for e in capture_errors(dumps) if e.get("stage") == "graph"]


def _record_name(header: dict) -> str:
    if "artifact" in header:
        return header["artifact"].get("name", "")
    return next((k for k in header if k not in _META_KEYS), "")


def trace_graph_records(trace_dir: str) -> list:
    """(file, record name) of every graph record in the TORCH_TRACE logs of trace_dir."""
    records = []
    if not os.path.isdir(trace_dir):
        return records
    for f in sorted(os.listdir(trace_dir)):
        path = os.path.join(trace_dir, f)
        for line in open(path, errors="replace"):
            m = _HEADER.match(line)
            if not m:
                continue
            try:
                name = _record_name(json.loads(m.group(1)))
            except ValueError:
                continue
            if name in _GRAPH_RECORDS or name.endswith("_graph") or name.startswith("fx_graph_runnable"):
                records.append((path, name))
    return records
