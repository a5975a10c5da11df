// The checked interpreter: runs node plans in program order, frees values after their last use, checks each
// node's outputs against the recorded metadata, finds where NaN/Inf first appears, times each node.
#include "replay/engine/replayer.h"

#include "base/error.h"
#include "io/pt_file.h"
#include "replay/cuda_graph/cuda_graph_capture.h"
#include "replay/cuda_graph/cuda_graph_safety.h"
#include "replay/engine/deferred_checks.h"
#include "replay/inputs/input_chaining.h"
#include "replay/inputs/input_factory.h"
#include "replay/api/nonfinite_reach.h"
#include "replay/engine/graph_plan.h"
#include "replay/values/pt_tensors.h"
#include "replay/ops/random_ops.h"
#include "replay/ops/rng_state_ops.h"
#include "replay/stages/stage_io.h"
#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"
#include "replay/values/value_digest.h"

#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <c10/core/Event.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#if __has_include(<c10/cuda/CUDACachingAllocator.h>)
#include <c10/cuda/CUDACachingAllocator.h>
#define FXRAY_HAVE_CUDA_ALLOCATOR 1
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace fxray::replay {
namespace {

using detail::NodePlan;

c10::Device parseDevice(const std::string& text)
{
    try {
        return c10::Device(text);
    } catch (const c10::Error&) {
        throw Error("bad device '" + text + "' (expected cpu, cuda or cuda:N)");
    }
}

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

// State dict constants for get_attr nodes, by attribute name.
std::map<std::string, at::Tensor> loadConstants(const io::LoadedGraph& lg, const c10::Device& device)
{
    std::map<std::string, at::Tensor> out;
    bool needed = false;
    for (const auto& n : lg.graph.nodes)
        needed = needed || n.kind == graph::NodeKind::GetAttr;
    if (!needed || lg.stateDictPath.empty())
        return out;
    // A constant goes where its get_attr node was recorded, else where the graph's first recorded tensor is (a
    // graph captured on the CPU keeps its weights there, as it keeps its inputs: see mapDevice), else to the
    // replay device.
    std::map<std::string, c10::Device> recorded;
    std::optional<c10::Device> graphDevice;
    for (const auto& n : lg.graph.nodes) {
        if (!n.meta || !n.meta->isTensor() || !n.meta->tensor.device)
            continue;
        const c10::Device d = detail::mapDevice(*n.meta->tensor.device, device);
        if (n.kind == graph::NodeKind::GetAttr)
            recorded.emplace(n.attr, d);
        if (!graphDevice)
            graphDevice = d;
    }
    io::PtFile pt = io::readPtFile(lg.stateDictPath);
    for (const auto& [key, v] : pt.root.entries) {
        if (key.kind != io::PtValue::Kind::String || !v.isTensor())
            continue;
        auto where = recorded.find(key.text);
        out[key.text] = detail::tensorFromRecord(*v.tensor, where != recorded.end() ? where->second : graphDevice.value_or(device));
    }
    return out;
}

// CUDA (or other accelerator) event pairs for per-node device time; empty on CPU.
class DeviceTimer {
public:
    DeviceTimer(const c10::Device& device, std::size_t nodes) : m_device(device)
    {
        if (!device.is_cuda())
            return;
        m_impl = c10::impl::getDeviceGuardImpl(device.type());
        m_start.reserve(nodes);
        m_end.reserve(nodes);
        for (std::size_t i = 0; i < nodes; ++i) {
            m_start.emplace_back(device.type(), c10::EventFlag::BACKEND_DEFAULT);
            m_end.emplace_back(device.type(), c10::EventFlag::BACKEND_DEFAULT);
        }
    }
    bool active() const { return m_impl != nullptr && !m_start.empty(); }
    void begin(std::size_t i) { m_start[i].record(m_impl->getStream(m_device)); }
    // Only nodes that got here are timed (an op that threw has no end event).
    void end(std::size_t i)
    {
        m_end[i].record(m_impl->getStream(m_device));
        m_used.push_back(i);
    }
    // Call after synchronising. Milliseconds -> microseconds.
    void collect(std::vector<NodeResult>& results)
    {
        for (std::size_t i : m_used)
            results[i].timeUs = m_start[i].elapsedTime(m_end[i]) * 1000.0;
    }

private:
    c10::Device m_device;
    const c10::impl::DeviceGuardImplInterface* m_impl = nullptr;
    std::vector<c10::Event> m_start, m_end;
    std::vector<std::size_t> m_used;
};

void synchronize(const c10::Device& device)
{
    if (device.is_cuda())
        c10::impl::getDeviceGuardImpl(device.type())->synchronizeDevice(device.index());
}

}  // namespace

int cudaDeviceCount()
{
    return at::hasCUDA() ? static_cast<int>(c10::impl::getDeviceGuardImpl(c10::kCUDA)->deviceCount()) : 0;
}

namespace {

// One line per reason a node cannot run, naming the nodes.
std::vector<std::string> unsupportedLines(const graph::Graph& g, const std::vector<NodePlan>& plans)
{
    std::map<std::string, std::vector<std::string>> byReason;
    for (std::size_t i = 0; i < plans.size(); ++i)
        if (plans[i].kind == NodePlan::Kind::Unsupported)
            byReason[plans[i].why].push_back(g.nodes[i].name);
    std::vector<std::string> out;
    for (const auto& [why, nodes] : byReason) {
        std::string line = why + ": ";
        for (std::size_t k = 0; k < nodes.size(); ++k)
            line += (k ? ", " : "") + nodes[k];
        out.push_back(line);
    }
    return out;
}

}  // namespace

std::vector<std::string> coverageReport(const graph::Graph& g, const std::string& deviceText)
{
    return unsupportedLines(g, detail::planGraph(g, parseDevice(deviceText)));
}

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

// Everything one pass over the graph needs, built once per replay.
struct Prepared {
    const graph::Graph* graph = nullptr;
    detail::PlanOptions planOptions;
    std::vector<NodePlan> plans;
    std::vector<c10::IValue> inputs;
    std::map<std::string, at::Tensor> constants;
    std::set<std::string> generatedConstants;  // constants the dump holds no value for (their values are made up)
    c10::Device device{c10::kCPU};
    // The capture's generator state for this device was restored: random ops draw what eager drew.
    bool rngRestored = false;
};

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
    graph::forEachNodeRef(node, [&](int ref) {
        const auto k = static_cast<std::size_t>(ref);
        if (in.missing.empty() && s.freed[k])
            in.missing = "input '" + g.nodes[k].name + "' is used after the dump freed it";
        else if (in.missing.empty() && !s.available[k])
            in.missing = "input '" + g.nodes[k].name + "' was not computed";
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

// Ops whose fake-tensor (meta) rule lays the output out otherwise than their eager kernels on every device, so a
// trace records a layout that eager never makes: _log_softmax_backward_data's Python meta follows grad_output's
// strides, the structured kernel's meta makes it contiguous (wav2vec2's CTC loss: recorded [32, 64, 1], eager
// [5088, 32, 1]). Checked against torch 2.11 with FakeTensorMode.
bool fakeLayoutDiffersFromEager(const graph::Node& n)
{
    return n.isOp() && n.target.ns == "aten" && n.target.op == "_log_softmax_backward_data";
}

// Stride-only differences at such an op whose inputs hold their recorded layouts, and at the nodes that only carry
// its layout on (NodeResult::kernelLayouts). Any other remaining stride difference marks the node's layout as off,
// so nothing downstream of it is set apart.
void setAsideKernelLayouts(const graph::Node& node, const InputState& in, PassState& s, std::size_t i, NodeResult& r)
{
    const bool strideOnly = !r.mismatches.empty() && std::all_of(r.mismatches.begin(), r.mismatches.end(), [](const Mismatch& m) {
        return m.kind == Mismatch::Kind::Stride;
    });
    if (strideOnly && !in.layoutOff && (fakeLayoutDiffersFromEager(node) || in.otherLayout)) {
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
        detail::checkValue(s.values[i], *node.meta, p.device, 0, s.bindings, r.mismatches);
        setAsideCrossDeviceLayouts(*p.graph, node, p.device, in, s, i, r);
        setAsideKernelLayouts(node, in, s, i, r);
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

// One pass. With `results`, every node is checked and reported there; `timer` may be null. Returns the graph's
// outputs (the values the output node reads, in order).
std::vector<c10::IValue> interpret(const Prepared& p, const ReplayOptions& options, std::vector<NodeResult>* results,
                                   DeviceTimer* timer, ReplayReport* report, CancelToken* cancel,
                                   const ProgressSink& progress, const NodeSink& nodeDone = {},
                                   detail::DeferredValueChecks* capturedChecks = nullptr)
{
    const graph::Graph& g = *p.graph;
    const std::size_t n = g.nodes.size();
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
    if (s.checks && !capturedChecks)
        for (std::size_t k : s.checks->readBack(report))
            if (nodeDone)
                nodeDone(k, (*results)[k]);
    return std::move(s.outputs);
}

c10::Device resolveDevice(const std::string& text)
{
    c10::Device device = parseDevice(text);
    if (device.is_cuda()) {
        const int count = cudaDeviceCount();
        if (count == 0)
            throw Error("no CUDA device is available to this process");
        if (device.has_index() && device.index() >= count)
            throw Error("cuda:" + std::to_string(device.index()) + " does not exist (" + std::to_string(count) +
                        " CUDA device(s))");
        if (!device.has_index())
            device = c10::Device(c10::kCUDA, 0);
    }
    return device;
}

// A copy with the very same geometry (sizes, strides, storage offset — expanded and overlapping ones too):
// the whole storage is copied and viewed again.
at::Tensor cloneExactly(const at::Tensor& t)
{
    const auto itemsize = static_cast<std::int64_t>(t.element_size());
    const std::int64_t storageElems = static_cast<std::int64_t>(t.storage().nbytes()) / itemsize;
    at::Tensor whole = at::empty({0}, t.options()).set_(t.storage(), 0, {storageElems}, {1});
    return whole.clone().as_strided(t.sizes(), t.strides(), t.storage_offset());
}

#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
c10::CachingDeviceAllocator::Stat allocatedBytes(const c10::Device& device)
{
    return c10::cuda::CUDACachingAllocator::getDeviceStats(device.index())
        .allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)];
}
#endif

// Bytes of the storages behind the tensors on `device` (each storage once).
std::int64_t deviceBytes(const std::vector<c10::IValue>& values, const c10::Device& device)
{
    std::set<const void*> seen;
    std::int64_t total = 0;
    for (const auto& v : values)
        if (v.isTensor() && v.toTensor().defined() && v.toTensor().device() == device &&
            seen.insert(v.toTensor().storage().data()).second)
            total += static_cast<std::int64_t>(v.toTensor().storage().nbytes());
    return total;
}

std::vector<c10::IValue> cloneValues(const std::vector<c10::IValue>& values)
{
    std::vector<c10::IValue> out;
    out.reserve(values.size());
    for (const auto& v : values)
        out.push_back(v.isTensor() && v.toTensor().defined() ? c10::IValue(cloneExactly(v.toTensor())) : v);
    return out;
}

std::vector<c10::IValue> moveTo(const std::vector<c10::IValue>& values, const c10::Device& from, const c10::Device& to)
{
    std::vector<c10::IValue> out;
    for (const auto& v : values) {
        // Tensors on the replay device move; CPU scalars stay where they were.
        if (v.isTensor() && v.toTensor().defined() && v.toTensor().device() == from)
            out.emplace_back(v.toTensor().to(to));
        else
            out.push_back(v);
    }
    return out;
}

// CUDA-graph mode after the eager pass: capture when the analysis found nothing blocking and the eager pass ran
// cleanly to its end (its outputs are what the replay of the captured graph must reproduce).
void runCudaGraph(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                  const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report)
{
    CudaGraphReport& cg = *report.cudaGraph;
    int blocking = 0;
    for (const CudaGraphFinding& f : cg.findings) {
        if (!f.blocking)
            continue;
        if (blocking++ == 0)
            cg.reason = f.node.empty() ? f.message : "node '" + f.node + "': " + f.message;
    }
    if (blocking > 0) {
        cg.status = "unsafe";
        if (blocking > 1)
            cg.reason += " (and " + std::to_string(blocking - 1) + " more finding(s))";
        return;
    }
    const int unclean = report.count(NodeStatus::Error) + report.count(NodeStatus::Skipped) +
                        report.count(NodeStatus::Unsupported) + report.count(NodeStatus::NotRun);
    if (report.cancelled || !report.fatal.empty() || unclean > 0) {
        cg.status = "skipped";
        cg.reason = "the eager pass did not run cleanly to the end: nothing to compare a captured graph with";
        return;
    }
    Prepared statics = p;
    statics.inputs = cloneValues(pristine);  // the static input buffers every replay reads
    // Metadata checks in the pass; value checks only through `checks`, whose ops never read the device back.
    ReplayOptions quiet = options;
    quiet.valueChecks = false;
    quiet.timing = false;
    quiet.stopOnFirst = true;
    std::vector<NodeResult> scratch = report.nodes;
    for (NodeResult& r : scratch)  // decided per replay; never a reason for the captured pass to stop early
        r.nanOrigin = r.nonFiniteConstant = false;
    const graph::Graph& g = *p.graph;
    // Value checks go into the graph: their ops write a buffer allocated now, read back after each replay.
    std::optional<detail::DeferredValueChecks> checks;
    if (options.valueChecks) {
        std::size_t rows = 16;
        for (const NodeResult& r : report.nodes)
            rows += static_cast<std::size_t>(std::count_if(r.outputs.begin(), r.outputs.end(), [](const OutputStats& o) { return o.hasValues; }));
        checks.emplace(g, p.plans, scratch, false);
        checks->reserveFixed(p.device, rows);
        cg.valueChecks = true;
    }
    auto pass = [&](std::string& failure) {
        std::vector<c10::IValue> outs = interpret(statics, quiet, &scratch, nullptr, nullptr, nullptr, {}, {}, checks ? &*checks : nullptr);
        for (std::size_t i = 0; i < scratch.size(); ++i)
            if (scratch[i].status == NodeStatus::Error || scratch[i].status == NodeStatus::Skipped) {
                failure = "node '" + g.nodes[i].name + "': " + scratch[i].error;
                break;
            }
        return outs;
    };
    detail::CaptureSettings settings;
    if (options.repeat > 0)
        settings.timedReplays = options.repeat;
    if (options.warmup > 0)
        settings.warmupReplays = options.warmup;
    if (checks)
        settings.afterReplay = [&] { detail::recordCheckedReplay(g, scratch, checks->reread(), options.strictNonFinite, cg); };
    detail::captureAndReplay(p.device, pass, eagerOutputs, detail::outputNondeterminism(g, p.plans), settings, cg);
}

// Why output k cannot be compared with any reference ("" when it can): random draws differ between runs and
// devices, and empty*() memory holds whatever the allocator had.
std::string notComparable(const detail::OutputNondeterminism& nd)
{
    if (!nd.random.empty())
        return "not compared: depends on random op " + *nd.random.begin();
    if (!nd.uninitialised.empty())
        return "not compared: uninitialised memory of " + *nd.uninitialised.begin();
    return "";
}

// cuDNN runs f32 convolutions in TF32 unless told otherwise (torch.backends.cudnn.allow_tf32, true by default in
// LibTorch and in eager) and may pick another algorithm in each process: densenet121's weight gradients differed
// from eager by 6.5e-4 on an H100. Such graphs' f32 outputs are compared with TF32's tolerance.
bool usesTf32Convolutions(const graph::Graph& g, const c10::Device& device)
{
    if (!device.is_cuda() || !at::globalContext().allowTF32CuDNN())
        return false;
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const graph::Node& n) {
        return n.isOp() && n.target.op.find("convolution") != std::string::npos;
    });
}

// The saved outputs named by --expected: a file, or "auto" for the dump's own <name>.expected.pt.
std::string expectedOutputsFile(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report)
{
    if (options.expectedOutputsPath != "auto")
        return options.expectedOutputsPath;
    if (lg.expectedOutputsPath.empty())
        report.notes.push_back("outputs not compared: the dump has no saved eager outputs (<name>.expected.pt)");
    return lg.expectedOutputsPath;
}

// Stage compare: the user outputs saved for the stages after this one, or compared with the reference stage's,
// only when every node ran (a stage with errors or unsupported nodes is a failed stage, not a divergent one).
void compareStageOutputs(const Prepared& p, const StageIo& stage, const std::vector<c10::IValue>& outputs,
                         ReplayReport& report)
{
    const int unclean = report.count(NodeStatus::Error) + report.count(NodeStatus::Skipped) +
                        report.count(NodeStatus::Unsupported) + report.count(NodeStatus::NotRun);
    if (report.cancelled || unclean > 0) {
        report.notes.push_back("outputs not compared: the stage did not run cleanly to the end");
        return;
    }
    const std::vector<c10::IValue> mine = detail::userOutputs(outputs, p.inputs, stage.outputMap);
    if (!stage.saveOutputs.empty())
        detail::saveValues(mine, stage.saveOutputs);
    if (stage.referenceOutputs.empty())
        return;
    const std::vector<c10::IValue> reference = detail::loadValues(stage.referenceOutputs);
    report.reference = "reference stage";
    // An AOT graph lifts a literal of the dynamo graph into a constant tensor (BART's and Whisper's decoder start
    // token) that a trace log logs no value for: an output computed from its generated stand-in differs from the
    // dynamo stage's for no fault of the compiler.
    const auto nondeterminism = detail::outputNondeterminism(*p.graph, p.plans, p.generatedConstants);
    // cuDNN's TF32 convolutions: either stage may have them (a dynamo graph calls torch.conv2d, not convolution).
    const bool tf32 = p.device.is_cuda() && at::globalContext().allowTF32CuDNN() &&
                      std::any_of(p.graph->nodes.begin(), p.graph->nodes.end(),
                                  [](const graph::Node& n) { return n.target.op.find("conv") != std::string::npos; });
    for (std::size_t u = 0; u < mine.size(); ++u) {
        const int at = stage.outputMap[u];
        std::string why = at == -1 ? "not compared: this stage has no counterpart of user output " + std::to_string(u)
                          : u >= reference.size() || (reference[u].isNone() && !mine[u].isNone())
                              ? "not compared: the reference stage has no counterpart"
                              : "";
        const detail::OutputNondeterminism* nd =
            at >= 0 && static_cast<std::size_t>(at) < nondeterminism.size() ? &nondeterminism[static_cast<std::size_t>(at)] : nullptr;
        // Aligned RNG: every stage draws the same values for the same random call, so random outputs compare too.
        if (why.empty() && nd && !nd->random.empty() && nd->uninitialised.empty() && !p.planOptions.alignedRng) {
            report.comparisons.push_back(detail::compareRandomOutput(mine[u], reference[u], static_cast<int>(u), *nd->random.begin()));
            continue;
        }
        if (why.empty() && nd && (nd->random.empty() || !p.planOptions.alignedRng))
            why = notComparable(*nd);
        if (why.empty() && at >= 0 && static_cast<std::size_t>(at) < nondeterminism.size() &&
            !nondeterminism[static_cast<std::size_t>(at)].generatedConstants.empty())
            why = "not compared: depends on constant " + *nondeterminism[static_cast<std::size_t>(at)].generatedConstants.begin() +
                  ", which the log holds no value for (generated here; the other stages have its real value)";
        if (why.empty()) {
            report.comparisons.push_back(detail::compareOutput(mine[u], reference[u], static_cast<int>(u), false, tf32));
            continue;
        }
        OutputComparison c;
        c.output = static_cast<int>(u);
        c.what = detail::describeValue(mine[u]);
        c.compared = false;
        c.note = why;
        report.comparisons.push_back(std::move(c));
    }
}

// Accuracy against another device's replay or saved outputs, only when the pass ran to the end.
void compareOutputs(const io::LoadedGraph& lg, const Prepared& p, const ReplayOptions& options,
                    const std::vector<c10::IValue>& pristine, const std::vector<c10::IValue>& outputs,
                    CancelToken* cancel, ReplayReport& report)
{
    const bool complete = !report.cancelled && report.count(NodeStatus::NotRun) == 0;
    const std::string expectedPath = options.compareDevice.empty() ? expectedOutputsFile(lg, options, report) : "";
    if (options.compareDevice.empty() && expectedPath.empty())
        return;
    if (!complete) {
        report.notes.push_back("outputs not compared: the replay stopped before the end");
        return;
    }
    std::vector<c10::IValue> reference;
    if (!options.compareDevice.empty()) {
        Prepared other = p;
        other.device = resolveDevice(options.compareDevice);
        other.plans = detail::planGraph(*p.graph, other.device, p.planOptions);
        other.inputs = moveTo(pristine, p.device, other.device);
        for (auto& [name, t] : other.constants)
            t = t.to(other.device);
        ReplayOptions unchecked = options;
        unchecked.stopOnFirst = false;
        reference = interpret(other, unchecked, nullptr, nullptr, nullptr, cancel, {});
        synchronize(other.device);
        report.reference = other.device.str() + " replay";
    } else {
        reference = detail::valuesFromPtList(io::readPtFile(expectedPath), c10::Device(c10::kCPU));
        report.reference = expectedPath;
    }
    if (reference.size() != outputs.size())
        throw Error("reference has " + std::to_string(reference.size()) + " outputs, the graph " +
                    std::to_string(outputs.size()));
    const auto nondeterminism = detail::outputNondeterminism(*p.graph, p.plans);
    const bool tf32 = usesTf32Convolutions(*p.graph, p.device);
    // Draws are reproduced only against saved outputs of the same device, with the capture's state restored.
    const bool drawsReproduced = p.rngRestored && options.compareDevice.empty();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const bool random = k < nondeterminism.size() && !nondeterminism[k].random.empty();
        if (random && nondeterminism[k].uninitialised.empty() && !drawsReproduced) {
            report.comparisons.push_back(
                detail::compareRandomOutput(outputs[k], reference[k], static_cast<int>(k), *nondeterminism[k].random.begin()));
            continue;
        }
        const std::string why = k < nondeterminism.size() && !(random && drawsReproduced) ? notComparable(nondeterminism[k]) : "";
        if (why.empty()) {
            report.comparisons.push_back(detail::compareOutput(outputs[k], reference[k], static_cast<int>(k), false, tf32));
            continue;
        }
        OutputComparison c;
        c.output = static_cast<int>(k);
        c.what = detail::describeValue(outputs[k]);
        c.compared = false;
        c.note = why;
        report.comparisons.push_back(std::move(c));
    }
}

