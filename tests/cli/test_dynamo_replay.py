"""Dynamo-level graphs (issue 16) replay natively: torch functions, Tensor methods, Python operators and indexing
on tensors resolve to aten overloads through LibTorch's schemas or to native steps, are checked like aten nodes,
and compute what eager and the AOT graph of the same compile compute on the same inputs. What cannot be resolved
is named, with the reason, before the replay starts."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cli_harness import FXRAY, SOURCE, check, have_worker, main  # noqa: E402

if not have_worker():
    print("fxray has no replay in this build: skipped")
    sys.exit(0)

import dynamo_fixtures as fx  # noqa: E402  (needs torch: FXRAY_PYTHON)
import torch  # noqa: E402

TMP = tempfile.mkdtemp(prefix="fxray-dynamo-")
MODULES = ("mlp", "conv_bn", "attention", "embedding", "multihead", "autocast", "decoder")
CAPTURED = {name: fx.capture(TMP, name) for name in MODULES}

# Calls whose overload the resolution must pick, with what each is chosen for (in the comments).
OVERLOADS = '''
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 3][3, 1]cpu", L_y_: "f32[2, 3][3, 1]cpu", L_img_: "f32[1, 2, 4, 4][32, 16, 4, 1]cpu"):
        l_x_ = L_x_
        l_y_ = L_y_
        l_img_ = L_img_
        pool: "f32[1, 2, 1, 1][2, 1, 1, 1]cpu" = torch.nn.functional.adaptive_avg_pool2d(l_img_, 1)
        eq: "b8[2, 3][3, 1]cpu" = l_x_.__eq__(l_y_)
        rsub: "f32[2, 3][3, 1]cpu" = l_x_.__rsub__(1)
        mul: "f32[2, 3][3, 1]cpu" = l_x_.mul(2)
        mul_1: "f32[2, 3][3, 1]cpu" = l_x_.mul(l_y_)
        view: "f32[3, 2][2, 1]cpu" = mul.view(3, 2)
        sum_1: "f32[2][1]cpu" = torch.sum(mul_1, 1)
        size = l_x_.size()
        getitem = size[1]
        mul_2: "f32[2, 3][3, 1]cpu" = getitem * l_y_
        sub: "f32[2, 3][3, 1]cpu" = 1 - l_y_
        pow_1: "f32[2, 3][3, 1]cpu" = 2 ** l_x_
        softmax: "f32[2, 3][3, 1]cpu" = torch.nn.functional.softmax(l_x_, dim = -1, _stacklevel = 5)
        relu: "f32[2, 3][3, 1]cpu" = torch.nn.functional.relu(mul_2, inplace = True)
        to: "f64[2, 3][3, 1]cpu" = l_y_.to('cpu', torch.float64)
        half: "f16[2, 3][3, 1]cpu" = l_y_.half()
        getitem_1: "f32[2, 1][3, 1]cpu" = l_x_[(slice(None, None, None), slice(1, 2, None))]
        getitem_2: "f32[1, 3][3, 1]cpu" = l_x_[(None, -1)]
        shape = getattr(l_x_, 'shape')
        getitem_3 = shape[slice(1, None, None)]
        expand: "f32[4, 2, 3][0, 3, 1]cpu" = l_x_.expand(4, 2, 3)
        new_zeros: "f32[2, 3][3, 1]cpu" = l_y_.new_zeros(size)
        return (view, sum_1, sub, pow_1, softmax, relu, to, half, getitem_1, getitem_2, getitem_3, expand, pool, eq, rsub, new_zeros)
'''

UNRESOLVABLE = '''
class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[1, 2, 4, 4][32, 16, 4, 1]cpu", L_ids_: "i64[3][1]cpu", L_w_: "f32[5, 2][2, 1]cpu"):
        l_x_ = L_x_
        l_ids_ = L_ids_
        l_w_ = L_w_
        interpolate: "f32[1, 2, 8, 8][128, 64, 8, 1]cpu" = torch.nn.functional.interpolate(l_x_, scale_factor = 2, mode = 'area')
        dtype = getattr(l_x_, 'dtype')
        helper: "f32[1, 2, 4, 4][32, 16, 4, 1]cpu" = my_library.helper(l_x_)
        embedding: "f32[3, 2][2, 1]cpu" = torch.nn.functional.embedding(l_ids_, l_w_, None, 1.0)
        relu: "f32[1, 2, 4, 4][32, 16, 4, 1]cpu" = torch.relu(l_x_)
        return (interpolate, helper, embedding, relu)
'''


def replay_json(path, *extra):
    p = subprocess.run([FXRAY, "replay", path, "--json", *extra], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), f"exit {p.returncode}: {p.stderr}"
    return json.loads(p.stdout)


def write(name, text):
    path = os.path.join(TMP, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    return path


def node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


def assert_clean_pass(report, what):
    assert report["verdict"] == "pass", (what, report["verdict"], report.get("unsupported"), report.get("fatal"))
    assert not report.get("unsupported"), (what, report["unsupported"])
    bad = [(n["name"], n["status"], n.get("error")) for n in report["nodes"] if n["status"] != "passed"]
    assert not bad, (what, bad)


def compared(report):
    """The outputs' comparisons with the saved eager outputs: each must have been compared and be within tolerance."""
    comparisons = report["comparisons"]
    assert comparisons and all(c["compared"] and c["ok"] for c in comparisons), comparisons
    return comparisons


