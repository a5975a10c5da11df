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
    BodyCall call = planBodyCall(g, n, 0, 2, device, "autograd_function_apply's forward body", planSubgraph);
    return nativePlan(std::move(call.operands),
                      "higher_order.autograd_function_apply: self." + call.name + "(*args)[0] (a custom autograd.Function's "
                      "forward; its backward body is autograd's, which the replay does not run)",
                      [forward = call.body](const std::vector<c10::IValue>& v) -> c10::IValue {
                          std::vector<c10::IValue> returned = forward->run(v);
                          if (returned.empty())
                              throw std::invalid_argument("autograd_function_apply's forward body returned nothing");
                          return returned[0];  // ((outputs...), (saved...)): the outputs
                      });
}

}  // namespace fxray::replay::detail
