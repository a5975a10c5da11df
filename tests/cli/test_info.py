"""`fxray info`: every graph under samples/ is found and loaded, with the node counts the dumps hold."""
import json
import os
import re

from cli_harness import SAMPLES, check, main, run


def info_json(path):
    code, out, err = run("info", path, "--json")
    assert code == 0, f"exit {code}: {err}"
    return json.loads(out)


def count_nodes_in_readable(path):
    """Node count straight from a readable file: placeholders in the signature + assigned nodes + output."""
    text = open(path).read()
    sig = re.search(r"def forward\(self, (.*?)\):", text, re.S)
    body_nodes = len(re.findall(r"^        [A-Za-z_][A-Za-z0-9_]*(?:: \"[^\"]*\")? = ", text, re.M))
    if "tree_flatten_spec" in text:  # pytree form: placeholders are declared as bare annotations
        targets = re.search(r"^\s+([\w, ]+)= fx_pytree\.tree_flatten_spec", text, re.M).group(1)
        return len([t for t in targets.split(",") if t.strip()]) + body_nodes + 1
    params = re.findall(r"(\w+)(?:: \"[^\"]*\")?(?:,|$)", sig.group(1))
    return len([p for p in params if p != "self"]) + body_nodes + 1


@check
def finds_every_seed_dump_and_trace_graph_in_samples():
    data = info_json(SAMPLES)
    graphs = data["graphs"]
    assert not data["errors"], data["errors"]
    seed = [g for g in graphs if g["format"] == "seed"]
    trace = [g for g in graphs if g["format"] == "trace"]
    debug = [g for g in graphs if g["format"] == "compile-debug"]
    # 3 models x (forward, backward, joint) on the H100 and on CPU
    assert len(seed) == 18, [g["address"] for g in seed]
    # The H100 trace: 2 frames x (dynamo, 2 pre-grad, joint, fwd, bwd, 2x before_post_grad, 2x post_grad, 2x runnable)
    h100 = [g for g in trace if "mlp_encoder_inductor" in g["address"]]
    assert len(h100) == 24, len(h100)
    assert len(debug) >= 2
    assert all("nodes" in g for g in graphs)


@check
def node_counts_match_the_readable_files():
    data = info_json(os.path.join(SAMPLES, "h100", "dumps"))
    for g in data["graphs"]:
        folder = g["address"]
        readable = os.path.join(folder, os.path.basename(folder) + ".readable.py")
        assert g["nodes"] == count_nodes_in_readable(readable), (folder, g["nodes"])
    mlp = next(g for g in data["graphs"] if g["address"].endswith("mlp_forward_0"))
    assert mlp["nodes"] == 12 and mlp["ops"] == 6
    assert mlp["op_histogram"] == {"aten.addmm.default": 2, "aten.alias.default": 1, "aten.relu.default": 1,
                                   "aten.t.default": 2}


@check
def inputs_carry_dtype_shape_stride_device():
    data = info_json(os.path.join(SAMPLES, "h100", "dumps", "cnn_channels_last", "cnn_channels_last_forward_0"))
    (g,) = data["graphs"]
    x = next(i for i in g["inputs"] if i["shape"] == [8, 3, 32, 32] or len(i["shape"]) == 4 and i["stride"][1] == 1)
    assert x["source"] == "input-pickle"
    assert x["stride"][1] == 1, x  # channels-last: C has stride 1
    assert x["device"] == "cuda:0"
    data = info_json(os.path.join(SAMPLES, "h100", "dumps", "embed_ce", "embed_ce_forward_0"))
    assert any(i.get("dtype") == "int64" for i in data["graphs"][0]["inputs"])


@check
def trace_addresses_are_usable_on_the_command_line():
    data = info_json(os.path.join(SAMPLES, "h100", "trace"))
    for g in data["graphs"]:
        again = info_json(g["address"])
        assert len(again["graphs"]) == 1 and again["graphs"][0]["nodes"] == g["nodes"], g["address"]
    fwd = [g for g in data["graphs"] if g["address"].endswith("#0/0/aot_forward_graph")]
    assert len(fwd) == 1 and fwd[0]["trace"]["frame_id"] == 0 and fwd[0]["kind"] == "forward"


@check
def identical_graphs_are_grouped():
    data = info_json(os.path.join(SAMPLES, "h100", "trace"))
    groups = data["identical_groups"]
    assert any(any(a.endswith("#0/0/dynamo_output_graph") for a in grp) and
               any(a.endswith("#0/0/before_pre_grad_graph") for a in grp) for grp in groups), groups


@check
def text_output_lists_addresses_and_a_summary():
    code, out, _ = run("info", os.path.join(SAMPLES, "h100", "dumps"))
    assert code == 0
    assert "mlp_forward_0" in out and "9 graph(s), 0 could not be loaded" in out


if __name__ == "__main__":
    main()
