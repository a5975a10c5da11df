#include "graph/stage_mapping.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace fxray::graph {
namespace {

// As the forward's signature spells it (dynamo's "L_x_", whose node is named "l_x_").
std::string placeholderName(const Graph& g, int index)
{
    const Node& n = g.nodes[static_cast<std::size_t>(g.placeholders()[static_cast<std::size_t>(index)])];
    return n.attr.empty() ? n.name : n.attr;
}

const std::optional<ValueMeta>& placeholderMeta(const Graph& g, int index)
{
    return g.nodes[static_cast<std::size_t>(g.placeholders()[static_cast<std::size_t>(index)])].meta;
}

// Why two placeholders cannot take the same value ("" when they can): a tensor for a SymInt, another dtype or
// rank. Sizes may differ in how they are written (s77 vs 8), so only their count is compared.
std::string incompatible(const std::optional<ValueMeta>& a, const std::optional<ValueMeta>& b)
{
    if (!a || !b)
        return "";
    if (a->isTensor() != b->isTensor())
        return formatAnnotation(*a) + " vs " + formatAnnotation(*b);
    if (!a->isTensor())
        return "";
    if (a->tensor.dtype != b->tensor.dtype || a->tensor.sizes.size() != b->tensor.sizes.size())
        return formatTensorMeta(a->tensor) + " vs " + formatTensorMeta(b->tensor);
    return "";
}

std::size_t flatOutputCount(const Graph& g)
{
    const int out = g.outputNode();
    if (out < 0)
        return 0;
    std::size_t n = 0;
    auto count = [&](auto&& self, const Arg& a) -> void {
        if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple)
            for (const Arg& item : a.items)
                self(self, item);
        else
            ++n;
    };
    for (const Arg& a : g.nodes[static_cast<std::size_t>(out)].args)
        count(count, a);
    return n;
}

// Descriptor kinds under which AOTAutograd feeds its graph something other than one user input as it came:
// aliased inputs merged into a synthetic base, tensor subclasses flattened into their inner tensors.
bool reshapesInputs(const std::string& kind)
{
    return kind == "SyntheticBaseAOTInput" || kind == "ViewBaseAOTInput" || kind.rfind("Subclass", 0) == 0;
}

// The module attribute a lifted parameter or buffer input stands for ("" for any other input).
std::string liftedAttribute(const AotDescriptor& d)
{
    return d.kind == "ParamAOTInput" || d.kind == "BufferAOTInput" ? d.target : "";
}

StageIoMap mapAot(const Graph& aot, int userOutputs)
{
    StageIoMap m;
    const std::size_t inputs = aot.placeholders().size();
    for (std::size_t k = 0; k < inputs; ++k)
        m.inputs.push_back(static_cast<int>(k));
    m.outputs.assign(static_cast<std::size_t>(std::max(userOutputs, 0)), -1);
    bool described = false;
    for (std::size_t k = 0; k < aot.outputComments.size(); ++k) {
        const AotDescriptor d = parseAotDescriptor(aot.outputComments[k]);
        described = described || !d.kind.empty();
        if (d.kind == "PlainAOTOutput" && d.index >= 0 && d.index < userOutputs)
            m.outputs[static_cast<std::size_t>(d.index)] = static_cast<int>(k);
    }
    if (!described) {
        // Seed dumps and older logs carry no descriptors: AOTAutograd returns mutated inputs first, so this is
        // right for graphs that mutate none.
        const std::size_t n = flatOutputCount(aot);
        for (std::size_t u = 0; u < m.outputs.size() && u < n; ++u)
            m.outputs[u] = static_cast<int>(u);
        m.notes.push_back("the AOT graph's outputs carry no descriptors: its first " + std::to_string(m.outputs.size()) +
                          " output(s) taken as the user outputs");
    }
    for (std::size_t u = 0; u < m.outputs.size(); ++u)
        if (m.outputs[u] < 0)
            m.notes.push_back("user output " + std::to_string(u) + " is not among the AOT graph's outputs");
    for (const MutatedInput& mi : mutatedInputs(aot))
        m.outputs.push_back(mi.aotOutput >= 0 ? mi.aotOutput : -(mi.aotInput + 2));
    return m;
}