// Timed repeats: the same checked pass, whole-graph wall time, synchronised; the last one measures steady-state
// peak memory.
void runTimedRepeats(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                     CancelToken* cancel, ReplayReport& report)
{
    ReplayOptions timed = options;
    timed.timing = false;
    std::vector<NodeResult> scratch = report.nodes;
    Prepared again = p;
    for (int k = 0; k < options.warmup + options.repeat; ++k) {
        again.inputs = cloneValues(pristine);
        synchronize(p.device);
        const bool last = k + 1 == options.warmup + options.repeat;
        std::int64_t atStart = 0;
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        // What the pass adds on top of what was allocated when it started (one-time allocations such as the
        // cuBLAS workspace are behind us, as for a warmed-up Python process), plus its inputs.
        if (last && p.device.is_cuda()) {
            c10::cuda::CUDACachingAllocator::resetPeakStats(p.device.index());
            atStart = allocatedBytes(p.device).current;
        }
#endif
        const auto t0 = std::chrono::steady_clock::now();
        interpret(again, timed, &scratch, nullptr, nullptr, cancel, {});
        synchronize(p.device);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        if (last && p.device.is_cuda())
            report.peakDeviceBytes = allocatedBytes(p.device).peak - atStart + deviceBytes(again.inputs, p.device);
#endif
        if (k >= options.warmup)
            report.iterationUs.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
}

ReplayReport emptyReport(const io::LoadedGraph& lg, const ReplayOptions& options)
{
    const graph::Graph& g = lg.graph;
    ReplayReport report;
    report.address = lg.entry.address;
    report.device = options.device;
    report.seed = options.seed;
    report.inputs = options.inputs == ReplayOptions::Inputs::Saved ? "saved" : "random";
    report.nodes.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        report.nodes[i].name = g.nodes[i].name;
        report.nodes[i].target = g.nodes[i].kind == graph::NodeKind::CallFunction ? g.nodes[i].target.str()
                                                                                  : std::string(graph::nodeKindName(g.nodes[i].kind));
    }
    return report;
}