@check
def dynamo_graphs_of_small_modules_replay_with_every_node_resolved_and_checked():
    for name in MODULES:
        dynamo_dir, _ = CAPTURED[name]
        r = replay_json(dynamo_dir, "--inputs", "saved", "--expected", "auto")
        assert_clean_pass(r, name)
        compared(r)
        calls = [n for n in r["nodes"] if n["target"] not in ("placeholder", "output", "getitem")]
        assert calls and all(n.get("schema") for n in calls), [(n["name"], n.get("schema")) for n in calls]


@check
def dynamo_graph_outputs_equal_the_aot_graph_of_the_same_compile_on_the_same_inputs():
    # The start of the stage compare: the two stages of one compile, replayed on the saved inputs.
    for name in MODULES:
        dynamo_dir, aot_dir = CAPTURED[name]
        dynamo = replay_json(dynamo_dir, "--inputs", "saved", "--expected", "auto")
        aot = replay_json(aot_dir, "--inputs", "saved", "--expected", "auto")
        assert aot["verdict"] == "pass", (name, aot["verdict"], aot.get("fatal"))
        d, a = compared(dynamo), compared(aot)
        assert len(d) == len(a), (name, len(d), len(a))
        stats = [[(o.get("min"), o.get("max"), o.get("mean")) for o in n["outputs"]]
                 for r in (dynamo, aot) for n in r["nodes"] if n["target"] == "output"]
        for (lo1, hi1, m1), (lo2, hi2, m2) in zip(*stats):
            assert abs(lo1 - lo2) < 1e-4 and abs(hi1 - hi2) < 1e-4 and abs(m1 - m2) < 1e-4, (name, stats)


@check
def dynamic_shape_dynamo_graphs_with_symint_inputs_and_size_queries_replay_like_eager():
    for name in ("attention", "embedding", "multihead"):
        dynamo_dir, aot_dir = fx.capture(TMP, name, dynamic=True)
        for d in (dynamo_dir, aot_dir):
            r = replay_json(d, "--inputs", "saved", "--expected", "auto")
            assert_clean_pass(r, d)
            compared(r)


@check
def ops_in_an_autocast_region_run_under_autocast_and_say_so():
    r = replay_json(CAPTURED["autocast"][0], "--inputs", "saved", "--expected", "auto")
    assert_clean_pass(r, "autocast")  # the region's linear and matmul recorded bf16: checked
    inside = [n["name"] for n in r["nodes"] if "under autocast(cpu, BFloat16)" in (n.get("schema") or "")]
    assert inside == ["linear", "t", "y"], [(n["name"], n.get("schema")) for n in r["nodes"]]  # z = x * 2 is after it


@check
def graphs_captured_inside_torch_autocast_replay_under_it():
    # torch.autocast entered around the compiled call leaves no region in the dynamo graph: only its recorded
    # bf16 linears show it. Replayed without it, they would compute in f32 (a dtype mismatch at every linear).
    dynamo_dir, aot_dir = fx.capture(TMP, "mlp", autocast=torch.bfloat16)
    for d in (dynamo_dir, aot_dir):
        r = replay_json(d, "--inputs", "saved", "--expected", "auto")
        assert_clean_pass(r, d)
        compared(r)
    r = replay_json(dynamo_dir, "--inputs", "saved")
    ambient = [n["name"] for n in r["nodes"] if "entered outside the graph" in (n.get("schema") or "")]
    assert {"input_1", "input_4"} <= set(ambient), [(n["name"], n.get("schema")) for n in r["nodes"]]  # both linears


