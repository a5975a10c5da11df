#include "replay/ops/checkpoint_hop.h"

#include "replay/plan/plan_builders.h"

#include <ATen/core/ivalue.h>

#include <stdexcept>

namespace fxray::replay::detail {

std::optional<NodePlan> planCheckpointHop(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                          const SubgraphPlanner& planSubgraph)
{
    if (!n.isOp() || n.target.ns != "higher_order" || n.target.op != "tag_activation_checkpoint")
        return std::nullopt;
    if (n.args.empty())
        throw std::invalid_argument("tag_activation_checkpoint without its body");
    BodyCall call = planBodyCall(g, n, 0, 1, device, "tag_activation_checkpoint's body", planSubgraph);
    return nativePlan(std::move(call.operands),
                      "higher_order.tag_activation_checkpoint: self." + call.name + "(*operands) (checkpointing only "
                      "decides what autograd saves; the replay runs the body once)",
                      [body = call.body](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return c10::ivalue::Tuple::create(body->run(v));
                      });
}

}  // namespace fxray::replay::detail
