#include "render/scope_tree.h"

#include "graph/repeat_scopes.h"
#include "graph/tensor_meta.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace fxray::render {

namespace {

struct Hasher {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    void bytes(const void* p, std::size_t n)
    {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h ^= c[i];
            h *= 1099511628211ull;
        }
    }
    void str(std::string_view s)
    {
        bytes(s.data(), s.size());
        const char end = 0;
        bytes(&end, 1);
    }
    template <class T>
    void value(const T& v)
    {
        bytes(&v, sizeof v);
    }
};

void hashArg(Hasher& h, const graph::Arg& a, const std::vector<int>& local)
{
    h.value(static_cast<int>(a.kind));
    switch (a.kind) {
    case graph::Arg::Kind::Bool: h.value(a.b); break;
    case graph::Arg::Kind::Int: h.value(a.i); break;
    case graph::Arg::Kind::Float: h.value(a.f); break;
    case graph::Arg::Kind::Complex: h.value(a.f); h.value(a.imag); break;
    case graph::Arg::Kind::String:
    case graph::Arg::Kind::Op:
    case graph::Arg::Kind::Layout:
    case graph::Arg::Kind::MemoryFormat: h.str(a.s); break;
    case graph::Arg::Kind::DType: h.value(static_cast<int>(a.dtype)); break;
    case graph::Arg::Kind::Node: {
        const int at = a.node >= 0 && static_cast<std::size_t>(a.node) < local.size() ? local[static_cast<std::size_t>(a.node)] : -1;
        h.value(at);
        break;
    }
    default: break;
    }
    for (const graph::Arg& item : a.items)
        hashArg(h, item, local);
}

bool isInput(const graph::Node& n)
{
    return n.kind == graph::NodeKind::Placeholder || n.kind == graph::NodeKind::GetAttr;
}

// `text` cut to at most `max` bytes with "…" when longer, never inside a UTF-8 character.
std::string cutText(const std::string& text, std::size_t max)
{
    if (text.size() <= max)
        return text;
    std::size_t cut = max > 3 ? max - 3 : 0;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return text.substr(0, cut) + "…";
}

// "layers.3" -> ("layers", 3); "modeling_qwen2:47–297 #3" (render of graph/repeat_scopes) -> ("modeling_qwen2:47–297", 3);
// other names -> ("name", -1)
std::pair<std::string, long> splitIndex(const std::string& name)
{
    if (auto repeat = graph::splitRepeatIndex(name); repeat.second >= 0)
        return repeat;
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot + 1 == name.size())
        return {name, -1};
    const std::string tail = name.substr(dot + 1);
    if (!std::all_of(tail.begin(), tail.end(), [](char c) { return c >= '0' && c <= '9'; }) || tail.size() > 9)
        return {name, -1};
    return {name.substr(0, dot), std::stol(tail)};
}

std::string foldTitle(const ScopeTree& tree, const std::vector<int>& scopes)
{
    const std::string count = " ×" + std::to_string(scopes.size());
    std::vector<long> indices;
    std::string prefix;
    bool numbered = true;
    for (int s : scopes) {
        auto [p, k] = splitIndex(tree.scopes[static_cast<std::size_t>(s)].name);
        if (k < 0 || (!prefix.empty() && p != prefix)) {
            numbered = false;
            break;
        }
        prefix = p;
        indices.push_back(k);
    }
    if (numbered) {
        std::sort(indices.begin(), indices.end());
        bool consecutive = true;
        for (std::size_t i = 1; i < indices.size(); ++i)
            consecutive = consecutive && indices[i] == indices[i - 1] + 1;
        const bool repeat = graph::splitRepeatIndex(tree.scopes[static_cast<std::size_t>(scopes.front())].name).second >= 0;
        if (consecutive)
            return prefix + (repeat ? " #" : ".") + std::to_string(indices.front()) + "–" + std::to_string(indices.back()) + count;
    }
    return tree.scopes[static_cast<std::size_t>(scopes.front())].name + " … " +
           tree.scopes[static_cast<std::size_t>(scopes.back())].name + count;
}