@check
def dynamo_grammar_fixtures_replay_fully_indexing_inplace_statements_and_literals():
    # tools/capture/dynamo_grammar_samples.py's graphs: Ellipsis/None/slice indices, `out += y` and `t[i] = v`
    # statements, dtype/layout/memory_format/device keywords, complex literals (x * 1j).
    for name in ("indexing", "inplace", "literals"):
        r = replay_json(os.path.join(SOURCE, "tests", "data", "fx", "dynamo", name + ".py"))
        assert_clean_pass(r, name)


@check
def torch_level_calls_pick_the_overload_torchscript_would_and_the_report_shows_it():
    r = replay_json(write("overloads", OVERLOADS))
    assert_clean_pass(r, "overloads")
    schema = {n["name"]: n.get("schema") or "" for n in r["nodes"]}
    assert schema["mul"].startswith("aten::mul.Scalar("), schema["mul"]  # a number picks the Scalar overload
    assert schema["mul_1"].startswith("aten::mul.Tensor("), schema["mul_1"]  # a tensor the Tensor one
    assert schema["view"].startswith("aten::view(Tensor(a) self, SymInt[] size)"), schema["view"]  # varargs packed
    assert schema["sum_1"].startswith("aten::sum.dim_IntList("), schema["sum_1"]
    assert schema["mul_2"].startswith("aten::mul.Tensor("), schema["mul_2"]  # SymInt * tensor: a wrapped number
    assert schema["sub"].startswith("aten::sub.Tensor("), schema["sub"]  # 1 - y
    assert schema["pow_1"].startswith("aten::pow.Scalar("), schema["pow_1"]  # 2 ** x
    assert schema["softmax"].startswith("aten::softmax.int("), schema["softmax"]  # _stacklevel dropped
    assert schema["relu"].startswith("aten::relu_("), schema["relu"]  # inplace=True
    assert schema["to"].startswith("aten::to.dtype_layout(") or schema["to"].startswith("aten::to.device("), schema["to"]
    assert "Python indexing" in schema["getitem_1"] and "Python indexing" in schema["getitem_3"]
    assert schema["pool"].startswith("aten::adaptive_avg_pool2d("), schema["pool"]  # 1 broadcast to int[2] [1, 1]
    assert schema["eq"].startswith("aten::eq.Tensor("), schema["eq"]  # x.__eq__(y) is operator.eq
    assert schema["rsub"].startswith("aten::sub.Tensor("), schema["rsub"]  # x.__rsub__(1) is 1 - x
    # x.size() is a torch.Size: passed whole where int[] is wanted (BART's shift_tokens_right, dynamic shapes)
    assert schema["new_zeros"].startswith("aten::new_zeros("), schema["new_zeros"]


@check
def calls_without_an_aten_twin_are_named_with_the_reason_before_the_replay():
    r = replay_json(write("unresolvable", UNRESOLVABLE))
    assert r["verdict"] == "unsupported", r["verdict"]
    lines = "\n".join(r["unsupported"])
    assert "interpolate(mode='area') of a 4-d input" in lines, lines
    assert "getattr(x, 'dtype')" in lines, lines
    assert "python call my_library.helper() is not a torch function" in lines, lines
    assert "embedding(max_norm=...) has no aten equivalent" in lines, lines
    assert node(r, "relu")["status"] == "passed"  # the rest of the graph still replays


@check
def trace_log_dynamo_graphs_replay_on_random_inputs_with_every_node_resolved():
    log = fx.write_trace(TMP)
    p = subprocess.run([FXRAY, "info", log, "--json"], capture_output=True, text=True, timeout=300)
    graphs = [g["address"] for g in json.loads(p.stdout)["graphs"] if g["kind"] == "dynamo"]
    assert len(graphs) == len(MODULES), graphs
    for address in graphs:
        r = replay_json(address, "--int-range", "0,3")  # embedding ids index a 10-row table
        assert not r.get("unsupported"), (address, r["unsupported"])
        bad = [(n["name"], n["status"], n.get("error")) for n in r["nodes"] if n["status"] in ("mismatch", "error")]
        assert not bad, (address, bad)


if __name__ == "__main__":
    main()
