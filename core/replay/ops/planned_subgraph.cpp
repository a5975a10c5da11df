#include "replay/ops/planned_subgraph.h"

#include "graph/printer.h"
#include "replay/plan/plan_builders.h"
#include "replay/plan/python_values.h"

#include <stdexcept>

namespace fxray::replay::detail {

using graph::Arg;

namespace {

// A returned item as the subgraph's caller receives it: a node's value, a nested tuple or list of them as a tuple
// (autograd_function_apply's forward body returns ((outputs...), (saved...))), a literal, or None.
c10::IValue returnedValue(const Arg& a, const std::vector<c10::IValue>& values)
{
    switch (a.kind) {
    case Arg::Kind::Node: return values[static_cast<std::size_t>(a.node)];
    case Arg::Kind::Tuple:
    case Arg::Kind::List: {
        std::vector<c10::IValue> items;
        for (const Arg& item : a.items)
            items.push_back(returnedValue(item, values));
        return c10::ivalue::Tuple::create(std::move(items));
    }
    case Arg::Kind::Int: return a.i;
    case Arg::Kind::Float: return a.f;
    case Arg::Kind::Bool: return a.b;
    default: return {};
    }
}

}  // namespace

std::vector<c10::IValue> PlannedSubgraph::run(const std::vector<c10::IValue>& inputs) const
{
    std::vector<c10::IValue> values(graph->nodes.size());
    std::size_t next = 0;
    auto operands = [&](const NodePlan& p) {
        std::vector<c10::IValue> out;
        for (const ArgPlan& a : p.args)
            out.push_back(assembleArg(a, values));
        return out;
    };
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const NodePlan& p = plans[i];
        const graph::Node& node = graph->nodes[i];
        switch (p.kind) {
        case NodePlan::Kind::Input:
            if (next >= inputs.size())
                throw std::invalid_argument("subgraph takes more inputs than its caller passes");
            values[i] = inputs[next++];
            break;
        case NodePlan::Kind::Op:
        case NodePlan::Kind::Native: values[i] = runPlanned(p, operands(p)); break;
        case NodePlan::Kind::Operator:
        case NodePlan::Kind::SymFloat: values[i] = applyOperator(p.name, operands(p)); break;
        case NodePlan::Kind::Getitem:
            values[i] = getItem(assembleArg(p.args[0], values), p.args[1].constant.toInt());
            break;
        case NodePlan::Kind::Output: {
            std::vector<c10::IValue> out;
            if (!node.args.empty()) {
                const Arg& a = node.args[0];
                const std::vector<Arg> items = a.kind == Arg::Kind::Node ? std::vector<Arg>{a} : a.items;
                for (const Arg& item : items)
                    out.push_back(returnedValue(item, values));
            }
            return out;
        }
        default:
            throw std::invalid_argument("subgraph node '" + node.name + "' cannot run inside a higher-order op: " +
                                        (p.why.empty() ? "not an op" : p.why));
        }
    }
    throw std::invalid_argument("subgraph has no output");
}

const graph::Subgraph* subgraphNamed(const graph::Graph& g, const std::string& name)
{
    for (const graph::Subgraph& s : g.subgraphs)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::shared_ptr<PlannedSubgraph> planNamedSubgraph(const graph::Graph& g, const Arg& a, const c10::Device& device,
                                                   const std::string& who, const SubgraphPlanner& planSubgraph)
{
    if (a.kind != Arg::Kind::Node || g.nodes[static_cast<std::size_t>(a.node)].kind != graph::NodeKind::GetAttr)
        throw std::invalid_argument(who + " must be a subgraph (get_attr), got " + graph::formatArg(g, a));
    const std::string& name = g.nodes[static_cast<std::size_t>(a.node)].attr;
    const graph::Subgraph* s = subgraphNamed(g, name);
    if (!s)
        throw std::invalid_argument(who + " self." + name + " is not in the graph's text (a dump without .readable.py: "
                                    "to_folder pickled it as " + name + ".pt, which fxray does not read)");
    auto p = std::make_shared<PlannedSubgraph>();
    p->graph = &s->graph;
    p->plans = planSubgraph(s->graph, device);
    for (std::size_t i = 0; i < p->plans.size(); ++i)
        if (p->plans[i].kind == NodePlan::Kind::Unsupported)
            throw std::invalid_argument(who + " self." + name + ": node '" + s->graph.nodes[i].name + "': " + p->plans[i].why);
    return p;
}

BodyCall planBodyCall(const graph::Graph& g, const graph::Node& n, std::size_t body, std::size_t firstOperand,
                      const c10::Device& device, const std::string& who, const SubgraphPlanner& planSubgraph)
{
    BodyCall call;
    call.body = planNamedSubgraph(g, n.args[body], device, who, planSubgraph);
    for (std::size_t i = firstOperand; i < n.args.size(); ++i)
        call.operands.push_back(operandArg(g, n.args[i], device));
    call.name = g.nodes[static_cast<std::size_t>(n.args[body].node)].attr;
    return call;
}

}  // namespace fxray::replay::detail
