// The scope tree as text and JSON (see scope_outline.h).
#include "render/scope_outline.h"

namespace fxray::render {

namespace {

// "6382" -> "6,382": outlines of big graphs are read by people.
std::string thousands(std::size_t v)
{
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string sourceName(graph::ModuleScopes::Source s)
{
    switch (s) {
    case graph::ModuleScopes::Source::Sidecar: return "node_meta.json";
    case graph::ModuleScopes::Source::Derived: return "parameter names";
    case graph::ModuleScopes::Source::Repeats: return "repeated structure";
    case graph::ModuleScopes::Source::None: break;
    }
    return "none";
}

std::string nodesText(std::size_t n)
{
    return thousands(n) + (n == 1 ? " node" : " nodes");
}

struct TextWriter {
    const ScopeTree& tree;
    int maxDepth;
    std::string out;

    void line(int depth, const std::string& text)
    {
        out.append(static_cast<std::size_t>(2 * depth), ' ');
        out += text;
        out += '\n';
    }

    std::string describe(const Scope& s, bool each) const
    {
        std::string t = (each ? "each " : "") + nodesText(s.nodes.size());
        if (!s.children.empty() && !s.direct.empty())
            t += " (" + thousands(s.direct.size()) + " own)";
        if (!s.type.empty())
            t += " · " + s.type;
        if (s.twin >= 0)
            t += " · twin " + tree.scopes[static_cast<std::size_t>(s.twin)].path;
        return t;
    }

    void children(int scope, int depth)
    {
        if (maxDepth >= 0 && depth > maxDepth)
            return;
        for (int c : tree.scopes[static_cast<std::size_t>(scope)].children) {
            const Scope& s = tree.scopes[static_cast<std::size_t>(c)];
            if (s.fold >= 0) {
                const Fold& f = tree.folds[static_cast<std::size_t>(s.fold)];
                if (f.scopes.front() != c)
                    continue;
                line(depth, f.title + "  " + describe(s, true));
                children(c, depth + 1);
                continue;
            }
            line(depth, s.name + "  " + describe(s, false));
            children(c, depth + 1);
        }
    }
};

json::Value scopeJson(const graph::Graph& g, const ScopeTree& tree, int scope)
{
    const Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
    json::Value v = json::Object{};
    v["name"] = s.name;
    v["path"] = s.path;
    if (!s.type.empty())
        v["type"] = s.type;
    v["nodes"] = static_cast<std::int64_t>(s.nodes.size());
    // Its first and last computing nodes (inputs it holds come before them in program order, not in its span).
    std::vector<int> ops;
    for (int n : s.nodes)
        if (g.nodes[static_cast<std::size_t>(n)].kind == graph::NodeKind::CallFunction ||
            g.nodes[static_cast<std::size_t>(n)].kind == graph::NodeKind::CallMethod)
            ops.push_back(n);
    if (!ops.empty()) {
        v["first"] = g.nodes[static_cast<std::size_t>(ops.front())].name;
        v["last"] = g.nodes[static_cast<std::size_t>(ops.back())].name;
    }
    v["own_nodes"] = static_cast<std::int64_t>(s.direct.size());
    if (s.twin >= 0)
        v["twin"] = tree.scopes[static_cast<std::size_t>(s.twin)].path;
    json::Value kids = json::Array{};
    for (int c : s.children) {
        const Scope& child = tree.scopes[static_cast<std::size_t>(c)];
        if (child.fold < 0) {
            kids.push_back(scopeJson(g, tree, c));
            continue;
        }
        const Fold& f = tree.folds[static_cast<std::size_t>(child.fold)];
        if (f.scopes.front() != c)
            continue;
        json::Value fold = json::Object{};
        fold["fold"] = f.title;
        fold["count"] = static_cast<std::int64_t>(f.scopes.size());
        fold["nodes"] = static_cast<std::int64_t>(f.nodes.size());
        json::Value instances = json::Array{};
        for (int i : f.scopes)
            instances.push_back(tree.scopes[static_cast<std::size_t>(i)].path);
        fold["instances"] = std::move(instances);
        fold["each"] = scopeJson(g, tree, c);
        kids.push_back(std::move(fold));
    }
    v["children"] = std::move(kids);
    return v;
}

}  // namespace

std::string outlineText(const graph::Graph& g, const ScopeTree& tree, int maxDepth)
{
    TextWriter w{tree, maxDepth, {}};
    if (tree.scopes.empty())
        return w.out;
    const Scope& root = tree.scopes[0];
    w.line(0, (g.className.empty() ? std::string("model") : g.className) + "  " + nodesText(g.nodes.size()) + " · scopes from " +
                  sourceName(tree.source) + (root.children.empty() ? "" : " · " + thousands(root.direct.size()) + " own"));
    w.children(0, 1);
    return w.out;
}

json::Value outlineJson(const graph::Graph& g, const ScopeTree& tree)
{
    json::Value v = json::Object{};
    v["source"] = sourceName(tree.source);
    v["nodes"] = static_cast<std::int64_t>(g.nodes.size());
    v["folds"] = static_cast<std::int64_t>(tree.folds.size());
    if (!tree.scopes.empty())
        v["root"] = scopeJson(g, tree, 0);
    return v;
}

}  // namespace fxray::render
