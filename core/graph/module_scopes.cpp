#include "graph/module_scopes.h"

#include "base/error.h"
#include "base/json.h"

#include <algorithm>
#include <unordered_map>

namespace fxray::graph {

bool ModuleScopes::hasModules() const
{
    return std::any_of(nodes.begin(), nodes.end(), [](const NodeOrigin& o) { return !o.module.empty(); });
}

std::string ModuleScopes::describe() const
{
    switch (source) {
    case Source::Sidecar: return "node_meta.json (nn_module_stack)";
    case Source::Derived: return "parameter names";
    case Source::Repeats: return "repeated structure (stack traces and ops)";
    case Source::None: break;
    }
    return "none";
}

namespace {

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

std::string parentPath(const std::string& path)
{
    const std::size_t dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

}  // namespace

std::string modulePath(std::string_view key)
{
    std::string s(key);
    // Dynamo's root: L['self'] (or L['<first argument>']).
    if (startsWith(s, "L[")) {
        const std::size_t close = s.find(']');
        s = close == std::string::npos ? std::string() : s.substr(close + 1);
    }
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (startsWith(std::string_view(s).substr(i), "._modules[")) {
            i += 9;
            continue;
        }
        const char c = s[i];
        if (c == '[') {
            out += '.';
            ++i;
            continue;
        }
        if (c == ']' || c == '\'' || c == '"') {
            ++i;
            continue;
        }
        out += c;
        ++i;
    }
    // collapse ".." and trim dots
    std::string clean;
    for (char c : out)
        if (!(c == '.' && (clean.empty() || clean.back() == '.')))
            clean += c;
    while (!clean.empty() && clean.back() == '.')
        clean.pop_back();
    return clean;
}

std::optional<std::string> parameterPath(std::string_view name)
{
    if (!(startsWith(name, "l_") || startsWith(name, "L_")))
        return std::nullopt;
    static constexpr std::string_view kSeparators[] = {"_modules_", "_parameters_", "_buffers_"};
    const auto nextSeparator = [&](std::size_t from, std::size_t& length) {
        std::size_t best = std::string_view::npos;
        for (std::string_view sep : kSeparators) {
            const std::size_t at = name.find(sep, from);
            if (at < best) {
                best = at;
                length = sep.size();
            }
        }
        return best;
    };
    std::size_t length = 0;
    std::size_t at = nextSeparator(1, length);
    if (at == std::string_view::npos)
        return std::nullopt;
    const bool leaf = name.find("_parameters_") != std::string_view::npos || name.find("_buffers_") != std::string_view::npos;
    if (!leaf)
        return std::nullopt;
    std::string out;
    while (at != std::string_view::npos) {
        const std::size_t start = at + length;
        std::size_t nextLength = 0;
        const std::size_t next = nextSeparator(start, nextLength);
        std::string_view part = name.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start);
        if (next == std::string_view::npos && !part.empty() && part.back() == '_')
            part.remove_suffix(1);
        if (!part.empty()) {
            if (!out.empty())
                out += '.';
            out += part;
        }
        at = next;
        length = nextLength;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

ModuleScopes parseNodeMeta(const Graph& g, std::string_view text, const std::string& path)
{
    json::Value parsed;
    try {
        parsed = json::parse(text);
    } catch (const Error& e) {
        throw Error("not a node_meta.json file: " + e.message(), fileLocation(path, e.where().line, e.where().column));
    }
    const json::Value& doc = parsed;  // reading lookups only: a writing one inserts and moves the members
    if (!doc.isObject() || doc["format"].isNull() || !doc["format"].isString() || doc["format"].asString() != "fxray-node-meta")
        throw Error("not a node_meta.json file (no \"format\": \"fxray-node-meta\")", fileLocation(path));
    if (!doc["version"].isInt() || doc["version"].asInt() != 1)
        throw Error("node_meta.json version " + json::write(doc["version"]) + " is not supported (1 is)", fileLocation(path));
    const json::Value& nodes = doc["nodes"];
    const json::Value& stacks = doc["module_stacks"];
    const json::Value& traces = doc["stack_traces"];
    if (!nodes.isObject() || (!stacks.isNull() && !stacks.isArray()) || (!traces.isNull() && !traces.isArray()))
        throw Error("node_meta.json: \"nodes\" must be an object, \"module_stacks\" and \"stack_traces\" arrays", fileLocation(path));
    ModuleScopes out;
    out.source = ModuleScopes::Source::Sidecar;
    out.backwardTwins = true;
    out.nodes.resize(g.nodes.size());
    if (traces.isArray())
        for (const json::Value& t : traces.asArray())
            out.stackTraces.push_back(t.isString() ? t.asString() : std::string());
    std::unordered_map<std::string_view, int> byName;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        byName.emplace(g.nodes[i].name, static_cast<int>(i));
    for (const auto& [name, entry] : nodes.asObject()) {
        const auto it = byName.find(name);
        if (it == byName.end() || !entry.isObject())
            continue;
        NodeOrigin& o = out.nodes[static_cast<std::size_t>(it->second)];
        const json::Value& phase = entry["phase"];
        if (phase.isString())
            o.phase = phase.asString() == "backward" ? Phase::Backward : phase.asString() == "forward" ? Phase::Forward : Phase::Unknown;
        const json::Value& stack = entry["module_stack"];
        if (stack.isInt()) {
            const json::Value& s = stacks[static_cast<std::size_t>(stack.asInt())];
            if (!s.isArray() || s.size() == 0)
                throw Error("node_meta.json: node '" + name + "' names module stack " + std::to_string(stack.asInt()) +
                                ", which is not there",
                            fileLocation(path));
            const json::Value& inner = s[s.size() - 1];
            if (inner[std::size_t{0}].isString())
                o.module = inner[std::size_t{0}].asString();
            if (inner[std::size_t{1}].isString())
                o.moduleType = inner[std::size_t{1}].asString();
        }
        const json::Value& param = entry["param"];
        if (o.module.empty() && param.isString())
            o.module = parentPath(param.asString());
        const json::Value& trace = entry["stack_trace"];
        if (trace.isInt() && trace.asInt() >= 0 && static_cast<std::size_t>(trace.asInt()) < out.stackTraces.size())
            o.stackTrace = static_cast<int>(trace.asInt());
    }
    return out;
}

namespace {

// "ParamAOTInput(target='layers.0.fc.weight')" -> "layers.0.fc.weight"
std::optional<std::string> targetOfComment(const std::string& comment)
{
    const std::size_t at = comment.find("target='");
    if (at == std::string::npos)
        return std::nullopt;
    const std::size_t end = comment.find('\'', at + 8);
    if (end == std::string::npos)
        return std::nullopt;
    return comment.substr(at + 8, end - at - 8);
}

std::optional<std::size_t> plainInputIndex(const std::string& comment)
{
    const std::size_t at = comment.find("PlainAOTInput(idx=");
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t value = 0;
    bool any = false;
    for (std::size_t i = at + 18; i < comment.size() && comment[i] >= '0' && comment[i] <= '9'; ++i) {
        value = value * 10 + static_cast<std::size_t>(comment[i] - '0');
        any = true;
    }
    return any ? std::optional<std::size_t>(value) : std::nullopt;
}

std::size_t countInputs(const Node& n)
{
    std::size_t k = 0;
    forEachNodeRef(n, [&](int) { ++k; });
    return k;
}

}  // namespace

namespace {

// Per node, the module of the parameter it reads directly or through a view of that parameter alone ("" if none);
// placeholders name their own parameter's module.
std::vector<std::string> parameterAnchors(const Graph& g, const std::vector<std::string>& dynamoInputs)
{
    const std::size_t count = g.nodes.size();
    std::vector<std::string> anchor(count);
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder) {
            std::optional<std::string> p = parameterPath(n.name);
            if (!p)
                p = targetOfComment(n.comment);
            if (!p)
                if (const auto idx = plainInputIndex(n.comment); idx && *idx < dynamoInputs.size())
                    p = parameterPath(dynamoInputs[*idx]);
            if (p)
                anchor[i] = parentPath(*p);
            continue;
        }
        if (n.kind != NodeKind::CallFunction && n.kind != NodeKind::CallMethod)
            continue;
        // A parameter read directly, or through a view of it alone (t, permute, convert_element_type).
        const auto viewOfParam = [&](const Node& producer) {
            if (producer.kind == NodeKind::Placeholder)
                return true;
            if (countInputs(producer) != 1)
                return false;
            bool fromParam = false;
            forEachNodeRef(producer, [&](int q) {
                fromParam = q >= 0 && static_cast<std::size_t>(q) < count && g.nodes[static_cast<std::size_t>(q)].kind == NodeKind::Placeholder;
            });
            return fromParam;
        };
        std::string best;
        forEachNodeRef(n, [&](int p) {
            if (p < 0 || static_cast<std::size_t>(p) >= count)
                return;
            const std::string& a = anchor[static_cast<std::size_t>(p)];
            if (!a.empty() && a.size() > best.size() && viewOfParam(g.nodes[static_cast<std::size_t>(p)]))
                best = a;
        });
        anchor[i] = best;
    }
    return anchor;
}

}  // namespace

