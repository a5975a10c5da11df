#include "replay/engine/graph_plan.h"

#include "graph/printer.h"
#include "replay/ops/autograd_function_hop.h"
#include "replay/ops/checkpoint_hop.h"
#include "replay/ops/compiled_autograd_ops.h"
#include "replay/ops/flex_attention_op.h"
#include "replay/ops/fsdp_ops.h"
#include "replay/ops/numpy_random_ops.h"
#include "replay/ops/random_ops.h"
#include "replay/ops/auto_functionalized_ops.h"
#include "replay/ops/rng_state_ops.h"
#include "replay/ops/stream_ops.h"
#include "replay/ops/torch_level.h"
#include "replay/ops/transformers_ops.h"
#include "replay/plan/op_plan.h"
#include "replay/plan/plan_builders.h"

#include <stdexcept>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// A planning failure for one node; becomes NodePlan::Kind::Unsupported with this message.
struct PlanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

ArgPlan planLoose(const graph::Graph& g, const graph::Arg& a)
{
    // Python-level ops take plain values: constants or node values.
    if (a.kind == Arg::Kind::Node)
        return valueArg(a.node);
    switch (a.kind) {
    case Arg::Kind::Int: return constantArg(a.i);
    case Arg::Kind::Float: return constantArg(a.f);
    case Arg::Kind::Bool: return constantArg(a.b);
    case Arg::Kind::None: return constantArg(c10::IValue());
    default: throw PlanError("unsupported operand " + graph::formatArg(g, a));
    }
}

// The op families' planners say what does not fit with std::invalid_argument; for the graph that is the node's
// PlanError (the node is unsupported, with that reason).
template <class Plan>
auto asPlanError(Plan&& plan) -> decltype(plan())
{
    try {
        return plan();
    } catch (const std::invalid_argument& e) {
        throw PlanError(e.what());
    }
}

// flex_attention's score/mask functions: graphs of their own, planned with the default options.
std::vector<NodePlan> planSubgraph(const graph::Graph& g, const c10::Device& device)
{
    return planGraph(g, device);
}

}  // namespace

