#include "replay/ops/autograd_function_hop.h"

#include "replay/plan/plan_builders.h"

#include <stdexcept>

namespace fxray::replay::detail {

std::optional<NodePlan> planAutogradFunctionApply(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                                  const SubgraphPlanner& planSubgraph)
{
    if (!n.isOp() || n.target.ns != "higher_order" || n.target.op != "autograd_function_apply")
        return std::nullopt;
    if (n.args.size() < 2)
        throw std::invalid_argument("autograd_function_apply without its forward and backward bodies");
    auto forward = planNamedSubgraph(g, n.args[0], device, "autograd_function_apply's forward body", planSubgraph);
    std::vector<ArgPlan> operands;
    for (std::size_t i = 2; i < n.args.size(); ++i)
        operands.push_back(operandArg(g, n.args[i], device));
    const std::string name = g.nodes[static_cast<std::size_t>(n.args[0].node)].attr;
    return nativePlan(std::move(operands),
                      "higher_order.autograd_function_apply: self." + name + "(*args)[0] (a custom autograd.Function's "
                      "forward; its backward body is autograd's, which the replay does not run)",
                      [forward](const std::vector<c10::IValue>& v) -> c10::IValue {
                          std::vector<c10::IValue> returned = forward->run(v);
                          if (returned.empty())
                              throw std::invalid_argument("autograd_function_apply's forward body returned nothing");
                          return returned[0];  // ((outputs...), (saved...)): the outputs
                      });
}

}  // namespace fxray::replay::detail
