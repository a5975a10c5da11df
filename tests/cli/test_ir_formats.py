#!/usr/bin/env python3
"""End-to-end: TorchScript IR text and lazy-tensor IR dumps (samples/cpu/torchscript, samples/cpu/ltc) through
`fxray info`, `show`, `diff`, `dot` and, where fxray has its replay engine, `replay` (TorchScript only).

Environment: FXRAY_BIN, FXRAY_SOURCE_DIR. Python 3 standard library only."""
import json
import os
import shutil
import tempfile

from cli_harness import SAMPLES, check, have_worker, main, run

TS = os.path.join(SAMPLES, "cpu", "torchscript")
LTC = os.path.join(SAMPLES, "cpu", "ltc")
REPLAY = have_worker()


def info(path):
    code, out, err = run("info", path, "--json")
    assert code == 0, err
    return {os.path.basename(g["address"]): g for g in json.loads(out)["graphs"]}


@check
def info_lists_every_fixture_with_its_format_and_counts():
    ts = info(TS)
    assert {k: (g["format"], g["nodes"]) for k, g in ts.items()} == {
        "mlp.ts.txt": ("torchscript", 13), "mlp_gelu.ts.txt": ("torchscript", 13), "cnn.ts.txt": ("torchscript", 16)}
    ltc = info(LTC)
    assert {k: g["format"] for k, g in ltc.items()} == {
        "mlp.ltc.txt": "ltc-ir", "mlp.ltc.dot": "ltc-dot", "mlp_backend.ts.txt": "torchscript",
        "mlp_gelu.ltc.txt": "ltc-ir", "mlp_gelu.ltc.dot": "ltc-dot", "mlp_gelu_backend.ts.txt": "torchscript"}
    assert all(g["nodes"] == 12 for g in ltc.values()), {k: g["nodes"] for k, g in ltc.items()}
    assert [i["meta"] for i in ts["mlp.ts.txt"]["inputs"]][:2] == ["f32[4, 8][8, 1]cpu", "f32[16, 8][8, 1]cpu"]
    assert [i["meta"] for i in ltc["mlp.ltc.txt"]["inputs"]] == ["f32[4, 5]", "f32[3, 4]", "f32[2, 3]"]


@check
def libtorch_importer_agrees_with_the_text_parser_and_names_overloads():
    # With LibTorch linked, io reads each TorchScript file with both parsers: any disagreement in nodes, names,
    # targets, arguments or metas is a warning; overloads come from the schemas.
    if not REPLAY:
        return
    for path in (TS, LTC):
        for name, g in info(path).items():
            assert g["warnings"] == [], (name, g["warnings"])
            if g["format"] != "torchscript":
                continue
            ops = [op for op in g["op_histogram"] if op.startswith("aten.")]
            assert ops and all(op.count(".") == 2 for op in ops), (name, ops)
    assert "aten.max.dim" in info(TS)["mlp.ts.txt"]["op_histogram"]
    assert "aten.mean.dim" in info(TS)["cnn.ts.txt"]["op_histogram"]


@check
def show_prints_fx_code_with_literals_and_metas():
    code, out, err = run("show", os.path.join(TS, "mlp.ts.txt"))
    assert code == 0, err
    overload = ".int" if REPLAY else ""
    assert f"log_softmax: \"f32[4, 3][3, 1]cpu\" = torch.ops.aten.log_softmax{overload}(linear, -1, None)" in out, out
    assert "return (log_softmax, (getitem, getitem_1))" in out
    code, out, err = run("show", os.path.join(TS, "cnn.ts.txt"))
    assert code == 0 and "conv_weight = self.conv.weight" in out, out
    code, out, err = run("show", os.path.join(LTC, "mlp.ltc.dot"))
    assert code == 0 and "torch.ops.aten.sum(mm_1, dim = 1, keepdim = 0, dtype = None)" in out, out