detail::PlanOptions planOptionsFor(const io::LoadedGraph& lg, const ReplayOptions& options)
{
    detail::PlanOptions o;
    o.viewAsReshape = lg.entry.kind == io::GraphKind::Runnable;
    o.alignedRng = options.rng == ReplayOptions::Rng::Aligned;
    o.rngSeed = options.seed;
    return o;
}

// Replays a forward graph unchecked on generated inputs and returns its outputs (for chained backwards).
detail::ForwardRunner forwardRunner(const c10::Device& device)
{
    return [device](const io::LoadedGraph& f, const ReplayOptions& fo) {
        Prepared fp;
        fp.graph = &f.graph;
        fp.device = device;
        fp.planOptions = planOptionsFor(f, fo);
        fp.plans = detail::planGraph(f.graph, device, fp.planOptions);
        ReplayReport scratch = emptyReport(f, fo);
        at::manual_seed(fo.seed);
        fp.inputs = detail::makeInputs(f, fo, device, scratch);
        fp.constants = loadConstants(f, device);
        std::vector<std::string> have;
        for (const auto& [name, t] : fp.constants)
            have.push_back(name);
        for (auto& [name, v] : detail::makeMissingConstants(f, fo, device, have, scratch))
            fp.constants[name] = v.toTensor();
        ReplayOptions unchecked = fo;
        unchecked.stopOnFirst = false;
        c10::InferenceMode inferenceMode;
        std::vector<c10::IValue> outputs = interpret(fp, unchecked, nullptr, nullptr, nullptr, nullptr, {});
        synchronize(device);
        return outputs;
    };
}