// An open scope's own nodes, when many: runs in program order, about 4 blocks, cut where
// the statement changes when possible; inputs never share a block with computation.
std::vector<std::vector<int>> directChunks(const graph::Graph& g, const std::vector<int>& direct, std::size_t scopeNodes)
{
    // More nodes than this between two own nodes: a large child scope lies there (the layers between a model's
    // embedding and its head), not a small one (a joint graph's backward nodes of one module amid its children's).
    const long kChildGap = std::max<long>(16, static_cast<long>(scopeNodes / 8));
    std::vector<std::vector<int>> out;
    if (direct.empty())
        return out;
    const std::size_t target = std::max<std::size_t>(4, (direct.size() + 3) / 4);
    for (std::size_t k = 0; k < direct.size(); ++k) {
        const graph::Node& n = g.nodes[static_cast<std::size_t>(direct[k])];
        bool cut = out.empty();
        if (!cut) {
            const graph::Node& prev = g.nodes[static_cast<std::size_t>(out.back().back())];
            // A child scope between two own nodes (a model's embedding before its layers, its head after them)
            // cuts too: a block on both sides of the layers would be read by them and feed them.
            cut = isInput(prev) != isInput(n) || out.back().size() >= 2 * target ||
                  (out.back().size() >= target && prev.stack != n.stack) || direct[k] - direct[k - 1] > kChildGap;
        }
        if (cut)
            out.emplace_back();
        out.back().push_back(direct[k]);
    }
    return out;
}

// Repeats: the class line of each copy (its functions) and backward copies' forward twins, by path.
void linkTwinsAndTypes(ScopeTree& tree, const graph::ModuleScopes& modules)
{
    if (modules.twins.empty() && modules.scopeTypes.empty())
        return;
    std::map<std::string, int> byPath;
    for (std::size_t i = 0; i < tree.scopes.size(); ++i)
        byPath.emplace(tree.scopes[i].path, static_cast<int>(i));
    for (const auto& [path, type] : modules.scopeTypes)
        if (const auto it = byPath.find(path); it != byPath.end() && tree.scopes[static_cast<std::size_t>(it->second)].type.empty())
            tree.scopes[static_cast<std::size_t>(it->second)].type = type;
    for (const auto& [backward, forward] : modules.twins) {
        const auto b = byPath.find(backward), f = byPath.find(forward);
        if (b == byPath.end() || f == byPath.end())
            continue;
        tree.scopes[static_cast<std::size_t>(b->second)].twin = f->second;
        tree.scopes[static_cast<std::size_t>(f->second)].twin = b->second;
    }
}

}  // namespace

std::uint64_t structureHash(const graph::Graph& g, const std::vector<int>& nodes)
{
    // Position of each node in the set; one scratch array reused (a 20,000-node graph has thousands of scopes), reset
    // below so that it is all -1 between calls.
    thread_local std::vector<int> local;
    if (local.size() < g.nodes.size())
        local.assign(g.nodes.size(), -1);
    for (std::size_t k = 0; k < nodes.size(); ++k)
        local[static_cast<std::size_t>(nodes[k])] = static_cast<int>(k);
    Hasher h;
    for (int i : nodes) {
        const graph::Node& n = g.nodes[static_cast<std::size_t>(i)];
        h.value(static_cast<int>(n.kind));
        h.str(n.target.str());
        h.str(n.meta ? graph::formatAnnotation(*n.meta) : std::string());
        for (const graph::Arg& a : n.args)
            hashArg(h, a, local);
        for (const auto& [key, a] : n.kwargs) {
            h.str(key);
            hashArg(h, a, local);
        }
    }
    for (int i : nodes)
        local[static_cast<std::size_t>(i)] = -1;
    return h.h;
}

std::vector<int> ScopeTree::ancestry(int scope) const
{
    std::vector<int> out;
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent)
        out.push_back(s);
    std::reverse(out.begin(), out.end());
    return out;
}

std::string ScopeTree::title(int scope) const
{
    const Scope& s = scopes[static_cast<std::size_t>(scope)];
    return s.type.empty() ? s.name : s.name + " (" + s.type + ")";
}