std::vector<Phase> jointPhases(const Graph& g)
{
    const std::size_t count = g.nodes.size();
    std::vector<Phase> phase(count, Phase::Unknown);
    std::vector<char> fromTangent(count, 0);
    std::size_t backwardFrom = count;
    bool hasTangents = false;
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder) {
            if (n.name.rfind("tangents_", 0) == 0) {
                fromTangent[i] = 1;
                hasTangents = true;
            }
            continue;
        }
        if (n.kind == NodeKind::Output)
            continue;
        forEachNodeRef(n, [&](int p) {
            if (p >= 0 && static_cast<std::size_t>(p) < count && fromTangent[static_cast<std::size_t>(p)])
                fromTangent[i] = 1;
        });
        if (fromTangent[i] && backwardFrom == count)
            backwardFrom = i;
    }
    if (!hasTangents || backwardFrom == count)
        return phase;
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder)
            phase[i] = fromTangent[i] ? Phase::Backward : Phase::Forward;
        else if (n.kind != NodeKind::Output)
            phase[i] = i >= backwardFrom ? Phase::Backward : Phase::Forward;
    }
    return phase;
}

namespace {

// For each node, the nearest node before (`prev`) and after (`next`) it in the same phase that reads a parameter.
void nearestAnchored(const Graph& g, const std::vector<std::string>& anchor, const ModuleScopes& out, std::vector<int>& prev,
                     std::vector<int>& next)
{
    const std::size_t count = g.nodes.size();
    prev.assign(count, -1);
    next.assign(count, -1);
    int last = -1;
    for (std::size_t i = 0; i < count; ++i) {
        if (last >= 0 && out.nodes[static_cast<std::size_t>(last)].phase != out.nodes[i].phase)
            last = -1;
        prev[i] = last;
        const Node& n = g.nodes[i];
        if (!anchor[i].empty() && n.kind != NodeKind::Placeholder)
            last = static_cast<int>(i);
    }
    last = -1;
    for (std::size_t i = count; i-- > 0;) {
        if (last >= 0 && out.nodes[static_cast<std::size_t>(last)].phase != out.nodes[i].phase)
            last = -1;
        next[i] = last;
        const Node& n = g.nodes[i];
        if (!anchor[i].empty() && n.kind != NodeKind::Placeholder)
            last = static_cast<int>(i);
    }
}

}  // namespace

