#include "replay/ops/inductor_lowerings.h"

#include "graph/node_namer.h"
#include "graph/printer.h"
#include "replay/plan/plan_builders.h"

#include <ATen/ATen.h>

#include <map>
#include <stdexcept>
#include <string_view>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

constexpr std::string_view kPrefix = "torch__inductor_fx_passes_";

// The handler's parameter `name` (after `match`): a keyword, else the positional argument at `position`.
const Arg& parameter(const graph::Node& n, const char* name, std::size_t position)
{
    for (const auto& [k, a] : n.kwargs)
        if (k == name)
            return a;
    if (position < n.args.size())
        return n.args[position];
    throw std::invalid_argument("inductor lowering " + n.target.str() + "() at node " + n.name + " has no argument '" +
                                name + "'");
}

NodePlan mmPlusMm(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    std::vector<ArgPlan> args;
    for (std::size_t i = 0; i < 4; ++i) {
        const std::string name = "mat" + std::to_string(i + 1);
        args.push_back(operandArg(g, parameter(n, name.c_str(), i), device));
    }
    return nativePlan(std::move(args),
                      "inductor lowering mm_plus_mm(mat1, mat2, mat3, mat4): mm(mat1, mat2) + mm(mat3, mat4), the "
                      "aten ops it replaced (inductor fuses them into one GEMM kernel)",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return at::mm(v[0].toTensor(), v[1].toTensor()) + at::mm(v[2].toTensor(), v[3].toTensor());
                      });
}

// cat_slice_cat(cat_input, size, dim=1): the two cats it folded, cat([c, c[:, 0:size]], 1) with c = cat(cat_input, 1).
NodePlan catSliceCat(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    const Arg& inputs = parameter(n, "cat_input", 0);
    if (inputs.kind != Arg::Kind::List && inputs.kind != Arg::Kind::Tuple)
        throw std::invalid_argument("inductor lowering cat_slice_cat takes a list of tensors, not " + graph::formatArg(g, inputs));
    std::vector<ArgPlan> args{operandArg(g, parameter(n, "size", 1), device)};
    for (const Arg& item : inputs.items)
        args.push_back(operandArg(g, item, device));
    return nativePlan(std::move(args),
                      "inductor lowering cat_slice_cat(cat_input, size): c = cat(cat_input, 1); cat([c, c[:, 0:size]], 1)",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          std::vector<at::Tensor> parts;
                          for (std::size_t i = 1; i < v.size(); ++i)
                              parts.push_back(v[i].toTensor());
                          const at::Tensor c = at::cat(parts, 1);
                          return at::cat({c, c.slice(1, 0, v[0].toInt())}, 1);
                      });
}

// split_with_sizes(cat(xs)) into the same sizes is xs; cat(split_with_sizes(x)) back in order is x.
NodePlan splitCatCancellation(const graph::Graph& g, const graph::Node& n, const c10::Device& device)
{
    const Arg& input = parameter(n, "input_", 0);
    std::vector<ArgPlan> args;
    const bool list = input.kind == Arg::Kind::List || input.kind == Arg::Kind::Tuple;
    for (const Arg& item : list ? input.items : std::vector<Arg>{input})
        args.push_back(operandArg(g, item, device));
    const std::string name = n.target.op.substr(kPrefix.size() + std::string_view("post_grad_").size());
    return nativePlan(std::move(args), "inductor lowering " + name + "(input_): returns input_, the split and cat it "
                      "removed cancel out",
                      [list](const std::vector<c10::IValue>& v) -> c10::IValue {
                          if (!list)
                              return v[0];
                          std::vector<at::Tensor> items;
                          for (const auto& x : v)
                              items.push_back(x.toTensor());
                          return c10::List<at::Tensor>(items);
                      });
}

using LoweringPlanner = NodePlan (*)(const graph::Graph&, const graph::Node&, const c10::Device&);

const std::map<std::string, LoweringPlanner, std::less<>>& loweringHandlers()
{
    static const std::map<std::string, LoweringPlanner, std::less<>> kHandlers = {
        {"post_grad_mm_plus_mm", mmPlusMm},
        {"post_grad_cat_slice_cat", catSliceCat},
        {"post_grad_splitwithsizes_cat_replace", splitCatCancellation},
        {"post_grad_cat_splitwithsizes_replace", splitCatCancellation},
    };
    return kHandlers;
}

}  // namespace

std::optional<NodePlan> planInductorLowering(const graph::Graph& g, const graph::Node& n, const std::string& function,
                                             const c10::Device& device)
{
    if (!function.starts_with(kPrefix))
        return std::nullopt;
    const std::string handler = function.substr(kPrefix.size());
    auto it = loweringHandlers().find(handler);
    if (auto base = graph::withoutFxSuffix(handler); it == loweringHandlers().end() && base)
        it = loweringHandlers().find(*base);  // FX's name for a second call of the same handler
    if (it == loweringHandlers().end())
        throw std::invalid_argument("inductor lowering handler " + function + "() is Python that fxray does not run "
                                    "(it runs mm_plus_mm, cat_slice_cat and the split/cat cancellations)");
    return it->second(g, n, device);
}

}  // namespace fxray::replay::detail