namespace {

// Folds: runs of consecutive siblings with the same structure.
void findFolds(const graph::Graph& g, const graph::ModuleScopes& modules, ScopeTree& tree)
{
    // Hashes are only compared between siblings, and only made when needed (repeat copies fold by their label):
    // each costs a pass over the scope's nodes with their annotations printed.
    std::vector<char> hashed(tree.scopes.size(), 0);
    const auto hashOf = [&](int scope) {
        Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
        if (!hashed[static_cast<std::size_t>(scope)]) {
            s.hash = structureHash(g, s.nodes);
            hashed[static_cast<std::size_t>(scope)] = 1;
        }
        return s.hash;
    };
    // Folds: runs of consecutive siblings with the same structure.
    for (std::size_t p = 0; p < tree.scopes.size(); ++p) {
        const std::vector<int> children = tree.scopes[p].children;
        for (std::size_t a = 0; a < children.size();) {
            std::size_t b = a + 1;
            const Scope& first = tree.scopes[static_cast<std::size_t>(children[a])];
            while (b < children.size()) {
                const Scope& other = tree.scopes[static_cast<std::size_t>(children[b])];
                // Copies found by repeats (graph/repeat_scopes.h) run the same statements and ops by construction; the
                // inputs they hold can differ (the first backward copy reads the tangent), so their label decides.
                const bool sameRepeat = modules.source == graph::ModuleScopes::Source::Repeats &&
                                        graph::splitRepeatIndex(other.name).second >= 0 &&
                                        graph::splitRepeatIndex(other.name).first == graph::splitRepeatIndex(first.name).first;
                if (!sameRepeat && (other.nodes.size() != first.nodes.size() || hashOf(children[b]) != hashOf(children[a])))
                    break;
                ++b;
            }
            // Numbered siblings (a ModuleList's layers.0, layers.1, ...) fold from two on; others (q_proj, k_proj and
            // v_proj are often identical) only in longer runs, where folding is what makes the drawing readable.
            bool numbered = true;
            for (std::size_t k = a; k < b; ++k)
                numbered = numbered && splitIndex(tree.scopes[static_cast<std::size_t>(children[k])].name).second >= 0;
            if (b - a >= (numbered ? 2u : 4u)) {
                Fold f;
                f.parent = static_cast<int>(p);
                for (std::size_t k = a; k < b; ++k) {
                    f.scopes.push_back(children[k]);
                    tree.scopes[static_cast<std::size_t>(children[k])].fold = static_cast<int>(tree.folds.size());
                    const std::vector<int>& nodes = tree.scopes[static_cast<std::size_t>(children[k])].nodes;
                    f.nodes.insert(f.nodes.end(), nodes.begin(), nodes.end());
                }
                std::sort(f.nodes.begin(), f.nodes.end());
                f.title = foldTitle(tree, f.scopes);
                tree.folds.push_back(std::move(f));
            }
            a = b;
        }
    }
}

}  // namespace

ScopeTree buildScopeTree(const graph::Graph& g, const graph::ModuleScopes& modules)
{
    ScopeTree tree;
    tree.source = modules.source;
    const std::size_t count = g.nodes.size();
    Scope root;
    root.name = "model";
    tree.scopes.push_back(root);
    tree.scopeOf.assign(count, 0);
    tree.phase.assign(count, graph::Phase::Unknown);
    std::map<std::pair<int, std::string>, int> childByName;
    const bool known = modules.nodes.size() == count;
    // Consecutive nodes mostly share their module: the last path's scope is reused without splitting it again.
    const std::string* lastModule = nullptr;
    bool lastBackward = false;
    int lastScope = -1;
    for (std::size_t i = 0; i < count; ++i) {
        const graph::Node& n = g.nodes[i];
        int scope = 0;
        if (known && n.kind != graph::NodeKind::Output) {
            const graph::NodeOrigin& o = modules.nodes[i];
            tree.phase[i] = o.phase;
            const bool backward = !modules.backwardTwins && modules.source != graph::ModuleScopes::Source::Repeats &&
                                  o.phase == graph::Phase::Backward && !isInput(n);
            if (lastModule && *lastModule == o.module && lastBackward == backward &&
                (o.moduleType.empty() || lastScope == 0 || !tree.scopes[static_cast<std::size_t>(lastScope)].type.empty())) {
                scope = lastScope;
            } else {
                std::vector<std::string> parts = graph::moduleComponents(o.module);
                if (backward)
                    parts.insert(parts.begin(), "backward");
                for (const std::string& part : parts) {
                    const auto key = std::make_pair(scope, part);
                    auto it = childByName.find(key);
                    if (it == childByName.end()) {
                        Scope s;
                        s.name = part;
                        const Scope& parent = tree.scopes[static_cast<std::size_t>(scope)];
                        s.path = parent.path.empty() ? part : parent.path + "." + part;
                        s.parent = scope;
                        s.depth = parent.depth + 1;
                        tree.scopes.push_back(std::move(s));
                        const int id = static_cast<int>(tree.scopes.size()) - 1;
                        tree.scopes[static_cast<std::size_t>(scope)].children.push_back(id);
                        it = childByName.emplace(key, id).first;
                    }
                    scope = it->second;
                }
                if (!o.moduleType.empty() && !parts.empty() && tree.scopes[static_cast<std::size_t>(scope)].type.empty())
                    tree.scopes[static_cast<std::size_t>(scope)].type = o.moduleType;
            }
            lastModule = &o.module;
            lastBackward = backward;
            lastScope = scope;
        }
        tree.scopeOf[i] = scope;
        tree.scopes[static_cast<std::size_t>(scope)].direct.push_back(static_cast<int>(i));
        for (int s = scope; s >= 0; s = tree.scopes[static_cast<std::size_t>(s)].parent)
            tree.scopes[static_cast<std::size_t>(s)].nodes.push_back(static_cast<int>(i));
    }
    // A scope that holds only parameters read elsewhere (tied weights) is still a scope; one with nothing is not made.
    for (Scope& s : tree.scopes) {
        std::sort(s.children.begin(), s.children.end(), [&](int a, int b) {
            return tree.scopes[static_cast<std::size_t>(a)].nodes.front() < tree.scopes[static_cast<std::size_t>(b)].nodes.front();
        });
    }
    linkTwinsAndTypes(tree, modules);
    findFolds(g, modules, tree);
    return tree;
}

