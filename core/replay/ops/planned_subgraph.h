#pragma once
// Internal to core/replay (includes LibTorch). The subgraphs higher-order ops call (flex_attention's score and mask
// functions, activation checkpointing's wrapped bodies): read from the graph's text (a dump's or a TORCH_TRACE
// record's nested classes), planned like a whole graph by the graph planner (engine/graph_plan.h hands itself in as
// the SubgraphPlanner: this room sits below it) and run on given values, node by node, unchecked: their outputs are
// checked where the higher-order op's are.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// Plans a subgraph as a whole graph (planGraph with default options).
using SubgraphPlanner = std::function<std::vector<NodePlan>(const graph::Graph&, const c10::Device&)>;

struct PlannedSubgraph {
    const graph::Graph* graph = nullptr;
    std::vector<NodePlan> plans;

    // The subgraph's outputs for `inputs` (one per placeholder). Throws std::invalid_argument for a node it cannot
    // run, fxray::Error or c10::Error from what it runs.
    std::vector<c10::IValue> run(const std::vector<c10::IValue>& inputs) const;
};

const graph::Subgraph* subgraphNamed(const graph::Graph& g, const std::string& name);

// The subgraph that argument `a` names (a get_attr node reading self.<name>), planned; throws
// std::invalid_argument starting with `who` when it is none, is not in the text, or holds a node that cannot run.
std::shared_ptr<PlannedSubgraph> planNamedSubgraph(const graph::Graph& g, const graph::Arg& a, const c10::Device& device,
                                                   const std::string& who, const SubgraphPlanner& planSubgraph);

// A higher-order op that calls a body where it stands (activation checkpointing, a custom autograd.Function): the
// subgraph n.args[body] names, planned, and n.args[firstOperand...] as the operands it is called with.
struct BodyCall {
    std::shared_ptr<PlannedSubgraph> body;
    std::vector<ArgPlan> operands;
    std::string name;  // the subgraph's attribute (self.<name>)
};
BodyCall planBodyCall(const graph::Graph& g, const graph::Node& n, std::size_t body, std::size_t firstOperand,
                      const c10::Device& device, const std::string& who, const SubgraphPlanner& planSubgraph);

}  // namespace fxray::replay::detail
