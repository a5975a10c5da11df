// The checked interpreter: one pass over a prepared replay, running node plans in program order, freeing values
// after their last use, checking each node's outputs against the recorded metadata (value checks deferred to one
// read-back: deferred_checks.h), setting apart the layouts another device's kernels chose, timing each node.
#include "replay/engine/replay_pass.h"

#include "base/error.h"
#include "replay/engine/fake_layouts.h"
#include "replay/ops/rng_state_ops.h"
#include "replay/ops/vmap_ops.h"
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

// Python-level arithmetic on ints/floats/bools (SymInt nodes).
c10::IValue applyOperator(const std::string& op, const std::vector<c10::IValue>& a)
{
    auto isInt = [](const c10::IValue& v) { return v.isInt() || v.isBool(); };
    auto asInt = [](const c10::IValue& v) { return v.isBool() ? static_cast<std::int64_t>(v.toBool()) : v.toInt(); };
    auto asDouble = [&](const c10::IValue& v) { return v.isDouble() ? v.toDouble() : static_cast<double>(asInt(v)); };
    if (a.size() == 1) {
        if (op == "neg") {
            if (isInt(a[0]) && asInt(a[0]) == INT64_MIN)
                throw Error("integer overflow in operator.neg");
            return isInt(a[0]) ? c10::IValue(-asInt(a[0])) : c10::IValue(-asDouble(a[0]));
        }
        if (op == "not_" || op == "sym_not")
            return c10::IValue(!a[0].toBool());
        if (op == "float" || op == "sym_float")
            return c10::IValue(asDouble(a[0]));
        if (op == "int" || op == "sym_int")
            return c10::IValue(static_cast<std::int64_t>(asDouble(a[0])));
    }
    if (a.size() == 2) {
        const bool ints = isInt(a[0]) && isInt(a[1]);
        const std::int64_t x = ints ? asInt(a[0]) : 0, y = ints ? asInt(a[1]) : 0;
        const double p = asDouble(a[0]), q = asDouble(a[1]);
        std::int64_t r = 0;
        auto checked = [&](bool overflowed) {
            if (overflowed)
                throw Error("integer overflow in operator." + op);
            return c10::IValue(r);
        };
        if (op == "add")
            return ints ? checked(__builtin_add_overflow(x, y, &r)) : c10::IValue(p + q);
        if (op == "sub")
            return ints ? checked(__builtin_sub_overflow(x, y, &r)) : c10::IValue(p - q);
        if (op == "mul")
            return ints ? checked(__builtin_mul_overflow(x, y, &r)) : c10::IValue(p * q);
        if (op == "truediv")
            return c10::IValue(p / q);
        if (op == "floordiv" || op == "mod") {
            if (ints) {
                if (y == 0)
                    throw Error("integer division by zero");
                if (x == INT64_MIN && y == -1)
                    throw Error("integer overflow in operator." + op);
                std::int64_t fd = x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0);
                return op == "floordiv" ? c10::IValue(fd) : c10::IValue(x - fd * y);
            }
            double fd = std::floor(p / q);
            return op == "floordiv" ? c10::IValue(fd) : c10::IValue(p - fd * q);
        }
        if (op == "pow") {
            if (!ints || y < 0)
                return c10::IValue(std::pow(p, q));
            // |x| <= 1 needs no loop (y may be huge); otherwise overflow comes within 63 steps.
            if (x == 0 || x == 1) {
                r = (x == 1 || y == 0) ? 1 : 0;
            } else if (x == -1) {
                r = y % 2 ? -1 : 1;
            } else {
                r = 1;
                for (std::int64_t k = 0; k < y; ++k)
                    if (__builtin_mul_overflow(r, x, &r))
                        throw Error("integer overflow in operator.pow");
            }
            return c10::IValue(r);
        }
        if (op == "eq")
            return c10::IValue(p == q);
        if (op == "ne")
            return c10::IValue(p != q);
        if (op == "lt")
            return c10::IValue(p < q);
        if (op == "le")
            return c10::IValue(p <= q);
        if (op == "gt")
            return c10::IValue(p > q);
        if (op == "ge")
            return c10::IValue(p >= q);
        if (op == "and_")
            return ints ? c10::IValue(x & y) : c10::IValue(a[0].toBool() && a[1].toBool());
        if (op == "or_")
            return ints ? c10::IValue(x | y) : c10::IValue(a[0].toBool() || a[1].toBool());
        if (op == "sym_max")
            return ints ? c10::IValue(std::max(x, y)) : c10::IValue(std::max(p, q));
        if (op == "sym_min")
            return ints ? c10::IValue(std::min(x, y)) : c10::IValue(std::min(p, q));
    }
    throw Error("operator." + op + " on " + std::to_string(a.size()) + " operand(s) is not supported");
}