namespace {

ScopeView emptyView(const ScopeTree& tree)
{
    ScopeView v;
    v.scopeOpen.assign(tree.scopes.size(), 0);
    v.foldOpen.assign(tree.folds.size(), 0);
    v.directOpen.assign(tree.scopes.size(), 0);
    v.shown.assign(tree.scopes.size(), 0);
    if (!v.scopeOpen.empty())
        v.scopeOpen[0] = 1;
    return v;
}

bool isOpen(const std::vector<char>& v, int i)
{
    return i >= 0 && static_cast<std::size_t>(i) < v.size() && v[static_cast<std::size_t>(i)];
}

// Child `c` of an open scope is an instance of an open fold that is not drawn by itself: it goes into a box with
// the neighbouring instances that are not either. Instances of a large fold are drawn only when shown; those of a
// small fold all are, until one of them is opened: then the others shrink to a box before it and one after it
// (an open layer between 23 boxes is a column too long to read at fit zoom).
bool hiddenInstance(const ScopeTree& tree, const ScopeView& view, int c)
{
    const int fold = tree.scopes[static_cast<std::size_t>(c)].fold;
    if (fold < 0 || !isOpen(view.foldOpen, fold) || isOpen(view.shown, c) || isOpen(view.scopeOpen, c))
        return false;
    if (isLargeFold(tree, fold))
        return true;
    const std::vector<int>& scopes = tree.folds[static_cast<std::size_t>(fold)].scopes;  // at most kFoldInstancesDrawn
    return std::any_of(scopes.begin(), scopes.end(), [&](int s) { return isOpen(view.scopeOpen, s); });
}

// The run of hidden instances that starts at children[k]: how many.
std::size_t hiddenRun(const ScopeTree& tree, const ScopeView& view, const std::vector<int>& children, std::size_t k)
{
    const int fold = tree.scopes[static_cast<std::size_t>(children[k])].fold;
    std::size_t n = 0;
    while (k + n < children.size() && tree.scopes[static_cast<std::size_t>(children[k + n])].fold == fold &&
           hiddenInstance(tree, view, children[k + n]))
        ++n;
    return n;
}

// Walks what an open scope draws: its own nodes (or their chunks) and its children (shut scope, shut fold, or the
// open child's own items, recursively). enter/leave bracket what an open child scope or an open fold draws (the
// clusters of the drawing); instances of a fold are consecutive siblings, so the brackets nest.
struct Visitor {
    std::function<void(int node)> node;
    std::function<void(int scope, std::vector<int> nodes)> direct;  // a chunk of an open scope's own nodes
    std::function<void(int scope)> shutScope;
    std::function<void(int fold)> shutFold;
    std::function<void(int fold, int firstScope, int count)> rest;  // hidden instances of an open large fold
    std::function<void(int scope, int fold)> enter;  // an open scope (fold -1) or an open fold (scope -1) begins
    std::function<void()> leave;                     // ... and ends
};

void visit(const graph::Graph& g, const ScopeTree& tree, const ScopeView& view, int scope, const Visitor& v)
{
    const Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
    if (isOpen(view.directOpen, scope) || s.direct.size() <= kDirectNodesShown) {
        for (int n : s.direct)
            v.node(n);
    } else {
        // A few own inputs (a layer's parameters) are drawn as themselves, which the drawing makes small stubs
        // beside their users, not as boxes of one or two nodes each; many (a model's hundreds) go into blocks.
        std::vector<int> inputs, computing;
        for (int n : s.direct)
            (isInput(g.nodes[static_cast<std::size_t>(n)]) ? inputs : computing).push_back(n);
        constexpr std::size_t kInputsDrawn = 32;  // a transformer layer reads 9 to 16 parameters
        const bool fewInputs = inputs.size() <= kInputsDrawn;
        if (fewInputs)
            for (int n : inputs)
                v.node(n);
        for (std::vector<int>& chunk : directChunks(g, fewInputs ? computing : s.direct, s.nodes.size()))
            v.direct(scope, std::move(chunk));
    }
    for (std::size_t k = 0; k < s.children.size(); ++k) {
        const int c = s.children[k];
        const int fold = tree.scopes[static_cast<std::size_t>(c)].fold;
        if (fold >= 0 && !isOpen(view.foldOpen, fold)) {
            if (tree.folds[static_cast<std::size_t>(fold)].scopes.front() == c)
                v.shutFold(fold);
            continue;
        }
        const Fold* open = fold >= 0 ? &tree.folds[static_cast<std::size_t>(fold)] : nullptr;
        if (open && open->scopes.front() == c && v.enter)
            v.enter(-1, fold);
        if (hiddenInstance(tree, view, c)) {
            const std::size_t run = hiddenRun(tree, view, s.children, k);
            v.rest(fold, c, static_cast<int>(run));
            k += run - 1;
        } else if (isOpen(view.scopeOpen, c)) {
            if (v.enter)
                v.enter(c, -1);
            visit(g, tree, view, c, v);
            if (v.leave)
                v.leave();
        } else {
            v.shutScope(c);
        }
        if (open && open->scopes.back() == s.children[k] && v.leave)
            v.leave();
    }
}

std::size_t itemsOfOpen(const ScopeTree& tree, const ScopeView& view, int scope)
{
    // Counting needs no graph except for chunking, which only depends on sizes: approximate chunks by 8.
    const Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
    std::size_t n = (isOpen(view.directOpen, scope) || s.direct.size() <= kDirectNodesShown) ? s.direct.size()
                                                                                            : std::min<std::size_t>(4, s.direct.size());
    for (std::size_t k = 0; k < s.children.size(); ++k) {
        const int c = s.children[k];
        const int fold = tree.scopes[static_cast<std::size_t>(c)].fold;
        if (fold >= 0 && !isOpen(view.foldOpen, fold)) {
            n += tree.folds[static_cast<std::size_t>(fold)].scopes.front() == c;
            continue;
        }
        if (hiddenInstance(tree, view, c)) {
            k += hiddenRun(tree, view, s.children, k) - 1;
            ++n;
            continue;
        }
        n += isOpen(view.scopeOpen, c) ? itemsOfOpen(tree, view, c) : 1;
    }
    return n;
}

}  // namespace

