#include "minimize/repro_writer.h"

#include "base/error.h"
#include "graph/int_ranges.h"
#include "graph/printer.h"

#include <algorithm>

namespace fxray::minimize {
namespace {

using graph::Node;
using graph::NodeKind;

std::string intList(const std::vector<graph::SymDim>& dims, const std::string& what)
{
    std::string out = "[";
    for (std::size_t k = 0; k < dims.size(); ++k) {
        if (!dims[k].isConstant())
            throw Error("repro: " + what + " has the symbolic entry '" + dims[k].expr + "'; bind the symbols first");
        out += (k ? ", " : "") + std::to_string(*dims[k].value);
    }
    return out + "]";
}

// INPUTS entries: ("tensor", sizes, strides, offset, dtype, low, high) / ("int", v) / ("float", v) / ("bool", v).
std::string inputSpec(const io::InputSpec& s, const std::optional<graph::IntRange>& range, const replay::ReplayOptions& o)
{
    if (!s.meta)
        throw Error("repro: input '" + s.name + "' has no metadata");
    const graph::ValueMeta& m = *s.meta;
    if (m.isTensor()) {
        const auto strides = m.tensor.strides ? m.tensor.strides : graph::contiguousStrides(m.tensor.sizes);
        if (!strides)
            throw Error("repro: input '" + s.name + "' has symbolic sizes; bind the symbols first");
        const std::int64_t offset = m.tensor.storageOffset && m.tensor.storageOffset->isConstant() ? *m.tensor.storageOffset->value : 0;
        const std::int64_t lo = range ? range->low : o.intLow, hi = range ? range->high : o.intHigh;
        return "(\"tensor\", " + intList(m.tensor.sizes, s.name) + ", " + intList(*strides, s.name) + ", " +
               std::to_string(offset) + ", torch." + std::string(graph::dtypeTorchName(m.tensor.dtype)) + ", " +
               std::to_string(lo) + ", " + std::to_string(hi) + ")";
    }
    switch (m.kind) {
    case graph::ValueMeta::Kind::Float:
    case graph::ValueMeta::Kind::SymFloat:
        return "(\"float\", " + (m.symExpr.empty() ? std::string("1.0") : m.symExpr) + ")";
    case graph::ValueMeta::Kind::SymBool: return std::string("(\"bool\", ") + (m.symExpr == "False" ? "False" : "True") + ")";
    default:
        if (m.symExpr.empty() || m.symExpr.find_first_not_of("-0123456789") != std::string::npos)
            throw Error("repro: int input '" + s.name + "' has no concrete value (" + m.symExpr + ")");
        return "(\"int\", " + m.symExpr + ")";
    }
}

const char* kPrelude = R"PY(import argparse
import ast
import math
import os
import re
import sys

import torch
from math import inf, nan
from torch import device

)PY";

const char* kRunner = R"PY(

def make_inputs(seed, dev, floats):
    """Fresh inputs from the recorded metadata, as fxray's input factory makes them: values drawn on the CPU
    with the seed (the same on every device), viewed with the recorded strides and storage offset."""
    gen = torch.Generator().manual_seed(seed)
    out = []
    for spec in INPUTS:
        if spec[0] != "tensor":
            out.append(spec[1])
            continue
        _, size, stride, offset, dtype, low, high = spec
        extent = offset + 1 + sum((s - 1) * st for s, st in zip(size, stride)) if all(size) else offset
        if dtype.is_floating_point or dtype.is_complex:
            if floats == "uniform":
                base = torch.rand(extent, generator=gen)
            else:
                base = torch.randn(extent, generator=gen)
        elif dtype == torch.bool:
            base = torch.randint(0, 2, (extent,), generator=gen)
        else:
            base = torch.randint(low, high, (extent,), generator=gen)
        base = base.to(dtype).to(dev)
        out.append(torch.as_strided(base, size, stride, offset))
    return out


def significant_strides(t):
    return [st for s, st in zip(t.shape, t.stride()) if s > 1]


def check(outs, inputs):
    """Returns the failure seen, or None."""
    if KIND in ("nan", "inf"):
        for t in inputs:
            if isinstance(t, torch.Tensor) and t.is_floating_point() and not torch.isfinite(t).all():
                return None  # the inputs must be finite for the NaN to be the graph's own
        out = outs[TARGET]
        nans = int(torch.isnan(out).sum()) if out.is_floating_point() else 0
        infs = int(torch.isinf(out).sum()) if out.is_floating_point() else 0
        if (KIND == "nan" and nans) or (KIND == "inf" and infs):
            return f"{TARGET_NAME} ({OP}) made {nans} NaN and {infs} Inf of {out.numel()} values from finite inputs"
        return None
    if KIND.startswith("mismatch:"):
        out = outs[TARGET]
        what = KIND.split(":", 1)[1]
        if what == "dtype" and out.dtype != EXPECTED["dtype"]:
            return f"{TARGET_NAME} ({OP}): dtype {out.dtype}, recorded {EXPECTED['dtype']}"
        if what == "size" and list(out.shape) != EXPECTED["size"]:
            return f"{TARGET_NAME} ({OP}): size {list(out.shape)}, recorded {EXPECTED['size']}"
        if what == "stride":
            want = [st for s, st in zip(EXPECTED["size"], EXPECTED["stride"]) if s > 1]
            if significant_strides(out) != want:
                return f"{TARGET_NAME} ({OP}): stride {list(out.stride())}, recorded {EXPECTED['stride']}"
        if what == "device" and out.device.type != EXPECTED["device"]:
            return f"{TARGET_NAME} ({OP}): device {out.device}, recorded {EXPECTED['device']}"
        return None
    return None


def compile_repro(module, inputs):
    """How the graph is compiled for diverge:output_code (fxray's minimizer compiled every candidate this way):
    inductor's compile_fx on the traced module, what torch.compile's inductor backend runs after dynamo (the graph
    is already aten-level). Call it under torch._inductor.config.patch(config) and torch.no_grad()."""
    from torch._inductor.compile_fx import compile_fx