ModuleScopes deriveModuleScopes(const Graph& g, const std::vector<std::string>& dynamoInputs)
{
    const std::size_t count = g.nodes.size();
    ModuleScopes out;
    out.nodes.resize(count);
    const std::vector<std::string> anchor = parameterAnchors(g, dynamoInputs);
    const std::vector<Phase> phases = jointPhases(g);
    for (std::size_t i = 0; i < count; ++i)
        out.nodes[i].phase = phases[i];
    // Nodes that read no parameter: the common module of the nearest anchored nodes before and after them (in the
    // same phase). A residual add between layers.0.mlp and layers.1.ln belongs to neither layer: the model itself.
    std::vector<int> prev, next;
    nearestAnchored(g, anchor, out, prev, next);
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Output)
            continue;
        if (!anchor[i].empty()) {
            out.nodes[i].module = anchor[i];
            any = true;
            continue;
        }
        if (n.kind == NodeKind::Placeholder || n.kind == NodeKind::GetAttr || prev[i] < 0 || next[i] < 0)
            continue;
        const std::vector<std::string> a = moduleComponents(anchor[static_cast<std::size_t>(prev[i])]);
        const std::vector<std::string> b = moduleComponents(anchor[static_cast<std::size_t>(next[i])]);
        std::string common;
        for (std::size_t k = 0; k < a.size() && k < b.size() && a[k] == b[k]; ++k)
            common += (common.empty() ? "" : ".") + a[k];
        out.nodes[i].module = common;
    }
    out.source = any ? ModuleScopes::Source::Derived : ModuleScopes::Source::None;
    if (!any)
        out.nodes.clear();
    return out;
}

std::vector<std::string> moduleComponents(std::string_view path)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= path.size() && !path.empty()) {
        std::size_t dot = path.find('.', start);
        if (dot == std::string_view::npos)
            dot = path.size();
        const std::string_view part = path.substr(start, dot - start);
        const bool numeric = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (numeric && !out.empty())
            out.back() += "." + std::string(part);
        else if (!part.empty())
            out.emplace_back(part);
        start = dot + 1;
        if (dot == path.size())
            break;
    }
    return out;
}

}  // namespace fxray::graph
