"""Compiled-autograd graphs in TORCH_TRACE logs (samples/cpu/trace/compiled_autograd*.log, real torch 2.11 CPU runs):
`fxray info` lists them under their "[!N]" id, `show` prints them with the metadata of their compile, `diff` shows
what a hook adds, and `replay` runs the hook-free graph natively (autograd nodes as LibTorch's own nodes) while naming
every node that needs Python (a hook)."""
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
def autograd_nodes_run_natively_and_a_size_the_log_gives_no_value_for_is_fatal():
    # The dynamo graph of the compiled-autograd compile calls MulBackward0, AddmmBackward0, GeluBackward0, SumBackward0,
    # TBackward0 and AccumulateGrad: each runs as LibTorch's own node, and every node checks against the record.
    code, r = replay_json(os.path.join(TRACE, "compiled_autograd_eager.log") + "#0/0/dynamo_output_graph")
    assert code == 0 and r["verdict"] == "pass", (r["verdict"], r.get("fatal"), r["unsupported"])
    by = {n["name"]: n for n in r["nodes"]}
    assert "generated::AddmmBackward0::apply" in by["addmm_backward0"]["schema"], by["addmm_backward0"]["schema"]
    # The raw graph: its sizes come from that dynamo graph (placeholders L_sizes_<k>_, f32[0, n]); sizes[6] became
    # symbol s57 there, and this log (trimmed) holds no create_symbol record with its value: named, not guessed.
    code, r = replay_json(ca("compiled_autograd_eager.log"))
    assert code == 1 and r["unsupported"] == [], r["unsupported"]
    assert "sizes[6] (getitem_16) has no recorded metadata" in r["fatal"], r["fatal"]


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