    return compile_fx(torch.fx.symbolic_trace(module), list(inputs))


class _TraceFactories(torch.overrides.TorchFunctionMode):
    """An op call with no traced argument (full, arange, scalar_tensor) becomes a node too: symbolic_trace alone runs
    it and makes its value a constant of the module, one node fewer than statements and a get_attr the post-grad
    graph could not be replayed without."""

    def __init__(self, tracer):
        super().__init__()
        self.tracer = tracer

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if isinstance(func, torch._ops.OpOverload) and not _has_proxy((args, kwargs)):
            return self.tracer.create_proxy("call_function", func, args, kwargs)
        return func(*args, **kwargs)


def _has_proxy(value):
    if isinstance(value, torch.fx.Proxy):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_proxy(v) for v in value)
    return isinstance(value, dict) and any(_has_proxy(v) for v in value.values())


def traced(module):
    """The graph as a torch.fx GraphModule whose nodes keep this file's names. symbolic_trace names a node after its
    op; diverge:post_grad names the divergent node of fxray's graph, and inductor's passes keep the names of the
    nodes they leave alone, so the names are put back: one traced node per statement of forward (when the counts
    differ the op names stay, and the divergent node found cannot be tied to fxray's graph)."""
    tracer = torch.fx.Tracer()
    with _TraceFactories(tracer):
        graph = tracer.trace(module)
    gm = torch.fx.GraphModule(module, graph, type(module).__name__)
    # This file's forward, one `name = ...` statement per line (a regex: ast and inspect take seconds on 6,000 lines).
    source = open(__file__).read()
    forward = source[source.index("    def forward(self"):source.index("\nINPUTS = [")]
    names = re.findall(r"^        (\w+) = ", forward, flags=re.M)
    nodes = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "get_attr")]
    if len(names) == len(nodes):
        for k, n in enumerate(nodes):  # through unused names first: a wanted name may be another node's now
            n._rename(f"fxray_tmp_{k}")
        for n, name in zip(nodes, names):
            n._rename(name)
        gm.recompile()
    return gm


def post_grad_repro(gm, inputs, is_inference):
    """How the graph is run through inductor for diverge:post_grad (fxray's minimizer ran every candidate this way):
    the steps inductor takes from an AOT graph to its post-grad graph, without lowering or code generation:
    joint-graph passes (compile_fx: partition_fn / compile_fx_forward), then codegen_and_compile's view_to_reshape,
    fake tensor propagation and post-grad passes, custom pre/post passes of the config included. Call it under
    torch._inductor.config.patch(config); `gm` (traced()) is changed in place and returned."""
    from torch._inductor import compile_fx as cfx
    from torch._inductor.virtualized import V

    device = next((t.device for t in inputs if isinstance(t, torch.Tensor)), torch.device("cpu"))
    with torch.no_grad():
        fake_mode = cfx.fake_tensor_prop(gm, inputs, True)
    with V.set_fake_mode(fake_mode):
        gm = cfx._recursive_joint_graph_passes(gm, input_device=device)
    cfx.view_to_reshape(gm)
    with torch.no_grad():
        fake_mode = cfx.fake_tensor_prop(gm, inputs, True)
    cfx._recursive_record_original_output_strides(gm)
    with V.set_fake_mode(fake_mode), cfx.get_cuda_device_context(gm):
        cfx._recursive_post_grad_passes(gm, is_inference=is_inference)
    gm.recompile()
    return gm


