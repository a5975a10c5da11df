#include "replay/inputs/norm_statistics.h"

#include <ATen/ATen.h>

#include <map>
#include <optional>
#include <set>

namespace fxray::replay::detail {
namespace {

using graph::Arg;
using graph::Node;

class Aligner {
public:
    Aligner(const graph::Graph& g, std::vector<c10::IValue>& inputs) : m_g(g), m_inputs(inputs)
    {
        const std::vector<int> placeholders = g.placeholders();
        for (std::size_t k = 0; k < placeholders.size() && k < inputs.size(); ++k)
            m_slot[placeholders[k]] = k;
    }

    std::vector<std::string> run()
    {
        for (const Node& n : m_g.nodes) {
            if (!n.isOp() || n.target.ns != "aten")
                continue;
            if (n.target.op == "native_batch_norm_backward")
                batchNorm(n);
            else if (n.target.op == "native_layer_norm_backward")
                layerNorm(n);
            else if (n.target.op == "native_group_norm_backward")
                groupNorm(n);
        }
        return std::move(m_lines);
    }

private:
    // The generated tensor behind argument `pos` of `n`, when that argument is a graph input holding a tensor.
    std::optional<at::Tensor> input(const Node& n, std::size_t pos) const
    {
        if (pos >= n.args.size() || n.args[pos].kind != Arg::Kind::Node)
            return std::nullopt;
        auto it = m_slot.find(n.args[pos].node);
        if (it == m_slot.end() || !m_inputs[it->second].isTensor())
            return std::nullopt;
        return m_inputs[it->second].toTensor();
    }

    std::string name(const Node& n, std::size_t pos) const
    {
        return m_g.nodes[static_cast<std::size_t>(n.args[pos].node)].name;
    }

    // mean and 1/sqrt(var + eps) of x over `dims`, written into the statistics' own tensors (their dtype, layout).
    void write(const Node& n, const at::Tensor& x, at::IntArrayRef dims, std::size_t meanPos, std::size_t rstdPos, double eps,
               const char* what)
    {
        auto mean = input(n, meanPos);
        auto rstd = input(n, rstdPos);
        if (!mean || !rstd || m_done.contains(n.args[meanPos].node) || m_done.contains(n.args[rstdPos].node))
            return;
        const at::Tensor xf = x.to(at::kFloat);
        const at::Tensor m = xf.mean(dims);
        const at::Tensor r = (xf.var(dims, /*unbiased=*/false) + eps).rsqrt();
        if (m.numel() != mean->numel() || r.numel() != rstd->numel())
            return;  // not the layout this rule knows: leave the generated values
        mean->copy_(m.reshape(mean->sizes()));
        rstd->copy_(r.reshape(rstd->sizes()));
        m_done.insert(n.args[meanPos].node);
        m_done.insert(n.args[rstdPos].node);
        m_lines.push_back(name(n, meanPos) + ", " + name(n, rstdPos) + " = the " + what + " mean and 1/sqrt(var + eps) of " +
                          name(n, 1) + " (" + n.name + " reads them as its forward computed them)");
    }

    // (grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, mask)
    void batchNorm(const Node& n)
    {
        auto x = input(n, 1);
        if (!x || x->dim() < 2 || n.args.size() < 9 || n.args[7].kind != Arg::Kind::Bool || !n.args[7].b)
            return;  // outside training the kernel reads the running statistics, which need no such relation
        std::vector<std::int64_t> dims{0};
        for (std::int64_t d = 2; d < x->dim(); ++d)
            dims.push_back(d);
        write(n, *x, dims, 5, 6, number(n.args[8], 1e-5), "per-channel");
    }

    // (grad_out, input, normalized_shape, mean, rstd, weight, bias, mask): eps is not an argument; 1e-5, the default
    void layerNorm(const Node& n)
    {
        auto x = input(n, 1);
        if (!x || n.args.size() < 5 || n.args[2].kind != Arg::Kind::List)
            return;
        const auto normalized = static_cast<std::int64_t>(n.args[2].items.size());
        if (normalized < 1 || normalized > x->dim())
            return;
        std::vector<std::int64_t> dims;
        for (std::int64_t d = x->dim() - normalized; d < x->dim(); ++d)
            dims.push_back(d);
        write(n, *x, dims, 3, 4, 1e-5, "per-row");
    }

    // (grad_out, input, mean, rstd, weight, N, C, HxW, group, mask): statistics [N, group]
    void groupNorm(const Node& n)
    {
        auto x = input(n, 1);
        if (!x || n.args.size() < 9 || n.args[8].kind != Arg::Kind::Int || n.args[8].i < 1 || x->numel() == 0)
            return;
        const std::int64_t groups = n.args[8].i;
        const std::int64_t batch = x->size(0);
        write(n, x->reshape({batch, groups, -1}), {2}, 2, 3, 1e-5, "per-group");
    }

    static double number(const Arg& a, double otherwise)
    {
        return a.kind == Arg::Kind::Float ? a.f : a.kind == Arg::Kind::Int ? static_cast<double>(a.i) : otherwise;
    }

    const graph::Graph& m_g;
    std::vector<c10::IValue>& m_inputs;
    std::map<int, std::size_t> m_slot;
    std::set<int> m_done;
    std::vector<std::string> m_lines;
};

}  // namespace

std::vector<std::string> alignNormStatistics(const graph::Graph& g, std::vector<c10::IValue>& inputs)
{
    return Aligner(g, inputs).run();
}

}  // namespace fxray::replay::detail
