#include "replay/ops/vmap_ops.h"

#include "graph/printer.h"
#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>
#if FXRAY_HAVE_FUNCTORCH
#include <ATen/functorch/BatchedTensorImpl.h>
#include <ATen/functorch/DynamicLayer.h>
#endif

#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// "torch._functorch.predispatch._add_batch_dim" / "torch._C._functorch._add_batch_dim" -> "_add_batch_dim".
std::string vmapCallName(const graph::Node& n)
{
    if (n.kind != graph::NodeKind::CallFunction || n.target.kind != graph::Target::Kind::Python)
        return "";
    for (std::string_view prefix : {"torch._functorch.predispatch.", "torch._C._functorch."}) {
        if (!n.target.op.starts_with(prefix))
            continue;
        const std::string name = n.target.op.substr(prefix.size());
        for (std::string_view f : {"lazy_load_decompositions", "_vmap_increment_nesting", "_vmap_decrement_nesting",
                                   "_add_batch_dim", "_remove_batch_dim"})
            if (name == f)
                return name;
    }
    return "";
}

#if FXRAY_HAVE_FUNCTORCH
ArgPlan operand(const graph::Graph& g, const graph::Node& n, std::size_t k)
{
    if (k >= n.args.size())
        throw std::invalid_argument(n.target.op + " expects at least " + std::to_string(k + 1) + " positional arguments");
    return operandArg(g, n.args[k], c10::Device(c10::kCPU));  // ints and node values only
}

at::functorch::RandomnessType randomness(const std::string& s)
{
    if (s == "error")
        return at::functorch::RandomnessType::Error;
    if (s == "same")
        return at::functorch::RandomnessType::Same;
    if (s == "different")
        return at::functorch::RandomnessType::Different;
    throw std::invalid_argument("vmap randomness '" + s + "' (expected error, same or different)");
}

// torch/csrc/functorch/init.cpp's removeBatchDim: a value not batched at `level` is expanded along out_dim; a
// batched one gives back its physical value with the batch dim moved to out_dim.
at::Tensor removeBatchDim(const at::Tensor& self, std::int64_t level, std::int64_t batchSize, std::int64_t outDim)
{
    const auto* batched = at::functorch::maybeGetBatchedImpl(self);
    if (!batched || batched->level() < level) {
        std::vector<std::int64_t> sizes = self.sizes().vec();
        sizes.insert(sizes.begin() + outDim, batchSize);
        return self.expand(sizes);
    }
    if (batched->level() != level)
        throw std::invalid_argument("_remove_batch_dim of level " + std::to_string(level) + " on a value batched at level " +
                                    std::to_string(batched->level()));
    return batched->value().movedim(batched->bdim(), outDim);
}

NodePlan planFunctorch(const graph::Graph& g, const graph::Node& n, const std::string& f)
{
    if (f == "lazy_load_decompositions")
        return nativePlan({}, "torch._functorch's decomposition table load (nothing to run here)",
                          [](const std::vector<c10::IValue>&) { return c10::IValue(); });
    if (f == "_vmap_increment_nesting") {
        if (n.args.size() != 2 || n.args[1].kind != Arg::Kind::String)
            throw std::invalid_argument("_vmap_increment_nesting(batch_size, randomness) takes 2 positional arguments");
        const at::functorch::RandomnessType r = randomness(n.args[1].s);
        return nativePlan({operand(g, n, 0)}, "at::functorch::initAndPushDynamicLayer(Vmap, batch_size, randomness): a vmap level",
                          [r](const std::vector<c10::IValue>& v) -> c10::IValue {
                              return at::functorch::initAndPushDynamicLayer(at::functorch::TransformType::Vmap,
                                                                            c10::SymInt(v[0].toInt()), r);
                          });
    }
    if (f == "_vmap_decrement_nesting")
        return nativePlan({}, "at::functorch::popDynamicLayerAndDeleteMetadata(): leaves the innermost vmap level",
                          [](const std::vector<c10::IValue>&) -> c10::IValue {
                              return at::functorch::popDynamicLayerAndDeleteMetadata().layerId();
                          });
    if (f == "_add_batch_dim")
        return nativePlan({operand(g, n, 0), operand(g, n, 1), operand(g, n, 2)},
                          "at::functorch::addBatchDim(x, in_dim, level): x seen per example at that vmap level",
                          [](const std::vector<c10::IValue>& v) -> c10::IValue {
                              return at::functorch::addBatchDim(v[0].toTensor(), v[1].toInt(), v[2].toInt());
                          });
    return nativePlan({operand(g, n, 0), operand(g, n, 1), operand(g, n, 2), operand(g, n, 3)},
                      "_remove_batch_dim(y, level, batch_size, out_dim): the batched value with its batch dim at out_dim",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return removeBatchDim(v[0].toTensor(), v[1].toInt(), v[2].toInt(), v[3].toInt());
                      });
}
#endif

}  // namespace

std::optional<NodePlan> planVmapCall(const graph::Graph& g, const graph::Node& n)
{
    const std::string f = vmapCallName(n);
    if (f.empty())
        return std::nullopt;
#if FXRAY_HAVE_FUNCTORCH
    return planFunctorch(g, n, f);
#else
    (void)g;
    throw std::invalid_argument("vmap (" + f + ") runs on LibTorch's functorch, whose headers this build did not have "
                                "(they need nlohmann/json.hpp: Debian's nlohmann-json3-dev)");
#endif
}

bool isVmapBatched(const at::Tensor& t)
{
#if FXRAY_HAVE_FUNCTORCH
    return at::functorch::isBatchedTensor(t);
#else
    (void)t;
    return false;
#endif
}

at::Tensor vmapPhysical(const at::Tensor& t)
{
#if FXRAY_HAVE_FUNCTORCH
    at::Tensor x = t;
    while (const auto* b = at::functorch::maybeGetBatchedImpl(x))
        x = b->value();
    return x;
#else
    return t;
#endif
}

int popLeftoverVmapLevels()
{
    int popped = 0;
#if FXRAY_HAVE_FUNCTORCH
    while (at::functorch::maybeCurrentDynamicLayer()) {
        at::functorch::popDynamicLayerAndDeleteMetadata();
        ++popped;
    }
#endif
    return popped;
}

}  // namespace fxray::replay::detail
