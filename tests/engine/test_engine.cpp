// The replay engine in C++ (built where LibTorch is): what the CLI tests see only end to end. Each slot names the
// behaviour it protects: a node planned as the right overload with its defaults, inputs generated inside their value
// domains, a backward's saved activations taken from its forward, and outputs compared exactly or within the dtype's
// tolerance with NaN and Inf where they belong. Graphs are FX text parsed by fxray, or the repository's samples.
#include "graph/fx_parser.h"
#include "io/graph_source.h"
#include "replay/cuda_graph/cuda_graph_safety.h"
#include "replay/engine/deferred_checks.h"
#include "replay/engine/graph_plan.h"
#include "replay/engine/replayer.h"
#include "replay/inputs/input_chaining.h"
#include "replay/inputs/input_factory.h"
#include "replay/values/value_checks.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QDir>
#include <QFile>
#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <string>

using namespace fxray;
using replay::detail::ArgPlan;
using replay::detail::NodePlan;

namespace {

const c10::Device kCpu(c10::kCPU);
const std::string kSamples = FXRAY_SAMPLES_DIR;

graph::Graph parse(const std::string& params, const std::string& body)
{
    const std::string text = "class G(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body;
    return graph::parseFxModule(text, {"test.py", 1}).graph;
}

const NodePlan& planOf(const graph::Graph& g, const std::vector<NodePlan>& plans, const std::string& node)
{
    return plans[static_cast<std::size_t>(g.findNode(node))];
}

std::string overloadOf(const NodePlan& p)
{
    return p.op ? p.op->schema().overload_name() : "(no op: " + p.why + ")";
}

// Runs one planned node on `values` (the graph's values by node index) as the interpreter does: the returned IValue.
c10::IValue runPlan(const NodePlan& p, const std::vector<c10::IValue>& values)
{
    if (p.kind == NodePlan::Kind::Native) {
        std::vector<c10::IValue> args;
        for (const ArgPlan& a : p.args)
            args.push_back(replay::detail::assembleArg(a, values));
        return p.native(args);
    }
    if (p.kind != NodePlan::Kind::Op)
        qFatal("not runnable: %s", p.why.c_str());
    std::vector<c10::IValue> stack;
    replay::detail::assembleStack(p, values, stack);
    p.op->callBoxed(stack);
    return stack.empty() ? c10::IValue() : stack[0];
}

at::Tensor listItem(const c10::IValue& list, std::size_t i)
{
    const auto items = list.toOptionalTensorList();
    const std::optional<at::Tensor> t = items.get(i);
    return t ? *t : at::Tensor();
}

replay::OutputComparison compare(const at::Tensor& actual, const at::Tensor& reference, bool exact = false)
{
    return replay::detail::compareOutput(actual, reference, 0, exact);
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Planning binds a node to the overload it names, fills omitted arguments from the schema's defaults (optional
    // ones with None), and keeps literals as constants and graph values as references.
    void anAtenNodeIsPlannedAsItsOverloadWithSchemaDefaults()
    {
        const auto g = parse("x: \"f32[4, 8]\", y: \"f32[4, 8]\"",
                             "        add: \"f32[4, 8]\" = torch.ops.aten.add.Tensor(x, y)\n"
                             "        add_1: \"f32[4, 8]\" = torch.ops.aten.add.Scalar(x, 2)\n"
                             "        sum_1: \"f32[4]\" = torch.ops.aten.sum.dim_IntList(add, [1])\n"
                             "        return (add_1, sum_1)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        const NodePlan& add = planOf(g, plans, "add");
        QCOMPARE(add.kind, NodePlan::Kind::Op);
        QCOMPARE(overloadOf(add), std::string("Tensor"));
        QCOMPARE(add.args.size(), std::size_t(3));  // self, other, alpha=1
        QCOMPARE(add.args[0].kind, ArgPlan::Kind::ValueAsTensor);
        QCOMPARE(add.args[2].kind, ArgPlan::Kind::Const);
        QCOMPARE(add.args[2].constant.toScalar().toLong(), std::int64_t(1));
        const NodePlan& scalar = planOf(g, plans, "add_1");
        QCOMPARE(overloadOf(scalar), std::string("Scalar"));
        QCOMPARE(scalar.args[1].kind, ArgPlan::Kind::Const);
        QCOMPARE(scalar.args[1].constant.toInt(), std::int64_t(2));
        // sum.dim_IntList(self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
        const NodePlan& sum = planOf(g, plans, "sum_1");
        QCOMPARE(overloadOf(sum), std::string("dim_IntList"));
        QCOMPARE(sum.args.size(), std::size_t(4));
        QCOMPARE(sum.args[1].constant.toIntVector(), (std::vector<std::int64_t>{1}));
        QVERIFY(sum.args[2].constant.isBool() && !sum.args[2].constant.toBool());
        QVERIFY(sum.args[3].constant.isNone());
    }

    // A dynamo-level call names no overload: tensor operands pick the Tensor overload, numbers the Scalar one.
    void aTorchLevelCallPicksTheOverloadItsOperandsFit()
    {
        const auto g = parse("L_x_: \"f32[4, 8]\", L_y_: \"f32[4, 8]\"",
                             "        l_x_ = L_x_\n"
                             "        l_y_ = L_y_\n"
                             "        add: \"f32[4, 8]\" = torch.add(l_x_, l_y_)\n"
                             "        add_1: \"f32[4, 8]\" = torch.add(l_x_, 2)\n"
                             "        return (add, add_1)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        QCOMPARE(overloadOf(planOf(g, plans, "add")), std::string("Tensor"));
        QCOMPARE(overloadOf(planOf(g, plans, "add_1")), std::string("Scalar"));
    }

    // What cannot run is Unsupported with the reason, before the replay: wrong arguments name the schema's gap, and
    // a Python-registered custom op says it needs Python; the rest of the graph still plans.
    void unplannableNodesSayWhyAndTheRestStillPlans()
    {
        const auto g = parse("x: \"f32[4]\"",
                             "        relu: \"f32[4]\" = torch.ops.aten.relu.default(x, 3)\n"
                             "        custom: \"f32[4]\" = torch.ops.mylib.frobnicate.default(x)\n"
                             "        neg: \"f32[4]\" = torch.ops.aten.neg.default(x)\n"
                             "        return (relu, custom, neg)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        const NodePlan& relu = planOf(g, plans, "relu");
        QCOMPARE(relu.kind, NodePlan::Kind::Unsupported);
        QVERIFY2(relu.why.find("2 positional arguments, schema takes 1") != std::string::npos, relu.why.c_str());
        const NodePlan& custom = planOf(g, plans, "custom");
        QCOMPARE(custom.kind, NodePlan::Kind::Unsupported);
        QVERIFY2(custom.why.find("registered from Python") != std::string::npos, custom.why.c_str());
        QCOMPARE(planOf(g, plans, "neg").kind, NodePlan::Kind::Op);
    }

    // A packet call without an overload (Dynamo's graphs call custom ops so: Qwen2-MoE's and Mixtral's
    // transformers.grouped_mm_fallback, 66 graphs of the GPU corpus) runs as its one registered overload, its keyword
    // argument bound by name; an aten packet with several overloads (aten.add) takes the one its operands fit.
    void aPacketCallRunsItsOnlyOverloadOrTheOneItsOperandsFit()
    {
        const auto g = parse("x: \"f32[4, 2]\", w: \"f32[2, 2, 3]\", o: \"i32[2]\"",
                             "        mm: \"f32[4, 3]\" = torch.ops.transformers.grouped_mm_fallback(x, w, offs = o)\n"
                             "        add: \"f32[4, 2]\" = torch.ops.aten.add(x, x)\n"
                             "        return (mm, add)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        const NodePlan& mm = planOf(g, plans, "mm");
        QVERIFY2(mm.kind == NodePlan::Kind::Op && mm.op, mm.why.c_str());
        QCOMPARE(mm.op->schema().name(), std::string("transformers::grouped_mm_fallback"));
        // an aten packet resolves by its operands (inductor's DDP bucketing: aten.cat / aten.split in post-grad graphs)
        const NodePlan& add = planOf(g, plans, "add");
        QVERIFY2(add.kind == NodePlan::Kind::Op && add.op, add.why.c_str());
        QCOMPARE(overloadOf(add), std::string("Tensor"));
    }

    // Compiled autograd's autograd nodes run as LibTorch's own nodes (their saved fields from the call's arguments):
    // each gives eager's formula, and an input whose gradient is not wanted gets none. validate_outputs sums a
    // broadcast gradient down to its input's shape (AddmmBackward0's bias gradient) and casts to the input's dtype.
    void autogradNodesComputeEagersGradients()
    {
        const auto g = parse("grad: \"f32[2, 3]\", x: \"f32[2, 3]\", y: \"f32[2, 3]\", s: \"f32[]\", b: \"f32[3]\"",
                             "        mean_backward0 = torch__dynamo_compiled_autograd_ops_MeanBackward0([s], [True], 6, [2, 3])\n"
                             "        pow_backward0 = torch__dynamo_compiled_autograd_ops_PowBackward0([grad], [True], 2, x)\n"
                             "        mul_backward0 = torch__dynamo_compiled_autograd_ops_MulBackward0([grad], [True, False], y, 6, None, 6)\n"
                             "        gelu_backward0 = torch__dynamo_compiled_autograd_ops_GeluBackward0([grad], [True], 'tanh', x)\n"
                             "        accumulate_grad = torch__dynamo_compiled_autograd_ops_AccumulateGrad([grad], x, y, False)\n"
                             "        validate_outputs = torch__dynamo_compiled_autograd_ops_validate_outputs([grad, s], "
                             "[((None, None, device(type='cpu'), 6, 0, None), [3], False, 6), "
                             "((None, None, device(type='cpu'), 6, 0, None), [], False, 7)])\n"
                             "        return (mean_backward0, pow_backward0, mul_backward0, gelu_backward0, accumulate_grad, validate_outputs)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        std::vector<c10::IValue> values(g.nodes.size());
        const at::Tensor grad = at::randn({2, 3}), x = at::randn({2, 3}), y = at::randn({2, 3}), s = at::randn({});
        for (const auto& [name, t] : std::vector<std::pair<const char*, at::Tensor>>{{"grad", grad}, {"x", x}, {"y", y}, {"s", s}})
            values[static_cast<std::size_t>(g.findNode(name))] = t;
        auto run = [&](const char* node) {
            const NodePlan& p = planOf(g, plans, node);
            if (p.kind != NodePlan::Kind::Native && p.kind != NodePlan::Kind::Op)
                qFatal("%s: %s", node, p.why.c_str());
            return runPlan(p, values);
        };
        QVERIFY(at::allclose(listItem(run("mean_backward0"), 0), s.expand({2, 3}) / 6));
        QVERIFY(at::allclose(listItem(run("pow_backward0"), 0), grad * 2 * x));
        const c10::IValue mul = run("mul_backward0");
        QVERIFY(at::allclose(listItem(mul, 0), grad * y));
        QVERIFY(!listItem(mul, 1).defined());  // needs_input_grad False: no gradient for `other`
        QVERIFY(at::allclose(listItem(run("gelu_backward0"), 0), at::gelu_backward(grad, x, "tanh")));
        const at::Tensor before = y.clone();  // .grad was y: accumulated into it (in place, as eager does without grad mode)
        QVERIFY(at::allclose(listItem(run("accumulate_grad"), 0), before + grad));
        const c10::IValue validated = run("validate_outputs");
        QVERIFY(at::allclose(listItem(validated, 0), grad.sum(0)));  // [2, 3] summed down to [3]
        QCOMPARE(listItem(validated, 1).scalar_type(), at::kDouble);  // cast to the recorded dtype (7: float64)
        QVERIFY(planOf(g, plans, "mean_backward0").schema.find("generated::MeanBackward0::apply") != std::string::npos);
    }

    // Traceable FSDP2's unfunctionalized ops, which torch defines in Python / libtorch_python: an unsharded
    // parameter's storage freed (size 0) after use, given back before the all-gathered data is copied into it.
    void fsdpCopyAndStorageResizeRunNatively()
    {
        const auto g = parse("p: \"f32[2, 3]\", data: \"f32[2, 3]\"",
                             "        resize_storage_bytes_ = torch.ops.inductor.resize_storage_bytes_.default(p, 0)\n"
                             "        resize_storage_bytes__1 = torch.ops.inductor.resize_storage_bytes_.default(p, 24)\n"
                             "        copy_ = torch.ops.fsdp.copy_.default(p, data)\n"
                             "        return (p,)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        std::vector<c10::IValue> values(g.nodes.size());
        const at::Tensor p = at::randn({2, 3}), data = at::randn({2, 3});
        values[static_cast<std::size_t>(g.findNode("p"))] = p;
        values[static_cast<std::size_t>(g.findNode("data"))] = data;
        for (const char* node : {"resize_storage_bytes_", "resize_storage_bytes__1", "copy_"})
            QVERIFY2(planOf(g, plans, node).kind == NodePlan::Kind::Op, planOf(g, plans, node).why.c_str());
        runPlan(planOf(g, plans, "resize_storage_bytes_"), values);
        QCOMPARE(p.storage().nbytes(), std::size_t(0));
        runPlan(planOf(g, plans, "resize_storage_bytes__1"), values);
        QCOMPARE(p.storage().nbytes(), std::size_t(24));
        runPlan(planOf(g, plans, "copy_"), values);
        QVERIFY(at::equal(p, data));
    }

    // Dropout that draws nothing (p = 0 in training: timm ViT's head dropout of the class token x[:, 0]) returns
    // its input in eager, where fake tensors recorded a dense clone: a fake-vs-eager layout, set apart, not a
    // mismatch (6 ViT trace graphs on the H100).
    void anIdentityDropoutsLayoutIsTorchsFakeVsEagerDifference()
    {
        const QString path = QDir(QDir::tempPath()).filePath("fxray_engine_identity_dropout.py");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, L_x_: \"f32[2, 65, 64][4160, 64, 1]cpu\"):\n"
                "        l_x_ = L_x_\n"
                "        x_32: \"f32[2, 64][4160, 1]cpu\" = l_x_[(slice(None, None, None), 0)];  l_x_ = None\n"
                "        x_33: \"f32[2, 64][64, 1]cpu\" = torch.nn.functional.dropout(x_32, 0.0, True, False);  x_32 = None\n"
                "        return (x_33,)\n");
        f.close();
        const io::LoadedGraph lg = io::loadAddress(path.toStdString());
        const replay::ReplayReport r = replay::replayGraph(lg, replay::ReplayOptions{});
        QFile::remove(path);
        QVERIFY2(r.fatal.empty(), r.fatal.c_str());
        QCOMPARE(r.verdict(), std::string("pass"));
        const auto& dropout = r.nodes[static_cast<std::size_t>(lg.graph.findNode("x_33"))];
        QVERIFY(dropout.mismatches.empty());
        QCOMPARE(dropout.kernelLayouts.size(), std::size_t(1));
    }

    // Generated integer inputs stay inside their value domain: embedding indices below num_embeddings and
    // nll_loss targets below the class count, even when the free integer range asked for is far wider.
    void generatedIndicesStayInsideTheirDomain()
    {
        const io::LoadedGraph lg = io::loadAddress(kSamples + "/h100/dumps/embed_ce/embed_ce_forward_0");
        replay::ReplayOptions options;
        options.intLow = 0;
        options.intHigh = 1'000'000;  // what an unconstrained i64 input would be drawn from
        replay::ReplayReport report;
        const auto inputs = replay::detail::makeInputs(lg, options, kCpu, report);
        for (const char* name : {"primals_2", "primals_5"}) {  // embedding(weight[1000, 64], ids); nll_loss target
            const at::Tensor t = inputs[static_cast<std::size_t>(lg.graph.findNode(name))].toTensor();
            QCOMPARE(t.scalar_type(), at::kLong);
            QVERIFY2(t.min().item<std::int64_t>() >= 0, name);
            QVERIFY2(t.max().item<std::int64_t>() < 1000, name);
        }
        // The same seed gives the same inputs; another seed others.
        const auto again = replay::detail::makeInputs(lg, options, kCpu, report);
        QVERIFY(at::equal(inputs[0].toTensor(), again[0].toTensor()));
        options.seed = 1;
        const auto other = replay::detail::makeInputs(lg, options, kCpu, report);
        QVERIFY(!at::equal(inputs[0].toTensor(), other[0].toTensor()));
    }

    // A backward's saved activations are its forward's outputs of the same name; tangents stay generated.
    void aBackwardTakesItsSavedActivationsFromItsForward()
    {
        const io::LoadedGraph bw = io::loadAddress(kSamples + "/h100/dumps/mlp/mlp_backward_0");
        replay::ReplayOptions options;
        replay::ReplayReport report;
        std::vector<c10::IValue> inputs = replay::detail::makeInputs(bw, options, kCpu, report);
        const at::Tensor tangent = inputs[static_cast<std::size_t>(bw.graph.findNode("tangents_1"))].toTensor();
        // The forward, run for real by the engine's runner in a replay; here its outputs are marked so that where
        // each one lands can be seen: output k is filled with k.
        replay::detail::ForwardRunner runner = [](const io::LoadedGraph& fw, const replay::ReplayOptions&) {
            std::vector<c10::IValue> outs;
            const graph::Node& output = fw.graph.nodes.back();
            for (std::size_t k = 0; k < output.args[0].items.size(); ++k) {
                const graph::Node& src = fw.graph.nodes[static_cast<std::size_t>(output.args[0].items[k].node)];
                std::vector<std::int64_t> sizes;
                for (const auto& d : src.meta->tensor.sizes)
                    sizes.push_back(*d.value);
                outs.emplace_back(at::full(sizes, static_cast<double>(k)));
            }
            return outs;
        };
        replay::detail::chainFromForward(bw, options, runner, inputs, report);
        QVERIFY2(!report.chainedFrom.empty(), report.notes.empty() ? "" : report.notes.back().c_str());
        QVERIFY(report.chainedFrom.find("mlp_forward_0") != std::string::npos);
        // forward returns (addmm_1, primals_3, relu, alias, t_1): the backward's primals_3, relu, alias, t_1.
        QCOMPARE(report.chainedInputs.size(), std::size_t(4));
        const std::vector<std::pair<const char*, double>> expect = {{"primals_3", 1}, {"relu", 2}, {"alias", 3}, {"t_1", 4}};
        for (const auto& [name, k] : expect) {
            const at::Tensor t = inputs[static_cast<std::size_t>(bw.graph.findNode(name))].toTensor();
            QVERIFY2(t.eq(k).all().item<bool>(), name);
        }
        QVERIFY(at::equal(inputs[static_cast<std::size_t>(bw.graph.findNode("tangents_1"))].toTensor(), tangent));
    }

    // End to end in the engine: the chained backward replays clean on the CPU (recorded on an H100).
    void aChainedBackwardReplaysClean()
    {
        const io::LoadedGraph bw = io::loadAddress(kSamples + "/h100/dumps/mlp/mlp_backward_0");
        replay::ReplayOptions options;
        const replay::ReplayReport r = replay::replayGraph(bw, options);
        QVERIFY2(r.fatal.empty(), r.fatal.c_str());
        QVERIFY(r.chainedFrom.find("mlp_forward_0") != std::string::npos);
        QCOMPARE(r.verdict(), std::string("pass"));
    }

    // Output comparison: equal passes, within the dtype's tolerance passes unless exact is asked, beyond it fails
    // naming how far; NaN equals NaN in the same place and nothing else; Inf equals Inf of the same sign.
    void outputsCompareExactlyOrWithinTheDtypesTolerance()
    {
        const at::Tensor ref = at::arange(16, at::kFloat).reshape({4, 4}) / 16;
        QVERIFY(compare(ref.clone(), ref).ok);
        QCOMPARE(compare(ref.clone(), ref).maxAbs, 0.0);
        const at::Tensor near = ref + 1e-6;  // f32 tolerance: 1e-4
        QVERIFY(compare(near, ref).ok);
        QVERIFY(!compare(near, ref, true).ok);
        const auto far = compare(ref + 1e-2, ref);
        QVERIFY(!far.ok);
        QCOMPARE(far.mismatched, std::int64_t(16));
        QVERIFY(std::abs(far.maxAbs - 1e-2) < 1e-6);
        // Integers: exactly.
        const at::Tensor ids = at::arange(8, at::kLong);
        QVERIFY(compare(ids.clone(), ids).ok);
        QVERIFY(!compare(ids + 1, ids).ok);
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        const at::Tensor withNan = at::tensor({1.0, nan, 3.0}, at::kFloat);
        QVERIFY(compare(withNan.clone(), withNan).ok);
        QVERIFY(!compare(at::tensor({1.0, 2.0, 3.0}, at::kFloat), withNan).ok);
        QVERIFY(!compare(withNan, at::tensor({1.0, 2.0, 3.0}, at::kFloat)).ok);
        const at::Tensor withInf = at::tensor({-inf, 0.0, inf}, at::kFloat);
        QVERIFY(compare(withInf.clone(), withInf).ok);
        QVERIFY(!compare(at::tensor({inf, 0.0, inf}, at::kFloat), withInf).ok);
        // Shape or dtype disagreement is a failure with a note, not a crash.
        const auto shape = compare(ref.reshape({16}), ref);
        QVERIFY(!shape.ok);
        QVERIFY(!shape.note.empty());
    }

    // A checked CUDA graph's first replay is compared with the checked pass row by row (compareReplayStatsWithPass,
    // issue 24: the checks run beside the compute and must still read what the pass read). Equal rows, a
    // nondeterministic kernel's rounding and NaN in the same place pass; another NaN count or a min read from other
    // memory is counted, and the first such node named.
    void replayStatisticsThatDifferFromThePassAreCountedAndNamed()
    {
        auto node = [](const std::string& name, std::vector<replay::OutputStats> outs) {
            replay::NodeResult r;
            r.name = name;
            r.outputs = std::move(outs);
            return r;
        };
        auto stats = [](double mn, double mx, double mean, std::int64_t nan = 0) {
            replay::OutputStats s;
            s.hasValues = true;
            s.min = mn, s.max = mx, s.mean = mean, s.nanCount = nan, s.numel = 8;
            return s;
        };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const std::vector<replay::NodeResult> pass = {node("mm", {stats(-1, 2, 0.25)}), node("relu", {stats(0, 2, nan, 1)}),
                                                       node("sum", {stats(4, 4, 4)}), node("meta_only", {replay::OutputStats{}})};
        replay::CudaGraphReport same;
        std::vector<replay::NodeResult> replay = pass;
        replay[2].outputs[0].mean = 4 * (1 + 1e-7);  // an atomics' rounding
        replay::detail::compareReplayStatsWithPass(replay, pass, {}, same);
        QCOMPARE(same.statsRowsCompared, 3);
        QCOMPARE(same.statsRowsDiffer, 0);

        replay[0].outputs[0].min = 17;  // another tensor's memory
        replay[1].outputs[0].nanCount = 0;
        replay::CudaGraphReport raced;
        replay::detail::compareReplayStatsWithPass(replay, pass, {}, raced);
        QCOMPARE(raced.statsRowsDiffer, 2);
        QCOMPARE(raced.firstStatsDiffer, std::string("mm"));
    }

    // Rows whose numbers differ on every run are not compared (issue 24: an H100 bench run's captured repeats of the
    // transformer layer fell back to the interpreter): efficient attention without dropout returns philox seed and
    // offset it never writes (at::empty: the allocator's bits), and whatever a dropout draws from is random. Neither the
    // attention node (its tuple holds the seed), its seed's getitem, the dropout nor what follows it is compared; the
    // attention's output and the nodes before the dropout still are.
    void replayStatisticsOfRandomAndNeverWrittenValuesAreNotCompared()
    {
        const std::string f = "\"f32[2, 3, 8, 4]\"";
        const auto g = parse("q: " + f + ", k: " + f + ", v: " + f,
                             "        attn = torch.ops.aten._scaled_dot_product_efficient_attention.default(q, k, v, None, True, 0.0, True)\n"
                             "        out = attn[0]\n"
                             "        seed = attn[2]\n"
                             "        relu = torch.ops.aten.relu.default(out)\n"
                             "        drop = torch.ops.aten.native_dropout.default(relu, 0.1, True)\n"
                             "        kept = drop[0]\n"
                             "        mul = torch.ops.aten.mul.Tensor(kept, 2)\n"
                             "        return (mul, seed)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        const std::vector<bool> varies = replay::detail::valuesVaryBetweenRuns(g, plans);
        for (const auto& [name, vary] : {std::pair{"q", false}, {"attn", true}, {"out", false}, {"seed", true}, {"relu", false},
                                          {"drop", true}, {"kept", true}, {"mul", true}})
            QVERIFY2(varies[static_cast<std::size_t>(g.findNode(name))] == vary, name);

        std::vector<replay::NodeResult> pass(g.nodes.size()), replayed(g.nodes.size());
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            replay::OutputStats s;
            s.hasValues = true, s.numel = 8, s.min = 0, s.max = 1, s.mean = 0.5;
            pass[i].name = g.nodes[i].name, pass[i].outputs = {s};
            s.min = -7;  // every row differs on the replay
            replayed[i].name = g.nodes[i].name, replayed[i].outputs = {s};
        }
        replay::CudaGraphReport cg;
        replay::detail::compareReplayStatsWithPass(replayed, pass, varies, cg);
        const auto compared = static_cast<int>(std::count(varies.begin(), varies.end(), false));
        QCOMPARE(compared, 5);  // q, k, v, out, relu (the output node returns mul)
        QCOMPARE(cg.statsRowsCompared, compared);
        QCOMPARE(cg.statsRowsDiffer, compared);
        QCOMPARE(cg.firstStatsDiffer, std::string("q"));
    }

    // After a checked CUDA graph's first replay the captured checks see NaN/Inf presence only (issue 24):
    // recordCheckedReplay counts such replays apart, still names the node that made the NaN, and marks the nodes it
    // keeps from such a replay as not counted (their 1 means "present", not one element).
    void presenceOnlyReplaysNameTheOriginAndSayTheirNumbersAreNotCounts()
    {
        const auto g = parse("x: \"f32[4]\"", "        log = torch.ops.aten.log.default(x)\n        return (log,)\n");
        std::vector<replay::NodeResult> results(g.nodes.size());
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            results[i].name = g.nodes[i].name;
        replay::CudaGraphReport cg;
        replay::detail::recordCheckedReplay(g, results, "", /*strict=*/true, /*presence=*/false, cg);  // clean, full
        const auto log = static_cast<std::size_t>(g.findNode("log"));
        replay::OutputStats present;
        present.hasValues = true, present.numel = 4, present.nanCount = 1;
        results[log].outputs = {present};
        results[log].nanOrigin = true;
        replay::detail::recordCheckedReplay(g, results, "log", /*strict=*/true, /*presence=*/true, cg);
        replay::detail::recordCheckedReplay(g, results, "log", /*strict=*/true, /*presence=*/true, cg);
        QCOMPARE(cg.checkedReplays, 3);
        QCOMPARE(cg.presenceReplays, 2);
        QCOMPARE(cg.nanReplays, 2);
        QCOMPARE(cg.firstNanNode, std::string("log"));
        QCOMPARE(cg.nonFinite.size(), std::size_t(1));
        QVERIFY(cg.nonFinite[0].origin && !cg.nonFinite[0].counted && cg.nonFinite[0].nan == 1);
    }

    // CUDA-recorded fused attention with dropout on the CPU (issue 21: HF training graphs captured on a GPU, whose CPU
    // replay failed "cannot redraw its dropout"): the stand-in's forward draws its mask from a seed it hands on as
    // philox_seed, its backward redraws that mask from it, and both equal autograd through SDPA's math with the same
    // mask. The forwards are random ops wherever their schema puts dropout_p (flash's 4th argument, SDPA's 5th),
    // not without dropout; a backward replayed alone on a recorded seed has random outputs too (its own mask).
    void fusedAttentionWithDropoutRunsOnTheCpuAsOneDrawAndIsRandom()
    {
        const std::string f = "\"f32[2, 3, 8, 4]\"";
        const auto g = parse("q: " + f + ", k: " + f + ", v: " + f + ", dout: " + f,
                             "        attn = torch.ops.aten._scaled_dot_product_efficient_attention.default(q, k, v, None, True, 0.25, True)\n"
                             "        flash = torch.ops.aten._scaled_dot_product_flash_attention.default(q, k, v, 0.1, True)\n"
                             "        sdpa = torch.ops.aten.scaled_dot_product_attention.default(q, k, v, None, 0.1)\n"
                             "        plain = torch.ops.aten._scaled_dot_product_flash_attention.default(q, k, v, 0.0, True)\n"
                             "        return (attn, flash, sdpa, plain)\n");
        for (const auto& [node, random] : {std::pair{"attn", true}, {"flash", true}, {"sdpa", true}, {"plain", false}})
            QVERIFY2(replay::detail::isRandomOp(g.nodes[static_cast<std::size_t>(g.findNode(node))]) == random, node);
        const auto plans = replay::detail::planGraph(g, kCpu);
        const NodePlan& forward = planOf(g, plans, "attn");
        QCOMPARE(forward.kind, NodePlan::Kind::Native);

        at::manual_seed(7);
        const at::Tensor q = at::randn({2, 3, 8, 4}), k = at::randn({2, 3, 8, 4}), v = at::randn({2, 3, 8, 4}), dout = at::randn({2, 3, 8, 4});
        std::vector<c10::IValue> values(g.nodes.size());
        values[0] = q, values[1] = k, values[2] = v, values[3] = dout;
        const auto outs = runPlan(forward, values).toTupleRef().elements();
        const at::Tensor out = outs[0].toTensor(), lse = outs[1].toTensor(), seed = outs[2].toTensor();

        // The reference: autograd through SDPA's math, with the mask drawn from the seed the forward handed on.
        at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(static_cast<std::uint64_t>(seed.item<std::int64_t>()));
        const at::Tensor keep = at::rand({2, 3, 8, 8}, gen, at::TensorOptions().dtype(at::kFloat)) > 0.25;
        const at::Tensor rq = q.clone().requires_grad_(), rk = k.clone().requires_grad_(), rv = v.clone().requires_grad_();
        const at::Tensor ref = std::get<0>(at::_scaled_dot_product_attention_math(rq, rk, rv, std::nullopt, 0.25, true, keep));
        QVERIFY(at::allclose(out, ref.detach(), 1e-5, 1e-6));
        QCOMPARE(lse.sizes(), (at::IntArrayRef{2, 3, 32}));  // padded to a multiple of 32, as the CUDA kernel's
        ref.backward(dout);

        // The backward alone, its saved values as graph inputs (a CUDA backward graph's).
        const std::string i64 = "\"i64[]\"";
        const auto gb = parse("q: " + f + ", k: " + f + ", v: " + f + ", dout: " + f + ", out: " + f +
                                  ", lse: \"f32[2, 3, 32]\", seed: " + i64 + ", offset: " + i64,
                              "        bwd = torch.ops.aten._scaled_dot_product_efficient_attention_backward.default(dout, q, k, v, "
                              "None, out, lse, seed, offset, 0.25, [True, True, True, False], True)\n"
                              "        return (bwd,)\n");
        const auto bplans = replay::detail::planGraph(gb, kCpu);
        const NodePlan& backward = planOf(gb, bplans, "bwd");
        QCOMPARE(backward.kind, NodePlan::Kind::Native);
        std::vector<c10::IValue> bvalues(gb.nodes.size());
        bvalues[0] = q, bvalues[1] = k, bvalues[2] = v, bvalues[3] = dout, bvalues[4] = out, bvalues[5] = lse;
        bvalues[6] = seed, bvalues[7] = outs[3];
        const auto grads = runPlan(backward, bvalues).toTupleRef().elements();
        QVERIFY(at::allclose(grads[0].toTensor(), rq.grad(), 1e-4, 1e-5));
        QVERIFY(at::allclose(grads[1].toTensor(), rk.grad(), 1e-4, 1e-5));
        QVERIFY(at::allclose(grads[2].toTensor(), rv.grad(), 1e-4, 1e-5));
        const auto nd = replay::detail::outputNondeterminism(gb, bplans);
        QVERIFY(!nd.empty() && !nd[0].random.empty());
        QVERIFY(nd[0].random.begin()->find("stand-in") != std::string::npos);
    }

    // histc of integer input (MoE routers' tokens per expert) runs on a CPU replay, whose kernel takes floats only
    // ("histogram_cpu" not implemented for 'Int': 21 of Qwen2-MoE's 182 CUDA trace records): CUDA's counts, in the
    // input's dtype, the maximum in the last bin; float input as before.
    void integerHistcRunsOnTheCpuWithCudasCounts()
    {
        const auto g = parse("experts: \"i32[12]\", x: \"f32[5]\"",
                             "        histc: \"i32[4]\" = torch.ops.aten.histc.default(experts, 4, 0, 3)\n"
                             "        histc_1: \"f32[2]\" = torch.ops.aten.histc.default(x, 2)\n"
                             "        return (histc, histc_1)\n");
        const auto plans = replay::detail::planGraph(g, kCpu);
        std::vector<c10::IValue> values(g.nodes.size());
        values[0] = at::tensor({0, 3, 3, 1, 2, 3, 0, 1, 1, 1, 3, 2}, at::kInt);
        values[1] = at::tensor({0.0, 0.25, 1.0, 0.5, 0.75}, at::kFloat);
        const at::Tensor counts = runPlan(planOf(g, plans, "histc"), values).toTensor();
        QCOMPARE(counts.scalar_type(), at::kInt);
        QVERIFY(at::equal(counts, at::tensor({2, 4, 2, 4}, at::kInt)));
        const at::Tensor floats = runPlan(planOf(g, plans, "histc_1"), values).toTensor();
        QVERIFY(at::equal(floats, at::histc(values[1].toTensor(), 2)));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
