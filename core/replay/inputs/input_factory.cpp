#include "replay/inputs/input_factory.h"

#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/mixed_norm_dtypes.h"
#include "graph/value_domains.h"
#include "io/graph_inputs.h"
#include "io/pt_file.h"
#include "replay/inputs/device_placement.h"
#include "replay/inputs/input_generation.h"
#include "replay/inputs/input_symbols.h"
#include "replay/inputs/norm_statistics.h"
#include "replay/values/pt_tensors.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <mutex>

namespace fxray::replay::detail {
namespace {

using graph::Node;

// Compiled-autograd graphs take lists (`inputs`, `sizes`, `hooks`, ...) unpacked by getitem; each element's
// metadata is that getitem's (see io/compiled_autograd_meta.h). Which elements are built is io/graph_inputs' rule.
class ListInputs {
public:
    ListInputs(const io::LoadedGraph& lg, const c10::Device& device, InputGenerator& gen,
               const std::vector<graph::ValueDomain>& domains, ReplayReport& report)
        : m_lg(lg), m_device(device), m_gen(gen), m_domains(domains), m_report(report),
          m_moved(inputsMovedToDevice(lg.graph, device)), m_users(graph::computeUsers(lg.graph))
    {
    }

    // The list placeholder `node` as its getitems read it (io::InputForm::Kind::List).
    c10::IValue make(const Node& n, int node)
    {
        const graph::Graph& g = m_lg.graph;
        const auto& getters = m_users[static_cast<std::size_t>(node)];
        std::int64_t size = 0;
        for (int u : getters)
            size = std::max(size, g.nodes[static_cast<std::size_t>(u)].args[1].i + 1);
        c10::impl::GenericList list(c10::AnyType::get());
        list.resize(static_cast<std::size_t>(size));
        for (int u : getters) {
            const Node& get = g.nodes[static_cast<std::size_t>(u)];
            if (!get.meta)
                continue;  // None: a Python object, or never read (inputForms said every other case is Missing)
            const std::int64_t at = get.args[1].i;
            const std::string label = n.name + "[" + std::to_string(at) + "] (" + get.name + ")";
            const bool move = n.name == "inputs" && std::find(m_moved.begin(), m_moved.end(), at) != m_moved.end();
            if (move)
                m_report.notes.push_back("moved " + label + ", a 0-dim CPU tensor that only aten/prims ops read, to " +
                                         m_device.str() + " (as compiled autograd does on CUDA)");
            list.set(static_cast<std::size_t>(at), m_gen.make(*get.meta, get, m_domains[static_cast<std::size_t>(u)], move));
        }
        return c10::IValue(std::move(list));
    }

private:
    const io::LoadedGraph& m_lg;
    const c10::Device& m_device;
    InputGenerator& m_gen;
    const std::vector<graph::ValueDomain>& m_domains;
    ReplayReport& m_report;
    const std::vector<int> m_moved;
    const std::vector<std::vector<int>> m_users;
};

// A generator input of graphsafe_run_with_rng_state on the replay device: the device's default generator's kind,
// seeded from the replay's seed; where the capture saved its state (`saved`, bytes), from that state, as eager drew.
at::Generator makeGenerator(const c10::Device& device, std::uint64_t seed, const c10::IValue* saved, const Node& n,
                            ReplayReport& report)
{
    at::Generator gen = at::globalContext().defaultGenerator(device).clone();
    {
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_current_seed(seed);
        if (device.is_cuda())
            gen.set_offset(0);
    }
    if (!saved)
        return gen;
    if (!saved->isTensor() || saved->toTensor().scalar_type() != at::kByte) {
        report.notes.push_back(n.name + ": the saved value is not a generator state; a fresh generator takes its place");
        return gen;
    }
    try {
        setGeneratorState(gen, saved->toTensor());
    } catch (const c10::Error&) {  // another device type's state (a CUDA capture replayed on the CPU)
        report.notes.push_back(n.name + ": its saved generator state is another device's (" +
                               std::to_string(saved->toTensor().numel()) + " bytes); a generator seeded " +
                               std::to_string(seed) + " on " + device.str() + " takes its place, so its draws differ");
    }
    return gen;
}

}  // namespace

std::vector<c10::IValue> makeInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                    ReplayReport& report)
{
    const graph::Graph& g = lg.graph;
    const auto placeholders = g.placeholders();
    const InputSymbols symbols(lg, options, report);
    const std::vector<graph::ValueDomain> domains = graph::inferValueDomains(g);
    for (std::size_t i = 0; i < domains.size(); ++i)  // tensor constants: makeMissingConstants, when generated
        if (domains[i].constrained() && g.nodes[i].kind != graph::NodeKind::GetAttr)
            report.constraints.push_back(g.nodes[i].name + " " + domains[i].describe());
    InputGenerator gen{g, options, device, symbols, at::detail::createCPUGenerator(options.seed)};
    ListInputs lists(lg, device, gen, domains, report);

    const std::vector<io::InputForm> forms = io::inputForms(lg);
    // On the CPU, inputs that carry a mixed-dtype normalisation's statistics in the fake rule's dtype are made in the
    // kernel's (graph/mixed_norm_dtypes.h): the backward kernels refuse the recorded one.
    const std::map<int, graph::DType> kernelDtypes = device.is_cpu() ? graph::cpuKernelNormDtypes(g) : std::map<int, graph::DType>{};
    std::vector<c10::IValue> out;
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const auto node = static_cast<std::size_t>(placeholders[k]);
        const Node& n = g.nodes[node];
        const io::InputForm& form = forms[k];
        switch (form.kind) {
        case io::InputForm::Kind::Meta: {
            graph::ValueMeta meta = *lg.inputs[k].meta;
            if (auto dtype = kernelDtypes.find(placeholders[k]); dtype != kernelDtypes.end() && meta.isTensor())
                meta.tensor.dtype = dtype->second;
            out.push_back(gen.make(meta, n, domains[node], false));
            break;
        }
        case io::InputForm::Kind::List: out.push_back(lists.make(n, placeholders[k])); break;
        case io::InputForm::Kind::None: out.emplace_back(); break;
        case io::InputForm::Kind::Generator:
            out.emplace_back(makeGenerator(device, options.seed + 1 + k, nullptr, n, report));
            break;
        case io::InputForm::Kind::Opaque:
            // Nothing reads its contents: the nodes that would (a hook it holds) are unsupported, named by the planner.
            report.notes.push_back(form.why + ": passed as an opaque value (None), no metadata needed");
            out.emplace_back();
            break;
        case io::InputForm::Kind::Missing: {
            const Node& at = g.nodes[static_cast<std::size_t>(form.missingNode)];
            throw Error(form.why, SourceLocation{g.sourceFile, at.line, 0, at.name});
        }
        }
    }
    for (std::string& line : alignNormStatistics(g, out))
        report.constraints.push_back(std::move(line));
    return out;
}