std::size_t visibleCount(const ScopeTree& tree, const ScopeView& view)
{
    return tree.scopes.empty() ? 0 : itemsOfOpen(tree, view, 0);
}

ScopeView initialView(const ScopeTree& tree, std::size_t maxBoxes)
{
    ScopeView view = emptyView(tree);
    if (tree.scopes.empty())
        return view;
    std::size_t visible = visibleCount(tree, view);
    std::vector<char> tried(tree.scopes.size(), 0);
    for (;;) {
        // Shut scopes on screen (not inside a shut fold), largest first.
        std::vector<int> shut;
        std::function<void(int)> collect = [&](int scope) {
            for (int c : tree.scopes[static_cast<std::size_t>(scope)].children) {
                const int fold = tree.scopes[static_cast<std::size_t>(c)].fold;
                if (fold >= 0 && !isOpen(view.foldOpen, fold))
                    continue;
                if (isOpen(view.scopeOpen, c))
                    collect(c);
                else if (!tried[static_cast<std::size_t>(c)])
                    shut.push_back(c);
            }
        };
        collect(0);
        std::stable_sort(shut.begin(), shut.end(), [&](int a, int b) {
            return tree.scopes[static_cast<std::size_t>(a)].nodes.size() > tree.scopes[static_cast<std::size_t>(b)].nodes.size();
        });
        bool opened = false;
        for (int c : shut) {
            tried[static_cast<std::size_t>(c)] = 1;
            if (tree.scopes[static_cast<std::size_t>(c)].children.empty())
                continue;  // a leaf module (q_proj) opens into single nodes: only on demand
            view.scopeOpen[static_cast<std::size_t>(c)] = 1;
            const std::size_t now = visibleCount(tree, view);
            if (now <= maxBoxes) {
                visible = now;
                opened = true;
                break;
            }
            view.scopeOpen[static_cast<std::size_t>(c)] = 0;
        }
        if (!opened)
            break;
    }
    (void)visible;
    return view;
}