StageIoMap mapDynamo(const Graph& dynamo, const Graph& aot, int userOutputs)
{
    StageIoMap m;
    const std::size_t count = dynamo.placeholders().size();
    const std::size_t aotCount = aot.placeholders().size();
    m.inputs.assign(count, -1);
    for (int u = 0; u < userOutputs; ++u)
        m.outputs.push_back(u);
    // Attributes dynamo reads (get_attr) that the AOT graph takes as inputs: fed the same generated values.
    std::set<std::string> attributes;
    for (const Node& n : dynamo.nodes)
        if (n.kind == NodeKind::GetAttr)
            attributes.insert(n.attr);
    const auto aotPlaceholders = aot.placeholders();
    for (std::size_t j = 0; j < aotCount; ++j) {
        const std::string attr = liftedAttribute(parseAotDescriptor(aot.nodes[static_cast<std::size_t>(aotPlaceholders[j])].comment));
        if (!attr.empty() && attributes.contains(attr))
            m.constants.emplace_back(attr, static_cast<int>(j));
    }
    for (const MutatedInput& mi : mutatedInputs(aot)) {
        const auto c = std::find_if(m.constants.begin(), m.constants.end(), [&](const auto& k) { return k.first == mi.dynamoAttr; });
        m.outputs.push_back(mi.dynamoInput >= 0 && static_cast<std::size_t>(mi.dynamoInput) < count ? -(mi.dynamoInput + 2)
                            : !mi.dynamoAttr.empty() && c != m.constants.end()
                                ? -static_cast<int>(count + static_cast<std::size_t>(c - m.constants.begin())) - 2
                                : -1);
    }
    bool described = false;
    std::string reshaping;  // a descriptor under which inputs do not line up one to one
    for (std::size_t j = 0; j < aotCount; ++j) {
        const std::string& comment = aot.nodes[static_cast<std::size_t>(aot.placeholders()[j])].comment;
        const AotDescriptor d = parseAotDescriptor(comment);
        described = described || !d.kind.empty();
        if (reshapesInputs(d.kind) && reshaping.empty())
            reshaping = placeholderName(aot, static_cast<int>(j)) + " is " + d.text;
        if (d.kind == "PlainAOTInput" && d.index >= 0 && static_cast<std::size_t>(d.index) < count)
            m.inputs[static_cast<std::size_t>(d.index)] = static_cast<int>(j);
    }
    if (!described) {
        std::size_t primals = 0;
        for (std::size_t j = 0; j < aotCount; ++j)
            primals += placeholderName(aot, static_cast<int>(j)).rfind("tangents_", 0) == 0 ? 0 : 1;
        if (primals != count) {
            std::size_t attrs = 0;
            for (const Node& n : dynamo.nodes)
                attrs += n.kind == NodeKind::GetAttr ? 1 : 0;
            m.unmappable = "the AOT graph's inputs carry no descriptors and number " + std::to_string(primals) +
                           ", dynamo's " + std::to_string(count) + ": they cannot be lined up";
            if (attrs > 0 && primals == count + attrs)
                m.unmappable += " (dynamo reads " + std::to_string(attrs) + " module attribute(s) through get_attr, which "
                                "AOTAutograd lifted to inputs: a log of a torch that did not inline nn modules)";
            return m;
        }
        for (std::size_t n = 0; n < count; ++n)
            m.inputs[n] = static_cast<int>(n);
        m.notes.push_back("the AOT graph's inputs carry no descriptors: dynamo's inputs lined up by position");
    }
    for (std::size_t n = 0; n < count; ++n) {
        const std::string name = placeholderName(dynamo, static_cast<int>(n));
        if (m.inputs[n] < 0) {
            if (!reshaping.empty()) {
                m.unmappable = "dynamo input '" + name + "' has no AOT input: AOTAutograd reshaped its inputs (" + reshaping + ")";
                return m;
            }
            m.inputNotes.push_back("'" + name + "' is not an input of the AOT graph: generated from its own metadata");
            continue;
        }
        const std::string why = incompatible(placeholderMeta(dynamo, static_cast<int>(n)), placeholderMeta(aot, m.inputs[n]));
        if (!why.empty()) {
            m.unmappable = "dynamo input '" + name + "' and AOT input '" + placeholderName(aot, m.inputs[n]) +
                           "' differ: " + why;
            return m;
        }
    }
    return m;
}