std::vector<std::pair<std::string, c10::IValue>> makeMissingConstants(const io::LoadedGraph& lg, const ReplayOptions& options,
                                                                      const c10::Device& device,
                                                                      const std::vector<std::string>& have, ReplayReport& report)
{
    std::vector<std::pair<std::string, c10::IValue>> out;
    const graph::Graph& g = lg.graph;
    std::optional<InputSymbols> symbols;
    std::optional<std::vector<graph::ValueDomain>> domains;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.kind != graph::NodeKind::GetAttr || !n.meta || !n.meta->isTensor() ||
            std::find(have.begin(), have.end(), n.attr) != have.end())
            continue;
        if (!symbols) {
            ReplayReport scratch;  // the inputs' symbol notes are already in the report
            symbols.emplace(lg, options, scratch);
            domains = graph::inferValueDomains(g);
        }
        InputGenerator gen{g, options, device, *symbols, at::detail::createCPUGenerator(options.seed + 1 + i)};
        out.emplace_back(n.attr, gen.make(*n.meta, n, (*domains)[i], false));
        report.notes.push_back("constant self." + n.attr + " generated from its annotation (the dump holds no value for it)");
        if ((*domains)[i].constrained())
            report.constraints.push_back(n.name + " " + (*domains)[i].describe());
    }
    return out;
}

std::vector<c10::IValue> loadSavedInputs(const io::LoadedGraph& lg, const c10::Device& device, ReplayReport& report)
{
    if (lg.savedInputsPath.empty())
        throw Error("this dump has no saved inputs (.pt); use random inputs", fileLocation(lg.entry.path));
    io::PtFile pt = io::readPtFile(lg.savedInputsPath);
    std::vector<c10::IValue> values = valuesFromPtList(pt, device);
    const std::size_t expected = lg.graph.placeholders().size();
    if (values.size() != expected)
        throw Error("saved inputs hold " + std::to_string(values.size()) + " values for " + std::to_string(expected) +
                        " graph inputs",
                    fileLocation(lg.savedInputsPath));
    // The capture saves a generator input as its state (python/fxray/capture.py).
    const std::vector<io::InputForm> forms = io::inputForms(lg);
    const auto placeholders = lg.graph.placeholders();
    for (std::size_t k = 0; k < values.size(); ++k)
        if (forms[k].kind == io::InputForm::Kind::Generator)
            values[k] = makeGenerator(device, 0, &values[k], lg.graph.nodes[static_cast<std::size_t>(placeholders[k])], report);
    return values;
}

}  // namespace fxray::replay::detail