void openPathTo(const ScopeTree& tree, ScopeView& view, int node)
{
    if (node < 0 || static_cast<std::size_t>(node) >= tree.scopeOf.size())
        return;
    const int scope = tree.scopeOf[static_cast<std::size_t>(node)];
    for (int s : tree.ancestry(scope)) {
        view.scopeOpen[static_cast<std::size_t>(s)] = 1;
        if (const int fold = tree.scopes[static_cast<std::size_t>(s)].fold; fold >= 0) {
            view.foldOpen[static_cast<std::size_t>(fold)] = 1;
            view.shown[static_cast<std::size_t>(s)] = 1;
        }
    }
    view.directOpen[static_cast<std::size_t>(scope)] = 1;
}

void revealScope(const ScopeTree& tree, ScopeView& view, int scope)
{
    if (scope < 0 || static_cast<std::size_t>(scope) >= tree.scopes.size())
        return;
    for (int s : tree.ancestry(scope)) {
        if (s != scope)
            view.scopeOpen[static_cast<std::size_t>(s)] = 1;
        if (const int fold = tree.scopes[static_cast<std::size_t>(s)].fold; fold >= 0) {
            view.foldOpen[static_cast<std::size_t>(fold)] = 1;
            view.shown[static_cast<std::size_t>(s)] = 1;
        }
    }
}

void closeScope(const ScopeTree& tree, ScopeView& view, int scope)
{
    if (scope < 0 || static_cast<std::size_t>(scope) >= tree.scopes.size())
        return;
    std::function<void(int)> shut = [&](int s) {
        if (s != 0)
            view.scopeOpen[static_cast<std::size_t>(s)] = 0;
        view.directOpen[static_cast<std::size_t>(s)] = 0;
        for (int c : tree.scopes[static_cast<std::size_t>(s)].children) {
            if (const int fold = tree.scopes[static_cast<std::size_t>(c)].fold; fold >= 0) {
                view.foldOpen[static_cast<std::size_t>(fold)] = 0;
                view.shown[static_cast<std::size_t>(c)] = 0;
            }
            shut(c);
        }
    };
    shut(scope);
}

void closeFold(const ScopeTree& tree, ScopeView& view, int fold)
{
    if (fold < 0 || static_cast<std::size_t>(fold) >= tree.folds.size())
        return;
    view.foldOpen[static_cast<std::size_t>(fold)] = 0;
    for (int s : tree.folds[static_cast<std::size_t>(fold)].scopes) {
        closeScope(tree, view, s);
        view.shown[static_cast<std::size_t>(s)] = 0;
    }
}

bool isLargeFold(const ScopeTree& tree, int fold)
{
    return fold >= 0 && static_cast<std::size_t>(fold) < tree.folds.size() &&
           tree.folds[static_cast<std::size_t>(fold)].scopes.size() > kFoldInstancesDrawn;
}