@check
def diff_of_torchscript_variants_names_the_changes():
    code, out, err = run("diff", os.path.join(TS, "mlp.ts.txt"), os.path.join(TS, "mlp_gelu.ts.txt"), "--json")
    assert code == 1, (code, err)
    d = json.loads(out)
    assert d["counts"]["ops"] == {"same": 5, "changed": 1, "added": 1, "removed": 1}, d["counts"]
    assert d["counts"]["inputs"]["changed"] == 3


@check
def diff_of_lazy_dumps():
    # The text and DOT dumps of one computation are the same graph; the gelu variant differs in one op.
    code, out, err = run("diff", os.path.join(LTC, "mlp.ltc.txt"), os.path.join(LTC, "mlp.ltc.dot"), "--json")
    assert code == 0 and json.loads(out)["equal"], (code, out, err)
    code, out, err = run("diff", os.path.join(LTC, "mlp.ltc.txt"), os.path.join(LTC, "mlp_gelu.ltc.txt"), "--json")
    assert code == 1, (code, err)
    assert json.loads(out)["counts"]["ops"] == {"same": 6, "changed": 1, "added": 1, "removed": 1}


@check
def dot_writes_every_fixture():
    with tempfile.TemporaryDirectory() as tmp:
        for d in (TS, LTC):
            for name in sorted(os.listdir(d)):
                if name.endswith(".pt"):
                    continue
                out = os.path.join(tmp, name + ".dot")
                code, _, err = run("dot", os.path.join(d, name), "-o", out)
                assert code == 0, (name, err)
                assert open(out).read().startswith("digraph"), name


@check
def replay_checks_torchscript_types():
    if not REPLAY:
        return
    for name, nodes in (("mlp.ts.txt", 13), ("mlp_gelu.ts.txt", 13), ("cnn.ts.txt", 16)):
        code, out, err = run("replay", os.path.join(TS, name), "--json")
        r = json.loads(out)
        assert code == 0 and r["verdict"] == "pass", (name, code, err, r["counts"])
        assert r["counts"]["passed"] == nodes, (name, r["counts"])
    # A recorded type that the computation does not produce is a mismatch at that node.
    with tempfile.TemporaryDirectory() as tmp:
        text = open(os.path.join(TS, "mlp.ts.txt")).read()
        wrong = text.replace("%h : Float(4, 16, strides=[16, 1]", "%h : Float(4, 16, strides=[1, 4]")
        assert wrong != text
        path = os.path.join(tmp, "wrong.ts.txt")
        open(path, "w").write(wrong)
        code, out, err = run("replay", path, "--json")
        r = json.loads(out)
        assert code == 1 and r["verdict"] == "mismatch", (code, err, r["verdict"])
        assert [n["name"] for n in r["nodes"] if n["status"] == "mismatch"] == ["h"]
        # cnn's parameters come from cnn.state_dict.pt beside it; without it the get_attr nodes fail by name.
        shutil.copy(os.path.join(TS, "cnn.ts.txt"), os.path.join(tmp, "cnn.ts.txt"))
        code, out, err = run("replay", os.path.join(tmp, "cnn.ts.txt"), "--json")
        r = json.loads(out)
        assert code == 1 and r["counts"]["error"] == 8, (code, r["counts"])


@check
def replay_of_shapeless_and_lazy_graphs_says_why():
    if not REPLAY:
        return
    code, out, err = run("replay", os.path.join(LTC, "mlp_backend.ts.txt"))
    assert code != 0 and "input 'p0' has no recorded metadata" in out + err, (code, out, err)
    # lazy-tensor IR names ops without an overload and leaves out arguments (half_to_float, keepdim): resolved as a
    # packet by its operands, the node says which overload wanted what
    code, out, err = run("replay", os.path.join(LTC, "mlp.ltc.txt"))
    assert code != 0 and "no overload of aten::_softmax fits the call" in out + err, (code, out, err)


@check
def bad_torchscript_is_an_error_with_file_and_line():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bad.ts.txt")
        open(path, "w").write("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n")
        for cmd in ("info", "show"):
            code, out, err = run(cmd, path)
            assert code == 2 and "bad.ts.txt:2: undefined value %z" in out + err, (cmd, code, out, err)


if __name__ == "__main__":
    main()