// Device, plans, inputs, constants and the CUDA-graph analysis. Throws what stops the replay from starting.
Prepared prepare(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report)
{
    const graph::Graph& g = lg.graph;
    Prepared p;
    p.graph = &g;
    p.device = resolveDevice(options.device);
    p.planOptions = planOptionsFor(lg, options);
    p.plans = detail::planGraph(g, p.device, p.planOptions);
    if (p.planOptions.viewAsReshape && std::any_of(g.nodes.begin(), g.nodes.end(), [](const graph::Node& n) {
            return n.target.kind == graph::Target::Kind::Op && n.target.str() == "aten.view.default";
        }))
        report.notes.push_back("aten.view runs as aten.reshape: an fx_graph_runnable graph is compiled, never run eagerly, "
                               "and inductor's view_to_reshape pass makes that change before lowering");
    report.unsupported = unsupportedLines(g, p.plans);
    for (std::size_t i = 0; i < p.plans.size() && i < report.nodes.size(); ++i)
        if (p.plans[i].op)
            report.nodes[i].schema = c10::toString(p.plans[i].op->schema());
        else if (!p.plans[i].schema.empty())
            report.nodes[i].schema = p.plans[i].schema;
    at::manual_seed(options.seed);
    if (options.stage && !options.stage->inputsFrom.empty())
        p.inputs = detail::makeStageInputs(lg, options, p.device, report);
    else
        p.inputs = options.inputs == ReplayOptions::Inputs::Saved ? detail::loadSavedInputs(lg, p.device)
                                                                  : detail::makeInputs(lg, options, p.device, report);
    if (options.stage && !options.stage->saveInputs.empty())  // for inductor's generated code (output_code stage)
        detail::saveStageInputs(p.inputs, options.stage->saveInputs);
    if (options.chain && options.inputs == ReplayOptions::Inputs::Random && !options.stage)  // chainFromForward knows which graphs have a forward
        detail::chainFromForward(lg, options, forwardRunner(p.device), p.inputs, report);
    p.constants = loadConstants(lg, p.device);
    std::vector<std::string> have;
    for (const auto& [name, t] : p.constants)
        have.push_back(name);
    for (auto& [name, v] : detail::makeMissingConstants(lg, options, p.device, have, report)) {
        p.constants[name] = v.toTensor();
        p.generatedConstants.insert(name);
    }
    if (options.cudaGraph) {
        // The analysis comes first: its findings stand even when the replay cannot start.
        report.cudaGraph.emplace();
        report.cudaGraph->findings = detail::analyzeCudaGraphSafety(g, p.plans, p.device);
        std::set<std::string> nondeterministic;
        for (const CudaGraphFinding& f : report.cudaGraph->findings)
            if (f.kind == CudaGraphFinding::Kind::Nondeterministic)
                nondeterministic.insert(g.nodes[static_cast<std::size_t>(g.findNode(f.node))].target.str());
        report.cudaGraph->nondeterministicOps.assign(nondeterministic.begin(), nondeterministic.end());
    }
    // Last, so that nothing above draws from the restored stream before the graph does.
    if (options.inputs == ReplayOptions::Inputs::Saved && !lg.rngStatePath.empty() && options.rng == ReplayOptions::Rng::Natural)
        p.rngRestored = detail::restoreGeneratorStates(lg.rngStatePath, p.device, report.notes);
    return p;
}

}  // namespace