void openFold(const ScopeTree& tree, ScopeView& view, int fold)
{
    if (fold < 0 || static_cast<std::size_t>(fold) >= tree.folds.size())
        return;
    view.foldOpen[static_cast<std::size_t>(fold)] = 1;
    if (!isLargeFold(tree, fold))
        return;
    // One instance open shows what every instance holds; the others wait in a box until asked for.
    const int first = tree.folds[static_cast<std::size_t>(fold)].scopes.front();
    view.shown[static_cast<std::size_t>(first)] = 1;
    view.scopeOpen[static_cast<std::size_t>(first)] = 1;
}

void showMoreOf(const ScopeTree& tree, ScopeView& view, const Block& rest)
{
    if (rest.restCount <= 0 || rest.restFold < 0 || static_cast<std::size_t>(rest.restFold) >= tree.folds.size())
        return;
    const std::vector<int>& scopes = tree.folds[static_cast<std::size_t>(rest.restFold)].scopes;
    const auto at = std::find(scopes.begin(), scopes.end(), rest.scope);
    const std::size_t count = std::min<std::size_t>(kFoldInstancesStep, static_cast<std::size_t>(rest.restCount));
    for (auto it = at; it != scopes.end() && static_cast<std::size_t>(it - at) < count; ++it)
        view.shown[static_cast<std::size_t>(*it)] = 1;
}

void openEverything(ScopeView& view)
{
    for (std::vector<char>* v : {&view.scopeOpen, &view.foldOpen, &view.directOpen, &view.shown})
        std::fill(v->begin(), v->end(), 1);
}

namespace {

// "34 nodes · mm 2 · add 5 · view 7" -> "34 nodes · mm 2 · add 5": short lines keep boxes narrow, so that a fitted
// drawing of them is drawn larger.
std::string shortSummary(const graph::Graph& g, const std::vector<int>& nodes, std::size_t ops = 2)
{
    Block b;
    b.nodes = nodes;
    describeBlock(g, b);
    std::size_t at = 0;
    for (std::size_t k = 0; k <= ops; ++k) {
        at = b.summary.find(" · ", at == 0 ? 0 : at + 1);
        if (at == std::string::npos)
            return b.summary;
    }
    return b.summary.substr(0, at);
}

// An open scope's cluster label: its name and class; an instance of a fold says which one of how many
// ("layers.5 · #5 of ×24 · Qwen2DecoderLayer", "modeling_qwen2:47–297 #5 of ×24").
std::string clusterLabel(const ScopeTree& tree, int scope)
{
    const Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
    std::string label = s.name;
    if (s.fold >= 0) {
        const std::vector<int>& scopes = tree.folds[static_cast<std::size_t>(s.fold)].scopes;
        const std::string count = " of ×" + std::to_string(scopes.size());
        if (graph::splitRepeatIndex(s.name).second >= 0) {
            label += count;  // a repeat copy's name ends in its number already
        } else {
            const auto at = std::find(scopes.begin(), scopes.end(), scope);
            label += " · #" + std::to_string(at - scopes.begin()) + count;
        }
    }
    // The class, or for a repeat copy its functions: cut short, as a cluster is drawn at least as wide as its label.
    constexpr std::size_t kTypeShown = 28;
    if (!s.type.empty())
        label += " · " + cutText(s.type, kTypeShown);
    return label;
}

}  // namespace

