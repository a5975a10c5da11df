#pragma once
// Internal to core/replay (includes LibTorch). Plans the nodes of dynamo-level graphs (dynamo_output_graph,
// before/after_pre_grad_graph): torch functions (torch.X, torch.nn.functional.X, torch._C._nn.X), Tensor
// methods (x.view(2, 3), self first), Python operators and indexing on tensors, getattr(x, 'shape'). Each
// resolves to an aten overload through LibTorch's own schemas (torch_level_overloads.h) or to a native step
// with no aten twin (torch_level_natives.h); what resolves to neither is Unsupported with the reason, before
// the replay starts.
#include "graph/graph.h"
#include "replay/plan/node_plan.h"
#include "replay/ops/random_ops.h"
#include "replay/ops/torch_level_autocast.h"
#include "replay/ops/torch_level_overloads.h"
#include "replay/ops/torch_level_sdpa_backends.h"

#include <c10/core/Device.h>

#include <map>
#include <optional>
#include <vector>

namespace fxray::replay::detail {

class TorchLevelPlanner {
public:
    // dtensorGlobal: DTensor's dynamo prims run as identities (PlanOptions::dtensorGlobal).
    // `rng`, when given: random calls take their aligned draws (stage compare) before an autocast region wraps them,
    // which hides the op from alignedRandomPlan (ViT's drop_path and BART's dropout under bf16 autocast drew from the
    // global generator, and the dynamo stage diverged from the AOT one).
    TorchLevelPlanner(const graph::Graph& g, const c10::Device& device, bool dtensorGlobal = false, RngPlan* rng = nullptr)
        : m_graph(g), m_device(device), m_ambient(ambientAutocast(g, device)), m_dtensorGlobal(dtensorGlobal), m_rng(rng)
    {
    }

    // The plan of node i when it is a torch-level node; std::nullopt when it is planned elsewhere (aten ops,
    // SymInt arithmetic, tuple getitem, compiled-autograd helpers). `earlier` holds the plans of nodes 0..i-1:
    // call it for every node in order.
    std::optional<NodePlan> plan(std::size_t i, const std::vector<NodePlan>& earlier);

private:
    std::optional<NodePlan> claim(const graph::Node& n);
    void finish(const graph::Node& n, NodePlan& p);
    void learnKinds(const std::vector<NodePlan>& earlier);
    ValueKind kindOf(int node) const;
    bool involvesTensor(const graph::Node& n) const;
    NodePlan planMethod(const graph::Node& n);
    NodePlan planPythonCall(const graph::Node& n);
    NodePlan planFunctional(const graph::Node& n, const std::string& name);
    NodePlan planGetattr(const graph::Node& n);
    NodePlan planOperator(const graph::Node& n);
    NodePlan planDunder(const graph::Node& n, const std::string& name);
    NodePlan planConversion(const graph::Node& n, const std::string& method);
    NodePlan resolve(const graph::Node& n, const TorchCall& call);

    const graph::Graph& m_graph;
    c10::Device m_device;
    std::size_t m_current = 0;                // the node being planned
    std::vector<ValueKind> m_kinds;           // what nodes 0..i-1 produce
    std::map<std::size_t, ValueKind> m_native;  // what the native steps planned here produce
    std::optional<AutocastRegion> m_ambient;  // torch.autocast entered outside the graph, if the dtypes show one
    bool m_dtensorGlobal = false;
    RngPlan* m_rng = nullptr;  // stage compare's aligned draws; null in a plain replay
    std::vector<AutocastRegion> m_autocast;   // the autocast regions open at the node being planned
    std::optional<SdpaBackends> m_sdpaBackends;  // the sdpa_kernel region open at the node being planned
};

}  // namespace fxray::replay::detail
