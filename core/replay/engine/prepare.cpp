// Preparing a replay: the device, the plans, the inputs (generated, saved, a stage's, chained from a forward),
// the constants, the CUDA-graph analysis and the restored generator state; and the report every replay starts from.
#include "replay/engine/replay_pass.h"

#include "base/error.h"
#include "graph/mixed_norm_dtypes.h"
#include "io/pt_file.h"
#include "replay/cuda_graph/cuda_graph_safety.h"
#include "replay/engine/replayer.h"
#include "replay/inputs/input_chaining.h"
#include "replay/inputs/input_factory.h"
#include "replay/ops/random_ops.h"
#include "replay/stages/stage_io.h"
#include "replay/values/pt_tensors.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>

namespace fxray::replay::engine {
namespace {

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

// The device type the graph's random ops drew on in eager: that of its first recorded tensor off the CPU (a CUDA
// graph keeps scalars and step counters on the CPU), else the CPU.
std::string recordedDrawDevice(const graph::Graph& g)
{
    for (const auto& n : g.nodes)
        if (n.meta && n.meta->isTensor() && n.meta->tensor.device && n.meta->tensor.device->type != "cpu" &&
            n.meta->tensor.device->type != "meta")
            return n.meta->tensor.device->type;
    return "cpu";
}

detail::PlanOptions planOptionsFor(const io::LoadedGraph& lg, const ReplayOptions& options)
{
    detail::PlanOptions o;
    o.viewAsReshape = lg.entry.kind == io::GraphKind::Runnable;
    o.alignedRng = options.rng == ReplayOptions::Rng::Aligned;
    o.rngSeed = options.seed;
    o.dtensorGlobal = options.dtensorGlobal;
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
        fp.facts = nodeFacts(f.graph);
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

}  // namespace

c10::Device parseDevice(const std::string& text)
{
    try {
        return c10::Device(text);
    } catch (const c10::Error&) {
        throw Error("bad device '" + text + "' (expected cpu, cuda or cuda:N)");
    }
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

// The nodes whose recorded dtype torch's fake rules gave and the CPU kernels do not (graph/mixed_norm_dtypes.h),
// said once in the report's notes.
static std::map<int, graph::DType> kernelDtypesNoted(const graph::Graph& g, ReplayReport& report)
{
    std::map<int, graph::DType> dtypes = graph::cpuKernelNormDtypes(g);
    if (dtypes.empty())
        return dtypes;
    const auto& [first, kernel] = *dtypes.begin();
    const graph::Node& n = g.nodes[static_cast<std::size_t>(first)];
    report.notes.push_back(
        std::to_string(dtypes.size()) + " value(s) of mixed-dtype normalisations (bf16/f16 input, f32 weight) are "
        "recorded in the dtype torch's fake-tensor rule gives, not the CPU kernel's: checked and generated as the "
        "kernel makes them (torch's fake-vs-eager difference, not the graph's); first " + n.name + ": recorded " +
        std::string(graph::dtypeAbbrev(n.meta->tensor.dtype)) + ", kernel " + std::string(graph::dtypeAbbrev(kernel)));
    return dtypes;
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
    if (p.device.is_cpu())
        p.kernelDtypes = kernelDtypesNoted(g, report);
    for (std::size_t i = 0; i < p.plans.size() && i < report.nodes.size(); ++i)
        if (p.plans[i].op)
            report.nodes[i].schema = c10::toString(p.plans[i].op->schema());
        else if (!p.plans[i].schema.empty())
            report.nodes[i].schema = p.plans[i].schema;
    at::manual_seed(options.seed);
    std::map<std::string, at::Tensor> stageConstants;  // attributes lined up with the reference inputs
    if (options.stage && (!options.stage->inputsFrom.empty() || !options.stage->inputsFile.empty()))
        p.inputs = detail::makeStageInputs(lg, options, p.device, report, stageConstants);
    else
        p.inputs = options.inputs == ReplayOptions::Inputs::Saved ? detail::loadSavedInputs(lg, p.device, report)
                                                                  : detail::makeInputs(lg, options, p.device, report);
    if (options.stage && !options.stage->saveInputs.empty())  // for inductor's generated code (output_code stage)
        detail::saveStageInputs(p.inputs, options.stage->saveInputs);
    if (options.chain && options.inputs == ReplayOptions::Inputs::Random && !options.stage)  // chainFromForward knows which graphs have a forward
        detail::chainFromForward(lg, options, forwardRunner(p.device), p.inputs, report);
    p.constants = loadConstants(lg, p.device);
    for (auto& [name, t] : stageConstants)
        p.constants[name] = t;
    std::vector<std::string> have;
    for (const auto& [name, t] : p.constants)
        have.push_back(name);
    for (auto& [name, v] : detail::makeMissingConstants(lg, options, p.device, have, report)) {
        p.constants[name] = v.toTensor();
        p.generatedConstants.insert(name);
    }
    if (options.cudaGraph) {
        // The analysis comes first: its findings stand even when the replay cannot start.
        report.cudaGraph = cudaGraphAnalysis(p);
    }
    p.facts = nodeFacts(g);
    // Last, so that nothing above draws from the restored stream before the graph does.
    if (options.inputs == ReplayOptions::Inputs::Saved && !lg.rngStatePath.empty() && options.rng == ReplayOptions::Rng::Natural)
        p.rngRestored = detail::restoreGeneratorStates(lg.rngStatePath, p.device, recordedDrawDevice(g), report.notes);
    return p;
}

}  // namespace fxray::replay::engine
