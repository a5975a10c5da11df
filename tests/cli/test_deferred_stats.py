"""Checked replay's value checks read the device back once per replay, not once per node (core/replay/engine/deferred_checks.h):
the statistics are reduced into one buffer, and where NaN/Inf first appears is decided over the read-back rows. These
checks hold the report to what the per-node read-back gave: the same NaN origin, the same numbers as PyTorch eager's
own per-node values, the same stop with --stop-on-first, across read-backs of a buffer that fills up mid-graph.
Skipped (0 checks) in a build without LibTorch."""
import json
import os
import re
import sys

from cli_harness import SAMPLES, SOURCE, check, main, run

FAULTS = os.path.join(SOURCE, "tests", "data", "faults")
NAN_SOURCE = os.path.join(FAULTS, "nan_source", "mlp_forward_0")


def replay_json(path, *extra, env=None):
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        code, out, err = run("replay", path, "--json", *extra)
    finally:
        os.environ.clear()
        os.environ.update(old)
    assert code in (0, 1), f"exit {code}: {err}"
    return json.loads(out)


def node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


def numbers(report):
    """Per node: status, NaN/Inf verdicts and every output's statistics (timings left out)."""
    keys = ("nan", "inf", "min", "max", "mean", "numel", "meta")
    return {n["name"]: (n["status"], n.get("nan_origin"), n.get("nonfinite_constant"),
                        [tuple(o.get(k) for k in keys) for o in n.get("outputs", [])]) for n in report["nodes"]}


@check
def nan_origin_is_named_as_with_a_read_back_per_node():
    # --stop-on-first reads back after every node (it must know the origin before the next node runs): the
    # per-node path. The default reads once at the end; the worker and --in-process alike.
    per_node = replay_json(NAN_SOURCE, "--stop-on-first", "--in-process")
    for extra in ((), ("--in-process",)):
        r = replay_json(NAN_SOURCE, *extra)
        assert r["verdict"] == "nan" and r["first_nan_node"] == "relu", (extra, r["verdict"], r["first_nan_node"])
        assert node(r, "relu").get("nan_origin") is True
        # downstream of the origin: NaN counted, not an origin itself
        assert node(r, "addmm_1")["outputs"][0]["nan"] > 0 and not node(r, "addmm_1").get("nan_origin")
        assert node(r, "alias")["outputs"][0]["nan"] > 0 and not node(r, "alias").get("nan_origin")
        assert per_node["first_nan_node"] == "relu"
        for name, (status, origin, constant, outs) in numbers(per_node).items():
            if status == "not-run":
                continue
            assert numbers(r)[name] == (status, origin, constant, outs), (extra, name)


@check
def stop_on_first_stops_at_an_early_nan_and_runs_nothing_after_it():
    r = replay_json(NAN_SOURCE, "--stop-on-first", "--in-process")
    names = [n["name"] for n in r["nodes"]]
    at = names.index("relu")
    assert r["first_nan_node"] == "relu" and node(r, "relu").get("nan_origin") is True
    assert node(r, "relu")["outputs"][0]["nan"] > 0
    assert all(n["status"] == "not-run" for n in r["nodes"][at + 1:]), [n["status"] for n in r["nodes"][at + 1:]]


@check
def a_buffer_read_back_many_times_gives_the_same_report():
    # Two rows per read-back: the origin is decided across read-backs (its input's verdict came from an earlier one).
    for path in (NAN_SOURCE, os.path.join(SAMPLES, "cpu", "dumps", "cnn_channels_last", "cnn_channels_last_backward_0")):
        once = replay_json(path, "--in-process")
        chunked = replay_json(path, "--in-process", env={"FXRAY_STATS_ROWS": "2"})
        assert chunked["first_nan_node"] == once["first_nan_node"] and chunked["verdict"] == once["verdict"], path
        assert numbers(chunked) == numbers(once), path


def eager_node_stats(folder):
    """Runs the dump's module.py statement by statement on its saved inputs and computes, after each assignment,
    the statistics exactly as the per-node read-back did (isnan/isinf sums, min, max, double sum / numel)."""
    import torch  # the test runs under FXRAY_PYTHON (with torch); only this check needs it
    src = open(os.path.join(folder, "module.py")).read()
    body = src[src.index("def forward"):]
    params = [p.strip().split(":")[0] for p in re.search(r"def forward\(self, (.*?)\):", body, re.S).group(1).split(",")]
    name = os.path.basename(folder)
    inputs = torch.load(os.path.join(folder, name + ".pt"), map_location="cpu")
    scope = {"torch": torch, "inf": float("inf"), "nan": float("nan"), "device": torch.device}
    scope.update(zip(params, inputs))
    stats = {}
    for line in body.split("\n")[1:]:
        m = re.match(r"\s+(\w+) = (.*)$", line)
        if not m or line.strip().startswith("return"):
            continue
        exec(line.strip().replace("device(type='cuda'", "device(type='cpu'"), scope)
        value = scope[m.group(1)]
        tensors = [value] if isinstance(value, torch.Tensor) else [v for v in value if isinstance(v, torch.Tensor)] \
            if isinstance(value, (tuple, list)) else []
        rows = []
        for t in tensors:
            if t.numel() == 0 or t.dtype == torch.bool or t.is_complex():
                rows.append(None)
                continue
            fl = t.is_floating_point()
            rows.append((int(torch.isnan(t).sum()) if fl else 0, int(torch.isinf(t).sum()) if fl else 0,
                         float(t.min()), float(t.max()), float(torch.sum(t, dtype=torch.float64) / t.numel())))
        stats[m.group(1)] = rows
    return stats


@check
def statistics_equal_eager_per_node_values_on_a_real_graph():
    import torch
    torch.set_num_threads(1)  # the same reduction order as fxray's one thread (OMP_NUM_THREADS=1 below)
    for rel in ("cnn_channels_last/cnn_channels_last_forward_0", "mlp/mlp_backward_0"):
        folder = os.path.join(SAMPLES, "cpu", "dumps", rel)
        eager = eager_node_stats(folder)
        r = replay_json(folder, "--inputs", "saved", "--in-process", env={"OMP_NUM_THREADS": "1"})
        assert r["verdict"] == "pass", (rel, r["verdict"])
        compared = 0
        for n in r["nodes"]:
            if n["name"] not in eager or n["target"] in ("placeholder", "output"):
                continue
            want = [w for w in eager[n["name"]]]
            got = [(o["nan"], o["inf"], o["min"], o["max"], o["mean"]) if "min" in o else None for o in n["outputs"]]
            assert got == want, (rel, n["name"], got, want)
            compared += sum(1 for w in want if w is not None)
        assert compared >= 10, (rel, compared)


if __name__ == "__main__":
    code, out, _ = run("--help")
    if "\n  replay " not in out:  # the command table lists it only in builds with LibTorch
        print("fxray was built without LibTorch: replay checks skipped")
        print("0 passed, 0 failed")
        sys.exit(0)
    main()