Grouping groupingForView(const graph::Graph& g, const ScopeTree& tree, const ScopeView& view)
{
    Grouping out;
    out.blockOf.assign(g.nodes.size(), -1);
    if (tree.scopes.empty())
        return out;
    out.clusterOf.assign(g.nodes.size(), -1);
    int current = -1;  // the cluster being filled
    const auto add = [&](Block b) {
        const int id = static_cast<int>(out.blocks.size());
        for (int n : b.nodes) {
            out.blockOf[static_cast<std::size_t>(n)] = id;
            out.clusterOf[static_cast<std::size_t>(n)] = current;
        }
        out.blocks.push_back(std::move(b));
    };
    Visitor v;
    v.node = [&](int n) { out.clusterOf[static_cast<std::size_t>(n)] = current; };
    v.enter = [&](int scope, int fold) {
        Cluster c;
        c.label = scope >= 0 ? clusterLabel(tree, scope) : tree.folds[static_cast<std::size_t>(fold)].title;
        c.scope = scope;
        c.fold = fold;
        c.parent = current;
        c.depth = current >= 0 ? out.clusters[static_cast<std::size_t>(current)].depth + 1 : 0;
        out.clusters.push_back(std::move(c));
        current = static_cast<int>(out.clusters.size()) - 1;
    };
    v.leave = [&] {
        if (current >= 0)
            current = out.clusters[static_cast<std::size_t>(current)].parent;
    };
    std::vector<int> chunkCount(tree.scopes.size(), 0);
    v.direct = [&](int scope, std::vector<int> nodes) {
        Block b;
        b.nodes = std::move(nodes);
        b.scope = scope;
        b.direct = true;
        describeBlock(g, b);
        // "model · backward 2": what these are (the scope's own nodes, not a submodule), then the statements.
        const bool inputs = std::all_of(b.nodes.begin(), b.nodes.end(), [&](int n) { return isInput(g.nodes[static_cast<std::size_t>(n)]); });
        const graph::Phase phase = tree.phase.empty() ? graph::Phase::Unknown : tree.phase[static_cast<std::size_t>(b.nodes.front())];
        const std::string what = inputs ? "inputs" : phase == graph::Phase::Backward ? "backward" : phase == graph::Phase::Forward ? "forward" : "own nodes";
        const std::string& name = tree.scopes[static_cast<std::size_t>(scope)].name;
        const std::size_t k = static_cast<std::size_t>(++chunkCount[static_cast<std::size_t>(scope)]);
        if (scope != 0) {
            // Inside its scope's cluster, which names the scope: what these are and their statement, kept short
            // (narrow boxes are drawn larger at fit zoom). "forward 2 · q = self.q_proj(hid…"
            const std::string statement = cutText(b.title, 26);
            b.title = what + " " + std::to_string(k) + (inputs || statement.empty() ? "" : " · " + statement);
        } else if (name == what && !inputs) {
            // A "forward"/"backward" half's own nodes (repeated structure): "forward 2" twice says nothing; its
            // statement does ("forward 2 · position_ids = torch.arange(...)").
            std::string statement = b.title.size() > 24 ? b.title.substr(0, 22) + "…" : b.title;  // narrow boxes, larger at fit
            b.title = name + " " + std::to_string(k) + " · " + statement;
        } else {
            b.title = name + " · " + what + " " + std::to_string(k);
        }
        b.summary = shortSummary(g, b.nodes, 1);
        add(std::move(b));
    };
    v.shutScope = [&](int scope) {
        const Scope& s = tree.scopes[static_cast<std::size_t>(scope)];
        Block b;
        b.nodes = s.nodes;
        b.scope = scope;
        describeBlock(g, b);
        b.title = s.name;
        b.summary = (s.type.empty() ? "" : s.type + "\n") + shortSummary(g, s.nodes, 1);
        add(std::move(b));
    };
    v.rest = [&](int fold, int first, int count) {
        const Fold& f = tree.folds[static_cast<std::size_t>(fold)];
        const auto at = std::find(f.scopes.begin(), f.scopes.end(), first);
        const std::vector<int> scopes(at, at + count);
        Block b;
        for (int s : scopes) {
            const std::vector<int>& nodes = tree.scopes[static_cast<std::size_t>(s)].nodes;
            b.nodes.insert(b.nodes.end(), nodes.begin(), nodes.end());
        }
        std::sort(b.nodes.begin(), b.nodes.end());
        b.scope = first;
        b.restFold = fold;
        b.restCount = count;
        describeBlock(g, b);
        const Scope& one = tree.scopes[static_cast<std::size_t>(first)];
        b.title = foldTitle(tree, scopes);
        b.summary = (one.type.empty() ? "" : one.type + "\n") + "each " + shortSummary(g, one.nodes, 1);
        add(std::move(b));
    };
    v.shutFold = [&](int fold) {
        const Fold& f = tree.folds[static_cast<std::size_t>(fold)];
        Block b;
        b.nodes = f.nodes;
        b.fold = fold;
        b.scope = f.scopes.front();
        describeBlock(g, b);
        const Scope& one = tree.scopes[static_cast<std::size_t>(f.scopes.front())];
        b.title = f.title;
        b.summary = (one.type.empty() ? "" : one.type + "\n") + "each " + shortSummary(g, one.nodes, 1);
        add(std::move(b));
    };
    visit(g, tree, view, 0, v);
    return out;
}

}  // namespace fxray::render
