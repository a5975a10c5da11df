#include "graph/dtensor_global.h"

#include "graph/algorithms.h"
#include "graph/collective_check.h"

namespace fxray::graph {
namespace {

bool isDtensor(const std::optional<ValueMeta>& m)
{
    return m && m->isTensor() && m->tensor.subclass == "DTensor";
}

// The global tensor's annotation: the DTensor's own sizes (global), without the subclass.
ValueMeta globalMeta(const ValueMeta& m)
{
    ValueMeta g = m;
    g.tensor.subclass.clear();
    g.tensor.subclassDetail.clear();
    return g;
}

// Placements that are all Replicate ("R", "RR"): every rank's local tensor is the global one.
bool replicated(const std::string& placements)
{
    return !placements.empty() && placements.find_first_not_of('R') == std::string::npos;
}

int firstNodeArg(const Node& n)
{
    return !n.args.empty() && n.args[0].kind == Arg::Kind::Node ? n.args[0].node : -1;
}

}  // namespace

std::string dtensorPrimName(const Node& n)
{
    if (n.kind != NodeKind::CallFunction || n.target.kind != Target::Kind::Python)
        return "";
    const std::string& f = n.target.op;
    for (const std::string prefix : {"torch__dynamo_variables_torch_prim_", "torch__dynamo_variables_tensor_prim_"}) {
        if (f.rfind(prefix, 0) != 0)
            continue;
        const std::string rest = f.substr(prefix.size());
        for (const std::string prim : {"from_local", "redistribute", "to_local"})
            if (rest == prim || (rest.rfind(prim + "_", 0) == 0 &&
                                 rest.find_first_not_of("0123456789", prim.size() + 1) == std::string::npos))
                return prim;
    }
    return "";
}

DtensorGlobalGraph dtensorGlobalGraph(const Graph& dynamo)
{
    DtensorGlobalGraph out;
    out.graph = dynamo;
    Graph& g = out.graph;
    const auto users = computeUsers(g);
    const auto placeholders = g.placeholders();
    for (const Node& n : g.nodes) {
        out.hasDtensor = out.hasDtensor || isDtensor(n.meta);
        if (n.kind == NodeKind::CallFunction && n.target.kind == Target::Kind::Op && isCollectiveNamespace(n.target.ns))
            out.why = "node " + n.name + " calls " + n.target.str() + " itself: one process has no peers for it";
    }
    // Inputs: a DTensor's placements; a plain input read by from_local is that DTensor's shard, and the global
    // run takes the global tensor in its place.
    out.inputLayouts.assign(placeholders.size(), "");
    std::vector<bool> local(g.nodes.size(), false);  // holds a rank-local value in the recorded run
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        Node& p = g.nodes[static_cast<std::size_t>(placeholders[k])];
        if (isDtensor(p.meta)) {
            out.inputLayouts[k] = p.meta->tensor.subclassDetail;
            continue;
        }
        for (int u : users[static_cast<std::size_t>(placeholders[k])]) {
            const Node& user = g.nodes[static_cast<std::size_t>(u)];
            if (dtensorPrimName(user) == "from_local" && isDtensor(user.meta) && firstNodeArg(user) == placeholders[k]) {
                out.inputLayouts[k] = user.meta->tensor.subclassDetail;
                p.meta = globalMeta(*user.meta);
                break;
            }
        }
    }
    // Program order: a to_local's value is its DTensor's global tensor in the global run; what plain ops make of
    // it until a from_local is rank-local in the record (its annotation unmeetable: dropped).
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder || n.kind == NodeKind::Output)
            continue;
        const std::string prim = dtensorPrimName(n);
        if (prim == "to_local") {
            // A replicated DTensor's local tensor is the global one on every rank: what follows stays global.
            const int src = firstNodeArg(n);
            const bool dtensor = src >= 0 && isDtensor(g.nodes[static_cast<std::size_t>(src)].meta);
            if (dtensor)
                n.meta = globalMeta(*g.nodes[static_cast<std::size_t>(src)].meta);
            local[i] = !dtensor || !replicated(g.nodes[static_cast<std::size_t>(src)].meta->tensor.subclassDetail);
            continue;
        }
        if (prim == "from_local" || isDtensor(n.meta))
            continue;
        bool fromLocal = false;
        forEachNodeRef(n, [&](int r) { fromLocal = fromLocal || local[static_cast<std::size_t>(r)]; });
        if (fromLocal) {
            local[i] = true;
            if (n.meta) {
                n.meta.reset();
                ++out.unchecked;
            }
        }
    }
    const int outNode = g.outputNode();
    if (outNode >= 0) {
        const Node& o = g.nodes[static_cast<std::size_t>(outNode)];
        std::vector<int> flat;
        for (const Arg& a : o.args)
            forEachNodeRef(a, [&](int r) { flat.push_back(r); });
        for (int r : flat) {
            const Node& n = dynamo.nodes[static_cast<std::size_t>(r)];
            if (isDtensor(n.meta))
                out.outputLayouts.emplace_back(n.meta->tensor.subclassDetail);
            else if (dtensorPrimName(n) == "to_local" && firstNodeArg(n) >= 0 &&
                     isDtensor(dynamo.nodes[static_cast<std::size_t>(firstNodeArg(n))].meta))
                out.outputLayouts.emplace_back(dynamo.nodes[static_cast<std::size_t>(firstNodeArg(n))].meta->tensor.subclassDetail);
            else if (local[static_cast<std::size_t>(r)])
                out.outputLayouts.emplace_back(std::nullopt);
            else
                out.outputLayouts.emplace_back("");
        }
    }
    return out;
}

}  // namespace fxray::graph