StageIoMap mapDownstream(const Graph& stage, const Graph& aot, int userOutputs)
{
    StageIoMap m;
    const auto stageInputs = stage.placeholders();
    const std::size_t aotCount = aot.placeholders().size();
    if (stageInputs.size() == aotCount) {
        for (std::size_t k = 0; k < aotCount; ++k)
            m.inputs.push_back(static_cast<int>(k));
    } else {
        std::map<std::string, int> byName;
        for (std::size_t j = 0; j < aotCount; ++j)
            byName[placeholderName(aot, static_cast<int>(j))] = static_cast<int>(j);
        for (std::size_t k = 0; k < stageInputs.size(); ++k) {
            auto it = byName.find(stage.nodes[static_cast<std::size_t>(stageInputs[k])].name);
            if (it == byName.end()) {
                m.unmappable = "it has " + std::to_string(stageInputs.size()) + " inputs, the AOT graph " +
                               std::to_string(aotCount) + ", and '" + stage.nodes[static_cast<std::size_t>(stageInputs[k])].name +
                               "' is not one of the AOT graph's";
                return m;
            }
            m.inputs.push_back(it->second);
        }
        m.notes.push_back("inputs lined up by name (" + std::to_string(stageInputs.size()) + " of the AOT graph's " +
                          std::to_string(aotCount) + ")");
    }
    for (std::size_t k = 0; k < m.inputs.size(); ++k) {
        const std::string why = incompatible(placeholderMeta(stage, static_cast<int>(k)), placeholderMeta(aot, m.inputs[k]));
        if (!why.empty()) {
            m.unmappable = "input '" + placeholderName(stage, static_cast<int>(k)) + "' and AOT input '" +
                           placeholderName(aot, m.inputs[k]) + "' differ: " + why;
            return m;
        }
    }
    const std::size_t outs = flatOutputCount(stage), aotOuts = flatOutputCount(aot);
    StageIoMap a = mapAot(aot, userOutputs);
    // A joint graph returns the forward's outputs (mutated inputs, user outputs) first, then gradients where the
    // forward returns saved activations: the user outputs sit at the same positions.
    const bool joint = !aot.pytreeInputs.empty() || aotCount > stageInputs.size();
    const bool within = std::all_of(a.outputs.begin(), a.outputs.end(), [&](int k) { return k < static_cast<int>(outs); });
    if (outs != aotOuts && !(joint && within)) {
        m.unmappable = "it returns " + std::to_string(outs) + " values, the AOT graph " + std::to_string(aotOuts);
        return m;
    }
    if (outs != aotOuts)
        m.notes.push_back("user outputs at the AOT joint graph's positions (its forward part)");
    m.outputs = a.outputs;
    for (int& k : m.outputs) {
        if (k > -2)
            continue;
        const auto it = std::find(m.inputs.begin(), m.inputs.end(), -k - 2);  // the AOT input mutated in place: ours
        k = it == m.inputs.end() ? -1 : -static_cast<int>(it - m.inputs.begin()) - 2;
    }
    return m;
}

}  // namespace