c10::IValue getItem(const c10::IValue& base, std::int64_t index)
{
    auto pick = [&](std::int64_t size) {
        std::int64_t i = index < 0 ? index + size : index;
        if (i < 0 || i >= size)
            throw Error("index " + std::to_string(index) + " out of range for " + std::to_string(size) + " values");
        return static_cast<std::size_t>(i);
    };
    if (base.isTuple()) {
        const auto& e = base.toTupleRef().elements();
        return e[pick(static_cast<std::int64_t>(e.size()))];
    }
    if (base.isList()) {
        auto l = base.toListRef();
        return l[pick(static_cast<std::int64_t>(l.size()))];
    }
    throw Error("getitem on " + detail::describeValue(base));
}

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
    std::size_t nextInput = 0;
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

InputState inputStateOf(const graph::Graph& g, const graph::Node& node, const PassState& s)
{
    InputState in;
    // resize_storage_bytes_ is what gives a freed storage its bytes back: its input may have none.
    const bool resizesStorage = node.target.kind == graph::Target::Kind::Op && node.target.op == "resize_storage_bytes_";
    graph::forEachNodeRef(node, [&](int ref) {
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
    });
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
        plan.op->callBoxed(s.stack);
        if (s.stack.size() == 1)
            s.values[i] = std::move(s.stack[0]);
        else if (s.stack.empty())
            s.values[i] = c10::IValue();
        else
            s.values[i] = c10::ivalue::Tuple::create(std::move(s.stack));
        break;
    case NodePlan::Kind::Getitem:
        s.values[i] = getItem(detail::assembleArg(plan.args[0], s.values), plan.args[1].constant.toInt());
        break;
    case NodePlan::Kind::Operator:
    case NodePlan::Kind::SymFloat: {
        std::vector<c10::IValue> operands;
        for (const auto& a : plan.args)
            operands.push_back(detail::assembleArg(a, s.values));
        s.values[i] = applyOperator(plan.name, operands);
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
void setAsideCrossDeviceLayouts(const graph::Graph& g, const graph::Node& node, const c10::Device& device,
                                const InputState& in, PassState& s, std::size_t i, NodeResult& r)
{
    const graph::ValueMeta& meta = *node.meta;
    if (!meta.isTensor() || !meta.tensor.device || meta.tensor.device->type == c10::DeviceTypeName(device.type(), true) ||
        !(backendPicksLayout(g, node) || in.otherLayout))
        return;
    auto stride = std::stable_partition(r.mismatches.begin(), r.mismatches.end(),
                                        [](const Mismatch& m) { return m.kind != Mismatch::Kind::Stride; });
    r.crossDeviceLayouts.assign(stride, r.mismatches.end());
    r.mismatches.erase(stride, r.mismatches.end());
    s.otherLayout[i] = !r.crossDeviceLayouts.empty();
}

// Stride-only differences at such an op whose inputs hold their recorded layouts, and at the nodes that only carry
// its layout on (NodeResult::kernelLayouts). Any other remaining stride difference marks the node's layout as off,
// so nothing downstream of it is set apart.
void setAsideKernelLayouts(const graph::Graph& g, const graph::Node& node, const InputState& in, PassState& s,
                           std::size_t i, NodeResult& r)
{
    const bool strideOnly = !r.mismatches.empty() && std::all_of(r.mismatches.begin(), r.mismatches.end(), [](const Mismatch& m) {
        return m.kind == Mismatch::Kind::Stride;
    });
    if (strideOnly && !in.layoutOff && (fakeLayoutDiffersFromEager(g, node) || in.otherLayout)) {
        r.kernelLayouts = std::move(r.mismatches);
        r.mismatches.clear();
        s.otherLayout[i] = true;
        return;
    }
    for (const Mismatch& m : r.mismatches)
        s.layoutOff[i] = s.layoutOff[i] || m.kind == Mismatch::Kind::Stride;
}

// Checks a node that ran: its recorded metadata, and with value checks its statistics and NaN/Inf origin.
void checkNode(const Prepared& p, const ReplayOptions& options, std::size_t i, const InputState& in, PassState& s,
               NodeResult& r)
{
    const graph::Node& node = p.graph->nodes[i];
    r.mismatches.clear();
    r.crossDeviceLayouts.clear();
    r.kernelLayouts.clear();
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
        setAsideCrossDeviceLayouts(*p.graph, node, p.device, in, s, i, r);
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
        execute(p, i, s);
        if (timer && isOp)
            timer->end(i);
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
        const InputState in = inputStateOf(g, node, s);
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