def config_values():
    """INDUCTOR_CONFIG's values are Python literals kept as text (from the compile's log or the command line). A
    custom pass (post_grad_custom_post_pass, joint_custom_pre_pass, ...: keys ending in "_pass") is a Python object,
    which no literal can be: given as "module:name" it is imported from sys.path / PYTHONPATH (a class is
    instantiated)."""
    import importlib

    out = {}
    for key, text in INDUCTOR_CONFIG.items():
        try:
            out[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            out[key] = text
        if key.endswith("_pass") and isinstance(out[key], str) and ":" in out[key]:
            module, _, name = out[key].partition(":")
            obj = getattr(importlib.import_module(module), name)
            out[key] = obj() if isinstance(obj, type) else obj
    return out


def first_difference(got, ref, exact_others):
    """(output index, elements beyond tolerance, numel, max abs) of the first output of `got` that differs from
    `ref`, or None. Floating outputs compare within ATOL (scaled by the reference's largest finite magnitude) and
    RTOL, NaNs in the same places; other tensors exactly when `exact_others` (else they are skipped)."""
    for k, (a, b) in enumerate(zip(got, ref)):
        if not isinstance(a, torch.Tensor) or not (a.is_floating_point() or a.is_complex()):
            if exact_others and isinstance(a, torch.Tensor) and not torch.equal(a.cpu(), b.cpu()):
                return k, a.numel(), a.numel(), float("nan")
            continue
        x, y = a.cpu().double(), b.cpu().double()
        finite = torch.isfinite(y)
        scale = max(1.0, float(y[finite].abs().max())) if bool(finite.any()) else 1.0
        diff = (x - y).abs().nan_to_num(0.0)
        bad = int((diff > ATOL * scale + RTOL * y.abs().nan_to_num(0.0)).sum())
        if bad or not torch.equal(torch.isnan(x), torch.isnan(y)):
            return k, bad, x.numel(), float(diff.max())
    return None


def check_output_code(device, seed):
    """Inductor's compiled code of the graph against eager, on the same fresh inputs: 1 when they differ."""
    import torch._inductor.config as inductor_config

    config = config_values()
    inputs = make_inputs(seed, device, FLOATS)
    with torch.no_grad():
        ref = Repro().to(device)(*[t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
        with inductor_config.patch(config):
            got = compile_repro(Repro().to(device), inputs)(*inputs)
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    print(f"inductor config: {config}")
    found = first_difference(got, ref, exact_others=True)
    if found:
        k, bad, numel, max_abs = found
        print(f"FAILED: output {k} of the inductor-compiled graph differs from eager: {bad} of {numel} "
              f"element(s), max abs {max_abs:g} (fxray saw: {DETAIL})")
        return 1
    print("did not reproduce: the compiled graph agrees with eager")
    return 0


def check_post_grad(device, seed):
    """Inductor's post-grad graph of the graph, run eagerly, against the graph: 1 when they differ."""
    import torch._inductor.config as inductor_config

    config = config_values()
    inputs = make_inputs(seed, device, FLOATS)
    with torch.no_grad():
        ref = Repro().to(device)(*[t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
        with inductor_config.patch(config):
            post = post_grad_repro(traced(Repro().to(device)), inputs, INFERENCE)
        got = post(*inputs)
    print(f"inductor config: {config}")
    found = first_difference(got, ref, exact_others=False)
    if found:
        k, bad, numel, max_abs = found
        print(f"FAILED: output {k} of inductor's post-grad graph differs from the graph: {bad} of {numel} "
              f"element(s), max abs {max_abs:g} (fxray saw: {DETAIL})")
        return 1
    print("did not reproduce: the post-grad graph agrees with the graph")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", default=DEVICE)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--compile", action="store_true", help="run the graph through torch.compile")
    args = parser.parse_args()
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("repro: no CUDA device here", file=sys.stderr)
        return 2
    if KIND == "diverge:output_code":
        return check_output_code(args.device, args.seed)
    if KIND == "diverge:post_grad":
        return check_post_grad(args.device, args.seed)
    fn = Repro().to(args.device)
    if args.compile:
        fn = torch.compile(fn)
    inputs = make_inputs(args.seed, args.device, FLOATS)
    try:
        outs = fn(*inputs)
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()
    except Exception as e:  # the failure may be the exception itself
        message = str(e)
        if KIND == "error" and (not PATTERN or re.search(PATTERN, message)):
            print(f"FAILED: {TARGET_NAME} ({OP}) raised: {message.splitlines()[0] if message else type(e).__name__}")
            return 1
        raise
    if KIND == "diverge":
        ref = Repro().to(COMPARE)(*[t.to(COMPARE) if isinstance(t, torch.Tensor) else t for t in inputs])
        for k, (a, b) in enumerate(zip(outs, ref)):
            if isinstance(a, torch.Tensor) and a.is_floating_point():
                if not torch.allclose(a.cpu().double(), b.cpu().double(), atol=ATOL, rtol=RTOL, equal_nan=True):
                    diff = (a.cpu().double() - b.cpu().double()).abs().max().item()
                    print(f"FAILED: output {k} differs between {args.device} and {COMPARE}: max abs {diff:g}")
                    return 1
        print("did not reproduce: outputs agree")
        return 0
    failure = check(outs, inputs)
    if failure:
        print("FAILED: " + failure)
        return 1
    if KIND == "cmd":
        print(f"ran: {len(outs)} outputs")
        return 0
    print("did not reproduce: " + KIND + " not seen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
)PY";

// The return expression. A pytree output (an AOT joint graph's `pytree.tree_unflatten([...], self._out_spec)`)
// is returned as the flat tuple: the repro has neither pytree nor the spec, and the minimizer's oracle and
// `check` index the flat outputs (None entries included) as fxray's replay does.
std::string flatReturn(const graph::Graph& g, const Node& out)
{
    if (g.outputForm != graph::OutputForm::Pytree || out.args.empty())
        return graph::formatNodeExpr(g, out);
    std::string items;
    for (const graph::Arg& a : out.args[0].items)
        items += graph::formatArg(g, a) + ", ";
    return "(" + items + ")";
}

}  // namespace

std::string writeReproScript(const io::LoadedGraph& lg, const ReproSpec& spec)
{
    const graph::Graph& g = lg.graph;
    // A raw docstring: messages may hold backslashes; a triple quote in them would end it early.
    auto doc = [](std::string text) {
        for (std::size_t p = text.find("\"\"\""); p != std::string::npos; p = text.find("\"\"\"", p))
            text.replace(p, 3, "'''");
        return text;
    };
    std::string out = "#!/usr/bin/env python3\nr\"\"\"Minimal reproduction written by `fxray minimize`.\n\nFailure: " +
                      doc(spec.signature.str()) + "\nSeen at: " + doc(spec.signature.node) + " in " + doc(lg.entry.address) +
                      "\nDetail: " + doc(spec.signature.detail.substr(0, 300)) +
                      "\n\nRun: python repro.py [--device D] [--seed N] [--compile]\nExit 1: the failure reproduced; "
                      "0: it did not.\n\"\"\"\n";
    out += kPrelude;

    // The graph's code, as FX prints it, in a module that loads its constants from state_dict.pt beside it.
    out += "class Repro(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n";
    bool attrs = false;
    for (const Node& n : g.nodes)
        attrs = attrs || n.kind == NodeKind::GetAttr;
    if (attrs)
        out += "        here = os.path.dirname(os.path.abspath(__file__))\n"
               "        for k, v in torch.load(os.path.join(here, \"state_dict.pt\"), weights_only=True).items():\n"
               "            self.register_buffer(k.replace(\".\", \"_\"), v)\n";
    out += "\n    def forward(self";
    for (int ph : g.placeholders())
        out += ", " + g.nodes[static_cast<std::size_t>(ph)].name;
    out += "):\n";
    for (const Node& n : g.nodes) {
        if (n.kind == NodeKind::Placeholder)
            continue;
        if (n.kind == NodeKind::Output) {
            out += "        return " + flatReturn(g, n) + "\n";
            continue;
        }
        std::string expr = graph::formatNodeExpr(g, n);
        if (n.kind == NodeKind::GetAttr) {  // buffers are registered flat: "a.b" -> self.a_b
            std::string attr = n.attr;
            std::replace(attr.begin(), attr.end(), '.', '_');
            expr = "self." + attr;
        }
        out += "        " + n.name + " = " + expr + "\n";
    }
    // Which output is the failing node.
    int target = -1;
    const int outNode = g.outputNode();
    if (outNode >= 0 && !g.nodes[static_cast<std::size_t>(outNode)].args.empty()) {
        const auto& items = g.nodes[static_cast<std::size_t>(outNode)].args[0].items;
        for (std::size_t k = 0; k < items.size(); ++k)
            if (items[k].kind == graph::Arg::Kind::Node && g.nodes[static_cast<std::size_t>(items[k].node)].name == spec.failingNode)
                target = static_cast<int>(k);
    }

    out += "\n\nINPUTS = [\n";
    const auto ranges = graph::inferIntRanges(g);
    for (std::size_t k = 0; k < lg.inputs.size(); ++k)
        out += "    " + inputSpec(lg.inputs[k], k < ranges.size() ? ranges[k] : std::nullopt, spec.inputs) + ",  # " +
               lg.inputs[k].name + "\n";
    out += "]\n";
    out += "KIND = " + graph::pythonStringRepr(spec.signature.kind) + "\n";
    out += "OP = " + graph::pythonStringRepr(spec.signature.op) + "\n";
    out += "TARGET_NAME = " + graph::pythonStringRepr(spec.failingNode) + "\n";
    out += "TARGET = " + std::to_string(target) + "  # index of the failing node among the outputs\n";
    out += "PATTERN = " + graph::pythonStringRepr(spec.errorPattern) + "\n";
    out += "DEVICE = " + graph::pythonStringRepr(spec.device) + "\n";
    out += "COMPARE = " + graph::pythonStringRepr(spec.compareDevice.empty() ? "cpu" : spec.compareDevice) + "\n";
    out += "ATOL, RTOL = " + graph::pythonFloatRepr(spec.atol) + ", " + graph::pythonFloatRepr(spec.rtol) + "\n";
    out += "SEED = " + std::to_string(spec.inputs.seed) + "\n";
    out += "INDUCTOR_CONFIG = {";
    for (std::size_t k = 0; k < spec.inductorConfig.size(); ++k)
        out += (k ? ", " : "") + graph::pythonStringRepr(spec.inductorConfig[k].first) + ": " +
               graph::pythonStringRepr(spec.inductorConfig[k].second);
    out += "}  # diverge:output_code / post_grad: values as Python literals\n";
    // diverge:post_grad: inductor's post-grad passes take whether the graph is an inference graph.
    out += std::string("INFERENCE = ") + (lg.entry.kind == io::GraphKind::Inference ? "True" : "False") + "\n";
    out += "DETAIL = " + graph::pythonStringRepr(spec.signature.detail.substr(0, 300)) + "\n";
    out += std::string("FLOATS = ") + (spec.inputs.floatDist == replay::ReplayOptions::FloatDist::Uniform ? "'uniform'" : "'normal'") + "\n";
    // Mismatch: the recorded metadata of the failing node.
    out += "EXPECTED = {}\n";
    const int tn = g.findNode(spec.failingNode);
    if (tn >= 0 && g.nodes[static_cast<std::size_t>(tn)].meta && g.nodes[static_cast<std::size_t>(tn)].meta->isTensor()) {
        const graph::TensorMeta& t = g.nodes[static_cast<std::size_t>(tn)].meta->tensor;
        try {
            out += "EXPECTED = {\"dtype\": torch." + std::string(graph::dtypeTorchName(t.dtype)) + ", \"size\": " +
                   intList(t.sizes, spec.failingNode);
            const auto strides = t.strides ? t.strides : graph::contiguousStrides(t.sizes);
            out += ", \"stride\": " + (strides ? intList(*strides, spec.failingNode) : std::string("None"));
            out += ", \"device\": " + graph::pythonStringRepr(t.device ? t.device->type : "cpu") + "}\n";
        } catch (const Error&) {
            out += "EXPECTED = {}  # symbolic metadata\n";
        }
    }
    if (spec.signature.kind.rfind("mismatch:", 0) == 0 || spec.signature.kind == "nan" || spec.signature.kind == "inf")
        if (target < 0)
            throw Error("repro: the failing node '" + spec.failingNode + "' is not an output of the minimized graph");
    out += kRunner;
    return out;
}

}  // namespace fxray::minimize