AotDescriptor parseAotDescriptor(const std::string& comment)
{
    AotDescriptor d;
    const std::size_t open = comment.find('(');
    if (open == std::string::npos || open == 0 || comment.back() != ')')
        return d;
    const std::string kind = comment.substr(0, open);
    if (kind.find("AOT") == std::string::npos || !std::all_of(kind.begin(), kind.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }))
        return d;
    d.kind = kind;
    d.text = comment;
    // idx= of this descriptor, not of one nested in it (TangentAOTInput(output=PlainAOTOutput(idx=0))).
    const std::string key = "idx=";
    const std::size_t at = comment.find(key, open);
    if (at != std::string::npos && comment.find('(', open + 1) > at) {
        std::size_t p = at + key.size();
        int v = 0;
        bool any = false;
        while (p < comment.size() && std::isdigit(static_cast<unsigned char>(comment[p]))) {
            v = v * 10 + (comment[p++] - '0');
            any = true;
            if (v > 1000000)
                return d;
        }
        if (any)
            d.index = v;
    }
    const std::string targetKey = "target='";
    const std::size_t t = comment.find(targetKey, open);
    if (t != std::string::npos && comment.find('(', open + 1) > t) {
        const std::size_t from = t + targetKey.size(), to = comment.find('\'', from);
        if (to != std::string::npos)
            d.target = comment.substr(from, to - from);
    }
    return d;
}

std::vector<MutatedInput> mutatedInputs(const Graph& aot)
{
    std::vector<MutatedInput> out;
    const auto placeholders = aot.placeholders();
    // AOT placeholder j -> dynamo's input (its PlainAOTInput index, or j itself in a log without descriptors).
    auto descriptor = [&](int j) {
        return parseAotDescriptor(aot.nodes[static_cast<std::size_t>(placeholders[static_cast<std::size_t>(j)])].comment);
    };
    auto dynamoIndex = [&](int j) {
        const AotDescriptor d = descriptor(j);
        return d.kind.empty() ? j : d.kind == "PlainAOTInput" ? d.index : -1;
    };
    const std::string key = "mutated_input=";
    for (std::size_t k = 0; k < aot.outputComments.size(); ++k) {
        const std::string& c = aot.outputComments[k];
        const std::size_t at = c.find(key);
        if (parseAotDescriptor(c).kind != "InputMutationAOTOutput" || at == std::string::npos)
            continue;
        const AotDescriptor inner = parseAotDescriptor(c.substr(at + key.size(), c.size() - 1 - at - key.size()));
        if (inner.kind == "PlainAOTInput" && inner.index >= 0)
            out.push_back({inner.index, -1, static_cast<int>(k), ""});
    }
    // Mutations kept in the graph (inference graphs, and training graphs of recent torch): copy_ into a placeholder.
    for (const Node& n : aot.nodes) {
        if (!n.isOp() || n.target.op != "copy_" || n.args.empty() || n.args[0].kind != Arg::Kind::Node)
            continue;
        const auto it = std::find(placeholders.begin(), placeholders.end(), n.args[0].node);
        if (it == placeholders.end())
            continue;
        const int j = static_cast<int>(it - placeholders.begin());
        const int dyn = dynamoIndex(j);
        if (dyn >= 0 && std::none_of(out.begin(), out.end(), [&](const MutatedInput& m) { return m.dynamoInput == dyn; }))
            out.push_back({dyn, j, -1, ""});
        const std::string attr = liftedAttribute(descriptor(j));
        if (dyn < 0 && !attr.empty() && std::none_of(out.begin(), out.end(), [&](const MutatedInput& m) { return m.aotInput == j; }))
            out.push_back({-1, j, -1, attr});
    }
    return out;
}

int userOutputCount(const Graph* dynamo, const Graph& aot)
{
    if (dynamo)
        return static_cast<int>(flatOutputCount(*dynamo));
    int plain = 0;
    bool described = false;
    for (const std::string& c : aot.outputComments) {
        const AotDescriptor d = parseAotDescriptor(c);
        described = described || !d.kind.empty();
        plain += d.kind == "PlainAOTOutput" ? 1 : 0;
    }
    return described ? plain : static_cast<int>(flatOutputCount(aot));
}

StageIoMap mapStage(const Graph& stage, StageRole role, const Graph& aot, int userOutputs)
{
    switch (role) {
    case StageRole::Dynamo: return mapDynamo(stage, aot, userOutputs);
    case StageRole::Aot: return mapAot(aot, userOutputs);
    case StageRole::Downstream: return mapDownstream(stage, aot, userOutputs);
    }
    return {};
}

}  // namespace fxray::graph