// Every node of `g`, random ones taking their draws from `rng` (shared with the graph around a checkpointed body).
static std::vector<NodePlan> planNodes(const graph::Graph& g, const c10::Device& device, const PlanOptions& options, RngPlan& rng)
{
    std::vector<NodePlan> plans;
    plans.reserve(g.nodes.size());
    // dynamo-level nodes: torch functions, Tensor methods, indexing; their random calls aligned by the planner itself
    TorchLevelPlanner torchLevel(g, device, options.dtensorGlobal, &rng);
    // A checkpointed body runs where it is called, as AOTAutograd inlines it: same options, and its random calls
    // take the next draws of the graph around it (stage compare's aligned RNG lines them up with the AOT graph's).
    const SubgraphPlanner inlineBody = [&](const graph::Graph& body, const c10::Device& d) {
        return planNodes(body, d, options, rng);
    };
    for (const graph::Node& n : g.nodes) {
        try {  // np.random through dynamo's wrappers: before the torch-level planner, which calls them Python
            if (auto np = planNumpyRandomCall(g, n, device, rng)) {
                plans.push_back(std::move(*np));
                continue;
            }
        } catch (const std::invalid_argument& e) {
            NodePlan p;
            p.name = n.target.str();
            p.why = e.what();
            plans.push_back(std::move(p));
            continue;
        }
        if (auto stream = planStreamStep(g, n)) {  // CUDA streams and events: ordered already on one stream
            stream->name = n.target.str();
            plans.push_back(std::move(*stream));
            continue;
        }
        if (auto tl = torchLevel.plan(plans.size(), plans)) {
            plans.push_back(std::move(*tl));
            continue;
        }
        NodePlan p;
        p.name = n.target.str();
        try {
            switch (n.kind) {
            case graph::NodeKind::Placeholder: p.kind = NodePlan::Kind::Input; break;
            case graph::NodeKind::Output: p.kind = NodePlan::Kind::Output; break;
            case graph::NodeKind::GetAttr:
                if (auto sub = planSubgraphAttr(g, n))
                    p = std::move(*sub);
                else
                    p.kind = NodePlan::Kind::Constant;
                break;
            case graph::NodeKind::CallMethod:
                p.why = "method call ." + n.target.op + "() belongs to a dynamo-level graph (needs Python)";
                break;
            case graph::NodeKind::CallFunction:
                switch (n.target.kind) {
                case graph::Target::Kind::Op:
                    if (n.target.ns == "higher_order" && n.target.op == "tag_activation_checkpoint") {
                        p = asPlanError([&] { return *planCheckpointHop(g, n, device, inlineBody); });
                        break;
                    }
                    if (n.target.ns == "higher_order" && n.target.op == "autograd_function_apply") {
                        p = asPlanError([&] { return *planAutogradFunctionApply(g, n, device, inlineBody); });
                        break;
                    }
                    if (n.target.ns == "higher_order" && n.target.op == "flex_attention") {
                        p = asPlanError([&] { return *planFlexAttention(g, n, device, planSubgraph); });
                        break;
                    }
                    if (n.target.ns == "higher_order" && n.target.op == "flex_attention_backward") {
                        p = asPlanError([&] { return *planFlexAttentionBackward(g, n, device, planSubgraph); });
                        break;
                    }
                    if (isAutoFunctionalized(n)) {
                        p = asPlanError([&] { return planAutoFunctionalized(g, n, device); });
                        break;
                    }
                    if (isRngStateOp(n)) {
                        p = asPlanError([&] { return *planRngStateOp(g, n, device, rng); });
                        break;
                    }
                    if (n.target.ns == "prims" && n.target.op.starts_with("inductor_")) {
                        if (auto r = asPlanError([&] { return planInductorRandomPrim(g, n, device, rng); })) {
                            p = std::move(*r);
                            break;
                        }
                    }
                    if (options.viewAsReshape && n.target.ns == "aten" && n.target.op == "view" && n.target.overload == "default") {
                        graph::Node reshape = n;
                        reshape.target.op = "reshape";
                        p = planOpNode(g, reshape, device);
                    } else {
                        p = planOpNode(g, n, device);
                    }
                    break;
                case graph::Target::Kind::Getitem:
                    if (n.args.size() != 2 || n.args[1].kind != Arg::Kind::Int)
                        throw PlanError("getitem needs a value and an int index");
                    p.kind = NodePlan::Kind::Getitem;
                    p.args = {planLoose(g, n.args[0]), constantArg(n.args[1].i)};
                    break;
                case graph::Target::Kind::Operator:
                    // Python arithmetic on tensors (a hook dynamo inlined: `g * 0.5`) is torch-level code; the
                    // interpreter's operators are the SymInt/float ones.
                    if (n.meta && n.meta->isTensor()) {
                        p.why = "python operator." + n.target.op + " on tensors belongs to a dynamo-level graph (needs Python)";
                        break;
                    }
                    p.kind = NodePlan::Kind::Operator;
                    p.name = n.target.op;
                    for (const Arg& a : n.args)
                        p.args.push_back(planLoose(g, a));
                    break;
                case graph::Target::Kind::Python: {
                    const std::string& f = n.target.op;
                    if (f == "torch.sym_float" || f == "torch.sym_int" || f == "torch.sym_max" || f == "torch.sym_min" ||
                        f == "torch.sym_not") {
                        p.kind = NodePlan::Kind::SymFloat;
                        p.name = f.substr(6);
                        for (const Arg& a : n.args)
                            p.args.push_back(planLoose(g, a));
                    } else if (auto ca = planCompiledAutogradCall(g, n, device)) {
                        p = std::move(*ca);
                    } else {
                        p.why = "python call " + f + "() needs Python";
                    }
                    break;
                }
                default: p.why = "unsupported target"; break;
                }
                break;
            }
        } catch (const PlanError& e) {
            p.kind = NodePlan::Kind::Unsupported;
            p.args.clear();
            p.why = e.what();
        }
        if (auto aligned = alignedRandomPlan(p, rng))
            p = std::move(*aligned);
        plans.push_back(std::move(p));
    }
    return plans;
}

std::vector<NodePlan> planGraph(const graph::Graph& g, const c10::Device& device, const PlanOptions& options)
{
    registerFsdpOps();
    registerTransformersOps();
    RngPlan rng{options.alignedRng, options.rngSeed};
    return planNodes(g, device, options, rng);
}

}  // namespace fxray::replay::detail