ReplayReport replayGraph(const io::LoadedGraph& lg, const ReplayOptions& options, CancelToken* cancel,
                         const ProgressSink& progress, const NodeSink& nodeDone)
{
    ReplayReport report = emptyReport(lg, options);
    // Python's `import torch` does this; without it ATen's CPU kernels can run on one OpenMP thread.
    at::init_num_threads();
    Prepared p;
    try {
        p = prepare(lg, options, report);
    } catch (const Error& e) {
        report.fatal = e.what();
        return report;
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
        return report;
    }
    c10::InferenceMode inferenceMode;  // no autograd bookkeeping: replay runs kernels only
    // Later passes (timed repeats, the reference device) must start from the same inputs even when the graph
    // mutates its inputs in place (running stats, step counters): keep pristine copies.
    const bool morePasses = options.repeat > 0 || !options.compareDevice.empty() || options.cudaGraph;
    std::vector<c10::IValue> pristine;
    try {
        if (morePasses)
            pristine = cloneValues(p.inputs);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        // Peak over the run, inputs included (they are allocated already): what the graph needs on the device.
        if (p.device.is_cuda())
            c10::cuda::CUDACachingAllocator::resetPeakStats(p.device.index());
#endif
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
        return report;
    }
    DeviceTimer timer(p.device, options.timing ? lg.graph.nodes.size() : 0);
    const auto start = std::chrono::steady_clock::now();
    std::vector<c10::IValue> outputs;
    if (options.stage && !options.stage->outputsFrom.empty()) {
        // The output_code stage: inductor's generated code ran in a Python child; its outputs are compared here.
        report.nodes.clear();
        try {
            outputs = detail::externalOutputs(options.stage->outputsFrom, p.device, p.inputs);
        } catch (const Error& e) {
            report.fatal = e.what();
            return report;
        } catch (const c10::Error& e) {
            report.fatal = detail::errorText(e);
            return report;
        }
    } else {
        outputs = interpret(p, options, &report.nodes, timer.active() ? &timer : nullptr, &report, cancel, progress, nodeDone);
    }
    if (!options.strictNonFinite)
        classifyNonFiniteOrigins(lg.graph, report);
    // Everything after the pass can meet a sticky CUDA error (a device-side assert in a kernel): it becomes the
    // report's fatal message, never an exception out of replayGraph.
    try {
        synchronize(p.device);
        report.totalUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if (timer.active())
            timer.collect(report.nodes);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        if (p.device.is_cuda())
            report.peakDeviceBytes = allocatedBytes(p.device).peak;
#endif
        if (options.repeat > 0 && !report.cancelled)
            runTimedRepeats(p, options, pristine, cancel, report);
        if (options.stage)
            compareStageOutputs(p, *options.stage, outputs, report);
        else
            compareOutputs(lg, p, options, pristine, outputs, cancel, report);
        if (report.cudaGraph)
            runCudaGraph(p, options, pristine, outputs, report);
    } catch (const Error& e) {
        report.fatal = e.what();
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
    } catch (const std::exception& e) {
        report.fatal = e.what();
    }
    return report;
}

}  // namespace fxray::replay
