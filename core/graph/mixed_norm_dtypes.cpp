#include "graph/mixed_norm_dtypes.h"

#include "graph/algorithms.h"

#include <set>
#include <string>
#include <string_view>

namespace fxray::graph {
namespace {

// A normalisation's argument positions: its input, its weight, and (backward ops) the saved statistics it reads.
struct NormArgs {
    std::size_t input;
    std::size_t weight;
    std::vector<std::size_t> stats;
};

const std::map<std::string, NormArgs, std::less<>>& forwardNorms()
{
    static const std::map<std::string, NormArgs, std::less<>> kOps = {
        {"native_batch_norm", {0, 1, {}}},
        {"_native_batch_norm_legit", {0, 1, {}}},
        {"_native_batch_norm_legit_functional", {0, 1, {}}},
        {"_native_batch_norm_legit_no_training", {0, 1, {}}},
        {"native_group_norm", {0, 1, {}}},
        {"native_layer_norm", {0, 2, {}}},
    };
    return kOps;
}

const std::map<std::string, NormArgs, std::less<>>& backwardNorms()
{
    static const std::map<std::string, NormArgs, std::less<>> kOps = {
        {"native_batch_norm_backward", {1, 2, {5, 6}}},
        {"native_group_norm_backward", {1, 4, {2, 3}}},
        {"native_layer_norm_backward", {1, 5, {3, 4}}},
    };
    return kOps;
}

// Ops that hand their one tensor argument on with its dtype: a value of the wrong recorded dtype stays wrong there.
bool carriesDtype(const Node& n)
{
    static const std::set<std::string, std::less<>> kOps = {"alias", "view", "_unsafe_view", "reshape", "detach",
                                                            "squeeze", "unsqueeze", "clone", "permute", "expand",
                                                            "t", "transpose", "contiguous"};
    return n.isOp() && n.target.ns == "aten" && kOps.contains(n.target.op);
}

const TensorMeta* tensorOf(const Graph& g, const Node& n, std::size_t pos)
{
    if (pos >= n.args.size() || n.args[pos].kind != Arg::Kind::Node || n.args[pos].node < 0)
        return nullptr;
    const Node& a = g.nodes[static_cast<std::size_t>(n.args[pos].node)];
    return a.meta && a.meta->isTensor() ? &a.meta->tensor : nullptr;
}

// Input bf16/f16 recorded on the CPU, weight f32: the CPU kernels' mixed-dtype path.
const TensorMeta* mixedInput(const Graph& g, const Node& n, const NormArgs& args)
{
    const TensorMeta* input = tensorOf(g, n, args.input);
    const TensorMeta* weight = tensorOf(g, n, args.weight);
    const bool reduced = input && (input->dtype == DType::BFloat16 || input->dtype == DType::Float16);
    const bool cpu = input && (!input->device || input->device->type == "cpu");
    return reduced && cpu && weight && weight->dtype == DType::Float32 ? input : nullptr;
}

bool recordedAs(const Node& n, DType dtype)
{
    return n.meta && n.meta->isTensor() && n.meta->tensor.dtype == dtype;
}

class Finder {
public:
    explicit Finder(const Graph& g) : m_g(g), m_users(computeUsers(g)) {}

    std::map<int, DType> run()
    {
        for (std::size_t i = 0; i < m_g.nodes.size(); ++i) {
            const Node& n = m_g.nodes[i];
            if (!n.isOp() || n.target.ns != "aten")
                continue;
            if (auto f = forwardNorms().find(n.target.op); f != forwardNorms().end()) {
                if (const TensorMeta* in = mixedInput(m_g, n, f->second))
                    for (int u : m_users[i])
                        if (isGetitem(u, 1) || isGetitem(u, 2))
                            forward(u, in->dtype);
            } else if (auto b = backwardNorms().find(n.target.op); b != backwardNorms().end()) {
                const TensorMeta* in = mixedInput(m_g, n, b->second);
                if (!in)
                    continue;
                for (std::size_t s : b->second.stats)
                    if (n.args[s].kind == Arg::Kind::Node)
                        backward(n.args[s].node, in->dtype);
                if (n.target.op == "native_group_norm_backward")
                    for (int u : m_users[i])
                        if (isGetitem(u, 0) && recordedAs(node(u), DType::Float32))
                            m_out[u] = in->dtype;
            }
        }
        return std::move(m_out);
    }

private:
    const Node& node(int i) const { return m_g.nodes[static_cast<std::size_t>(i)]; }

    bool isGetitem(int i, std::int64_t index) const
    {
        const Node& n = node(i);
        return n.target.kind == Target::Kind::Getitem && n.args.size() == 2 && n.args[1].kind == Arg::Kind::Int &&
               n.args[1].i == index;
    }

    // A statistic the forward made: recorded in the input's dtype, f32 in the kernel; and what carries it on.
    void forward(int i, DType recorded)
    {
        if (!recordedAs(node(i), recorded) || m_out.contains(i))
            return;
        m_out[i] = DType::Float32;
        for (int u : m_users[static_cast<std::size_t>(i)])
            if (carriesDtype(node(u)))
                forward(u, recorded);
    }

    // A statistic a backward reads: back through what carried it to where it came from (a graph input).
    void backward(int i, DType recorded)
    {
        if (i < 0 || !recordedAs(node(i), recorded) || m_out.contains(i))
            return;
        m_out[i] = DType::Float32;
        const Node& n = node(i);
        if (carriesDtype(n) && !n.args.empty() && n.args[0].kind == Arg::Kind::Node)
            backward(n.args[0].node, recorded);
    }

    const Graph& m_g;
    const std::vector<std::vector<int>> m_users;
    std::map<int, DType> m_out;
};

}  // namespace

std::map<int, DType> cpuKernelNormDtypes(const Graph& g)
{
    return Finder(g).run();
}

}  // namespace fxray::graph
