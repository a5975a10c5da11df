// The checked interpreter: one pass over a prepared replay, running node plans in program order, freeing values
// after their last use, checking each node's outputs against the recorded metadata (value checks deferred to one
// read-back: deferred_checks.h), setting apart the layouts another device's kernels chose, timing each node.
#include "replay/engine/replay_pass.h"

#include "base/error.h"
#include "replay/engine/fake_layouts.h"
#include "replay/ops/rng_state_ops.h"
#include "replay/ops/vmap_ops.h"
#include "replay/plan/cpu_dtype_gaps.h"
#include "replay/plan/python_values.h"
#include "replay/values/device_stats.h"
#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"
#include "replay/values/value_digest.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

namespace fxray::replay::engine {
namespace {

// The graph's outputs in the order the output node lists them, None entries included (flattened like pytree).
void collectOutputs(const graph::Arg& a, const std::vector<c10::IValue>& values, std::vector<c10::IValue>& out)
{
    switch (a.kind) {
    case graph::Arg::Kind::List:
    case graph::Arg::Kind::Tuple:
        for (const graph::Arg& item : a.items)
            collectOutputs(item, values, out);
        break;
    case graph::Arg::Kind::Node: out.push_back(values[static_cast<std::size_t>(a.node)]); break;
    case graph::Arg::Kind::Int: out.emplace_back(a.i); break;
    case graph::Arg::Kind::Float: out.emplace_back(a.f); break;
    case graph::Arg::Kind::Bool: out.emplace_back(a.b); break;
    default: out.emplace_back(); break;
    }
}

// Values of one pass and what is known about them, indexed by node.
struct PassState {
    explicit PassState(std::size_t n) : values(n), available(n, false), freed(n, false), otherLayout(n, false), layoutOff(n, false) {}
    std::vector<c10::IValue> values;
    std::vector<bool> available, freed;
    // The node's layout differs from the recording because the graph was recorded on another device type and a
    // kernel upstream picked its own layout there (NodeResult::crossDeviceLayouts).
    std::vector<bool> otherLayout;
    // The node's layout differs from the recording for no reason set apart (a stride mismatch): what follows from it
    // is not the kernel's own choice.
    std::vector<bool> layoutOff;
    std::vector<c10::IValue> stack, outputs;
    graph::SymExpr::Bindings bindings;
    // The graph's NodeFacts: the Prepared's, or the pass's own when it has none.
    std::vector<NodeFacts> ownFacts;
    const std::vector<NodeFacts>* facts = nullptr;
    // The replay device's type as recorded metadata spells it ("cuda"), compared with every tensor node's record.
    std::string deviceTypeName;
    std::size_t nextInput = 0;
    // The note of the op just run when its CPU kernel refused a reduced float and it ran widened (cpu_dtype_gaps.h).
    std::string widenedNote;
    // Value checks of a checked pass: statistics reduced on the device, read back once per pass (deferred_checks.h);
    // the pass's own, or the caller's (a CUDA-graph capture, read back after each replay).
    std::optional<detail::DeferredValueChecks> ownChecks;
    detail::DeferredValueChecks* checks = nullptr;
};

// What the node's inputs are like: why one is missing ("" when all are there), whether any is a tensor (a node
// without tensor inputs is a factory).
struct InputState {
    std::string missing;
    bool anyTensor = false;
    bool otherLayout = false;  // an input's layout is another device's choice (PassState::otherLayout)
    bool layoutOff = false;    // an input's layout differs from its recording (PassState::layoutOff)
};

InputState inputStateOf(const graph::Graph& g, const NodeFacts& facts, const PassState& s)
{
    InputState in;
    // resize_storage_bytes_ is what gives a freed storage its bytes back: its input may have none.
    const bool resizesStorage = facts.resizesStorage;
    for (const int ref : facts.inputs) {
        const auto k = static_cast<std::size_t>(ref);
        if (in.missing.empty() && s.freed[k])
            in.missing = "input '" + g.nodes[k].name + "' is used after the dump freed it";
        else if (in.missing.empty() && !s.available[k])
            in.missing = "input '" + g.nodes[k].name + "' was not computed";
        else if (in.missing.empty() && !resizesStorage && s.values[k].isTensor() &&
                 !detail::StatsBuffer::storageHoldsElements(s.values[k].toTensor()))
            in.missing = "input '" + g.nodes[k].name + "' has no storage for its elements (resized to " +
                         std::to_string(s.values[k].toTensor().storage().nbytes()) +
                         " bytes: FSDP2 frees an unsharded parameter so, and the Python hook that gathers it again "
                         "before the backward did not run)";
        in.otherLayout = in.otherLayout || s.otherLayout[k];
        in.layoutOff = in.layoutOff || s.layoutOff[k];
        in.anyTensor = in.anyTensor || s.values[k].isTensor() || s.values[k].isTensorList() ||
                       (s.values[k].isList() && !detail::flattenTensors(s.values[k]).empty());
    }
    return in;
}

// Runs one node's plan, leaving its value in s.values[i].
void execute(const Prepared& p, std::size_t i, PassState& s)
{
    const graph::Node& node = p.graph->nodes[i];
    const NodePlan& plan = p.plans[i];
    switch (plan.kind) {
    case NodePlan::Kind::Input: s.values[i] = p.inputs[s.nextInput++]; break;
    case NodePlan::Kind::Constant: {
        auto it = p.constants.find(node.attr);
        if (it == p.constants.end())
            throw Error("constant self." + node.attr + " is not in state_dict.pt");
        s.values[i] = it->second;
        break;
    }
    case NodePlan::Kind::Op:
        detail::assembleStack(plan, s.values, s.stack);
        try {
            plan.op->callBoxed(s.stack);
        } catch (const c10::NotImplementedError& refused) {
            s.widenedNote = detail::runWidenedOnCpu(plan, s.values, s.stack, refused);
            if (s.widenedNote.empty())
                throw;
        }
        if (s.stack.size() == 1)
            s.values[i] = std::move(s.stack[0]);
        else if (s.stack.empty())
            s.values[i] = c10::IValue();
        else
            s.values[i] = c10::ivalue::Tuple::create(std::move(s.stack));
        break;
    case NodePlan::Kind::Getitem:
        s.values[i] = detail::getItem(detail::assembleArg(plan.args[0], s.values), plan.args[1].constant.toInt());
        break;
    case NodePlan::Kind::Operator:
    case NodePlan::Kind::SymFloat: {
        std::vector<c10::IValue> operands;
        for (const auto& a : plan.args)
            operands.push_back(detail::assembleArg(a, s.values));
        s.values[i] = detail::applyOperator(plan.name, operands);
        break;
    }
    case NodePlan::Kind::Native: {
        std::vector<c10::IValue> operands;
        for (const auto& a : plan.args)
            operands.push_back(detail::assembleArg(a, s.values));
        s.values[i] = plan.native(operands);
        break;
    }
    case NodePlan::Kind::Output:
        if (!node.args.empty())
            collectOutputs(node.args[0], s.values, s.outputs);
        break;
    case NodePlan::Kind::Unsupported: break;
    }
}

// Ops whose kernel picks its output layout per device and backend: SDPA's flash / efficient / math variants,
// cuDNN vs oneDNN convolutions; and the getitem that picks one of their outputs.
bool backendPicksLayout(const graph::Graph& g, const graph::Node& n)
{
    if (n.target.kind == graph::Target::Kind::Getitem && !n.args.empty() && n.args[0].kind == graph::Arg::Kind::Node)
        return backendPicksLayout(g, g.nodes[static_cast<std::size_t>(n.args[0].node)]);
    if (auto inner = detail::innerOpNode(n))  // activation checkpointing's run_and_save_rng_state(op, ...)
        return backendPicksLayout(g, *inner);
    const std::string& op = n.target.op;
    return op.find("attention") != std::string::npos || op.find("convolution") != std::string::npos ||
           op.starts_with("conv") || op.find("cudnn") != std::string::npos || op.find("mkldnn") != std::string::npos;
}

// A graph recorded on another device type than the replay's: stride differences of a node whose kernel picks its
// layout per device, or whose inputs carry such a layout, are the devices' difference, kept apart from the
// mismatches (NodeResult::crossDeviceLayouts).
void setAsideCrossDeviceLayouts(const graph::Node& node, const InputState& in, PassState& s, std::size_t i, NodeResult& r)
{
    const graph::ValueMeta& meta = *node.meta;
    if (!meta.isTensor() || !meta.tensor.device || meta.tensor.device->type == s.deviceTypeName ||
        !((*s.facts)[i].backendPicksLayout || in.otherLayout))
        return;
    auto stride = std::stable_partition(r.mismatches.begin(), r.mismatches.end(),
                                        [](const Mismatch& m) { return m.kind != Mismatch::Kind::Stride; });
    r.crossDeviceLayouts.assign(stride, r.mismatches.end());
    r.mismatches.erase(stride, r.mismatches.end());
    s.otherLayout[i] = !r.crossDeviceLayouts.empty();
}

// Whether every mismatch is a stride (and there is one).
bool onlyStrides(const std::vector<Mismatch>& mismatches)
{
    return !mismatches.empty() &&
           std::all_of(mismatches.begin(), mismatches.end(), [](const Mismatch& m) { return m.kind == Mismatch::Kind::Stride; });
}

// Stride-only differences at such an op whose inputs hold their recorded layouts, and at the nodes that only carry
// its layout on (NodeResult::kernelLayouts). Any other remaining stride difference marks the node's layout as off,
// so nothing downstream of it is set apart.
void setAsideKernelLayouts(const graph::Graph& g, const graph::Node& node, const InputState& in, PassState& s,
                           std::size_t i, NodeResult& r)
{
    if (onlyStrides(r.mismatches) && !in.layoutOff && (fakeLayoutDiffersFromEager(g, node) || in.otherLayout)) {
        r.kernelLayouts = std::move(r.mismatches);
        r.mismatches.clear();
        s.otherLayout[i] = true;
        return;
    }
    for (const Mismatch& m : r.mismatches)
        s.layoutOff[i] = s.layoutOff[i] || m.kind == Mismatch::Kind::Stride;
}

// A view's layout follows from its input's: with every input at its recorded layout (or at the layout such a
// view itself set apart), a view whose strides still differ from its record has a record that contradicts its
// input's. Inductor's pad_mm joint pass does that: it pads a bmm (159 -> 160 rows on CUDA), slices it back, and
// leaves the users' records as they were (wav2vec2's attention backward on an H100); the later post-grad graphs of
// the same compile record the true layout. Only views of such a padded matmul are set apart
// (NodeResult::staleLayouts): elsewhere a view's record that contradicts its input's stays a mismatch.
void setAsideStaleViewLayouts(const graph::Graph& g, const NodePlan& plan, const InputState& in, PassState& s,
                              std::size_t i, NodeResult& r)
{
    if (!onlyStrides(r.mismatches) || in.layoutOff || !plan.op || plan.op->schema().returns().size() != 1 ||
        !readsPaddedMatmul(g, g.nodes[i]))
        return;
    const c10::AliasInfo* alias = plan.op->schema().returns()[0].alias_info();
    if (!(alias && !alias->isWrite()) && plan.op->schema().name() != "aten::_unsafe_view")
        return;  // not a view
    r.staleLayouts = std::move(r.mismatches);
    r.mismatches.clear();
    s.otherLayout[i] = true;
}

// Checks a node that ran: its recorded metadata, and with value checks its statistics and NaN/Inf origin.
void checkNode(const Prepared& p, const ReplayOptions& options, std::size_t i, const InputState& in, PassState& s,
               NodeResult& r)
{
    const graph::Node& node = p.graph->nodes[i];
    r.mismatches.clear();
    r.crossDeviceLayouts.clear();
    r.kernelLayouts.clear();
    r.staleLayouts.clear();
    r.outputs.clear();
    if (p.plans[i].kind == NodePlan::Kind::Output) {
        // The graph's outputs: their stats; NaN/Inf there was already traced to its origin upstream.
        if (s.checks)
            s.checks->queueGraphOutputs(i, s.outputs);
        else
            for (const c10::IValue& v : s.outputs)
                r.outputs.push_back(detail::statsOf(v, false));
        r.status = NodeStatus::Passed;
        return;
    }
    if (node.meta) {
        graph::ValueMeta kernel;  // the CPU kernel's dtype where the recorded one is a fake rule's (Prepared::kernelDtypes)
        const auto dtype = p.kernelDtypes.find(static_cast<int>(i));
        if (dtype != p.kernelDtypes.end()) {
            kernel = *node.meta;
            kernel.tensor.dtype = dtype->second;
        }
        detail::checkValue(s.values[i], dtype != p.kernelDtypes.end() ? kernel : *node.meta, p.device, 0, s.bindings,
                           r.mismatches);
        setAsideCrossDeviceLayouts(node, in, s, i, r);
        setAsideStaleViewLayouts(*p.graph, p.plans[i], in, s, i, r);
        setAsideKernelLayouts(*p.graph, node, in, s, i, r);
    }
    if (!node.meta || !node.meta->isTensor()) {
        // Nothing recorded to check (a multi-output op's tuple): its values carry its inputs' layouts on to the
        // getitems that pick them.
        s.layoutOff[i] = s.layoutOff[i] || in.layoutOff;
        s.otherLayout[i] = s.otherLayout[i] || in.otherLayout;
    }
    if (s.checks)
        s.checks->queueNode(i, s.values[i], in.anyTensor);
    if (options.digests)
        detail::addDigests(s.values[i], r.outputs);
    if (r.status != NodeStatus::Error)
        r.status = r.mismatches.empty() ? NodeStatus::Passed : NodeStatus::Mismatch;
}

// Runs and checks node i, turning any exception into the node's error.
void runNode(const Prepared& p, const ReplayOptions& options, std::size_t i, const InputState& in, PassState& s,
             NodeResult& r, bool checked, DeviceTimer* timer)
{
    const bool isOp = p.plans[i].kind == NodePlan::Kind::Op;
    try {
        const bool timeIt = checked && options.timing;
        if (s.checks)
            s.checks->beforeNode(i);  // statistics of earlier nodes launched before this one may write to them
        const auto t0 = timeIt ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
        if (timer && isOp)
            timer->begin(i);
        s.widenedNote.clear();
        execute(p, i, s);
        if (timer && isOp)
            timer->end(i);
        if (!s.widenedNote.empty() && !r.schema.ends_with(s.widenedNote))
            r.schema += "  " + s.widenedNote;
        if (timeIt)
            r.timeUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        s.available[i] = true;
        if (checked)
            checkNode(p, options, i, in, s, r);
    } catch (const c10::Error& e) {
        r.status = NodeStatus::Error;
        r.error = detail::errorText(e);
    } catch (const std::exception& e) {  // fxray::Error included
        r.status = NodeStatus::Error;
        r.error = e.what();
    }
}

// After node i: a CUDA error it raised may be an earlier node's (kernels run asynchronously), and the statistics
// are read back when due. Returns the nodes whose results the read-back completed.
std::vector<std::size_t> readChecksIfDue(detail::DeferredValueChecks& checks, std::size_t i, NodeResult& r, ReplayReport* report)
{
    if (r.status == NodeStatus::Error)
        r.error = checks.blame(i, r.error);
    return checks.due() ? checks.readBack(report) : std::vector<std::size_t>{};
}

}  // namespace

std::vector<NodeFacts> nodeFacts(const graph::Graph& g)
{
    std::vector<NodeFacts> facts(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const graph::Node& node = g.nodes[i];
        graph::forEachNodeRef(node, [&](int ref) { facts[i].inputs.push_back(ref); });
        facts[i].resizesStorage = node.target.kind == graph::Target::Kind::Op && node.target.op == "resize_storage_bytes_";
        facts[i].backendPicksLayout = backendPicksLayout(g, node);
    }
    return facts;
}

void synchronize(const c10::Device& device)
{
    if (device.is_cuda())
        c10::impl::getDeviceGuardImpl(device.type())->synchronizeDevice(device.index());
}

// One pass. With `results`, every node is checked and reported there; `timer` may be null. Returns the graph's
// outputs (the values the output node reads, in order).
std::vector<c10::IValue> interpret(const Prepared& p, const ReplayOptions& options, std::vector<NodeResult>* results,
                                   DeviceTimer* timer, ReplayReport* report, CancelToken* cancel,
                                   const ProgressSink& progress, const NodeSink& nodeDone,
                                   detail::DeferredValueChecks* capturedChecks)
{
    const graph::Graph& g = *p.graph;
    const std::size_t n = g.nodes.size();
    // A pass that stops inside a vmap region (an error, --stop-on-first) leaves its levels open on this thread: they
    // are closed when the pass ends, however it ends, so the next pass (or graph) runs outside vmap.
    struct CloseVmapLevels {
        ~CloseVmapLevels() { detail::popLeftoverVmapLevels(); }
    } closeVmapLevels;
    PassState s(n);
    s.facts = p.facts.size() == n ? &p.facts : &(s.ownFacts = nodeFacts(g));
    s.deviceTypeName = c10::DeviceTypeName(p.device.type(), true);
    if (capturedChecks && results)
        (s.checks = capturedChecks)->restart();
    else if (results && options.valueChecks)
        s.checks = &s.ownChecks.emplace(g, p.plans, *results, options.stopOnFirst);
    for (std::size_t i = 0; i < n; ++i) {
        if (cancel && cancel->cancelled.load()) {
            if (report)
                report->cancelled = true;
            break;
        }
        const graph::Node& node = g.nodes[i];
        const NodePlan& plan = p.plans[i];
        NodeResult scratch;
        NodeResult& r = results ? (*results)[i] : scratch;
        // Inputs to this node that are missing (an earlier error or unsupported node) make it skipped.
        const InputState in = inputStateOf(g, (*s.facts)[i], s);
        if (plan.kind == NodePlan::Kind::Unsupported) {
            r.status = NodeStatus::Unsupported;
            r.error = plan.why;
        } else if (!in.missing.empty() && plan.kind != NodePlan::Kind::Output) {
            r.status = NodeStatus::Skipped;
            r.error = in.missing;
        } else {
            runNode(p, options, i, in, s, r, results != nullptr, timer);
        }
        for (int f : node.frees) {
            s.values[static_cast<std::size_t>(f)] = c10::IValue();
            s.freed[static_cast<std::size_t>(f)] = true;
        }
        // Statistics are read back when the buffer is full (after every node with --stop-on-first); the nodes they
        // complete are sent again.
        const std::vector<std::size_t> completed = s.checks ? readChecksIfDue(*s.checks, i, r, report) : std::vector<std::size_t>{};
        if (nodeDone && results) {
            for (std::size_t k : completed)
                if (k != i)
                    nodeDone(k, (*results)[k]);
            nodeDone(i, r);
        }
        if (progress)
            progress(i + 1, n);
        if (options.stopOnFirst && (r.status == NodeStatus::Mismatch || r.status == NodeStatus::Error || r.nanOrigin))
            break;
    }
    if (s.checks && capturedChecks)
        s.checks->flush();  // inside the capture, whatever ended the pass
    if (s.checks && !capturedChecks)
        for (std::size_t k : s.checks->readBack(report))
            if (nodeDone)
                nodeDone(k, (*results)[k]);
    return std::move(s.outputs);
}

}  // namespace fxray::replay::engine
