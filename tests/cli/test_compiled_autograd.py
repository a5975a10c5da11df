"""Compiled-autograd graphs in TORCH_TRACE logs (samples/cpu/trace/compiled_autograd*.log, real torch 2.11 CPU runs):
`fxray info` lists them under their "[!N]" id, `show` prints them with the metadata of their compile, `diff` shows
what a hook adds, and `replay` runs the hook-free graph's aten part natively while naming every node that needs
Python (a hook, autograd nodes run through Python)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import SAMPLES, check, have_worker, main, run  # noqa: E402

TRACE = os.path.join(SAMPLES, "cpu", "trace")
REPLAY = have_worker()  # builds without LibTorch (the ASan stage) have no `fxray replay`


def replay_check(fn):
    """A check that needs `fxray replay`: registered only where this fxray has it."""
    return check(fn) if REPLAY else fn


def ca(log):
    return os.path.join(TRACE, log) + "#!0/compiled_autograd_graph"


def replay_json(address, *extra):
    code, out, err = run("replay", address, "--json", *extra)
    assert code in (0, 1), f"exit {code}: {err}"
    return code, json.loads(out)


@check
def info_lists_the_compiled_autograd_graph_with_its_id_and_counts():
    code, out, err = run("info", os.path.join(TRACE, "compiled_autograd.log"), "--json")
    assert code == 0, err
    graphs = [g for g in json.loads(out)["graphs"] if g["kind"] == "compiled_autograd"]
    assert len(graphs) == 1, graphs
    g = graphs[0]
    assert g["address"] == ca("compiled_autograd.log"), g["address"]
    assert g["group"] == "[!0]" and g["nodes"] == 48, g


@check
def show_prints_helpers_and_the_metadata_of_its_compile():
    code, out, err = run("show", ca("compiled_autograd.log"))
    assert code == 0, err
    assert "def forward(self, inputs, sizes, scalars, hooks, packed_data):" in out
    assert 'getitem_1: "f32[4, 8][8, 1]cpu" = inputs[1]' in out, out[:800]
    assert "torch__dynamo_compiled_autograd_call_aot_bwd_prologue((getitem_1, getitem_2, getitem_3, getitem_4), [], [], getitem_22)" in out
    assert "device(type='cpu')" in out


@check
def diff_shows_the_hook_call_that_the_hook_adds():
    code, out, err = run("diff", ca("compiled_autograd.log"), ca("compiled_autograd_hook.log"), "--json")
    assert code == 1, (code, err)
    data = json.loads(out)
    added = sorted(n["b"] for n in data["nodes"] if n["status"] == "added")
    assert added == ["call_hook", "getitem_29"], added
    assert data["counts"]["ops"]["same"] == 42, data["counts"]


@replay_check
def hook_free_graph_replays_every_node_on_cpu():
    code, r = replay_json(ca("compiled_autograd.log"))
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("fatal"), r["unsupported"])
    assert r["counts"]["passed"] == 48, r["counts"]
    by = {n["name"]: n for n in r["nodes"]}
    # the helpers ran natively, through fxray's fxray_ca operators
    assert by["call_aot_bwd_prologue"]["schema"].startswith("fxray_ca::aot_bwd_prologue"), by["call_aot_bwd_prologue"]
    assert by["call_accumulate_grad"]["status"] == "passed"
    # and checked against what the compile recorded
    assert by["aot0_mm_2"]["outputs"][0]["meta"].startswith("f32[16, 8]"), by["aot0_mm_2"]["outputs"]
    assert r["notes"] == [], r["notes"]  # CPU replay: no scalar moves


@replay_check
def graph_with_a_hook_says_up_front_that_the_hook_needs_python():
    code, r = replay_json(ca("compiled_autograd_hook.log"))
    assert code == 1 and r["verdict"] == "unsupported", r["verdict"]
    assert r["unsupported"] == ["needs Python: call_hook runs a user hook (tensor_pre_hook): call_hook"], r["unsupported"]
    by = {n["name"]: n for n in r["nodes"]}
    assert by["call_hook"]["status"] == "unsupported"
    assert by["call_accumulate_grad_3"]["status"] == "skipped"  # fed by the hook
    assert r["counts"]["passed"] == 48, r["counts"]


@replay_check
def autograd_nodes_run_through_python_are_named_and_missing_sizes_are_fatal():
    code, r = replay_json(ca("compiled_autograd_eager.log"))
    assert code == 1
    lines = r["unsupported"]
    assert any("autograd node MulBackward0" in u and u.endswith(": mul_backward0") for u in lines), lines
    assert all(u.startswith("needs Python:") for u in lines), lines
    assert "sizes[0] (getitem_10) has no recorded metadata" in r["fatal"], r["fatal"]


@check
def a_truncated_log_is_an_error_not_a_crash():
    import tempfile

    text = open(os.path.join(TRACE, "compiled_autograd.log"), encoding="utf-8").read()
    start = text.index('{"compiled_autograd_graph"')
    cut = text[: text.index("validate_outputs", start)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cut.log")
        open(path, "w", encoding="utf-8").write(cut)
        code, out, err = run("show", path + "#!0/compiled_autograd_graph")
        assert code == 2, (code, out[:200], err)
        assert "cut.log:" in err, err


if __name__ == "__main__":
    if not REPLAY:
        print("fxray was built without LibTorch: replay checks skipped")
    main()
