#include "graph/int_ranges.h"

#include "graph/algorithms.h"

namespace fxray::graph {
namespace {

// Ops that only reshape/move their first argument: an index flowing through them keeps its range.
bool isPassThrough(const Node& n)
{
    static const char* kOps[] = {"view", "_unsafe_view", "reshape", "clone", "permute", "expand", "squeeze",
                                 "unsqueeze", "flatten", "t", "transpose", "contiguous", "alias", "_to_copy",
                                 "slice", "select", "repeat"};
    if (!n.isOp())
        return false;
    for (const char* op : kOps)
        if (n.target.op == op)
            return true;
    return false;
}

// Size of dim `dim` of the value `ref` as recorded (constant sizes only).
std::optional<std::int64_t> recordedSize(const Graph& g, const Arg& ref, std::int64_t dim)
{
    if (ref.kind != Arg::Kind::Node)
        return std::nullopt;
    const Node& n = g.nodes[static_cast<std::size_t>(ref.node)];
    if (!n.meta || !n.meta->isTensor())
        return std::nullopt;
    const auto& sizes = n.meta->tensor.sizes;
    const auto rank = static_cast<std::int64_t>(sizes.size());
    if (dim < 0)
        dim += rank;
    if (dim < 0 || dim >= rank || !sizes[static_cast<std::size_t>(dim)].isConstant())
        return std::nullopt;
    return sizes[static_cast<std::size_t>(dim)].value;
}

std::int64_t intArg(const Node& n, std::size_t i, std::int64_t fallback)
{
    return i < n.args.size() && n.args[i].kind == Arg::Kind::Int ? n.args[i].i : fallback;
}

// The bound that consumer `user` puts on its argument `pos` (which holds the index values).
std::optional<IntRange> boundFromUser(const Graph& g, const Node& user, std::size_t pos)
{
    if (!user.isOp())
        return std::nullopt;
    const std::string& op = user.target.op;
    auto make = [&](std::optional<std::int64_t> high, const std::string& why) -> std::optional<IntRange> {
        if (!high || *high <= 0)
            return std::nullopt;
        return IntRange{0, *high, user.name + " (" + op + "): " + why};
    };
    if (op == "embedding" && pos == 1)
        return make(recordedSize(g, user.args[0], 0), "rows of the weight");
    if (op == "embedding_dense_backward" && pos == 1)
        return make(intArg(user, 2, -1), "num_weights");
    if ((op == "index_select" && pos == 2) || ((op == "gather" || op == "scatter" || op == "scatter_add" ||
                                                op == "scatter_reduce") && pos == 2))
        return make(recordedSize(g, user.args[0], intArg(user, 1, 0)), "size of the indexed dim");
    if ((op == "nll_loss_forward" || op == "nll_loss" || op == "nll_loss2d_forward" || op == "cross_entropy_loss") &&
        pos == 1) {
        // Classes are dim 1 of an (N, C, ...) input, dim 0 of a (C) input.
        if (user.args[0].kind != Arg::Kind::Node)
            return std::nullopt;
        const Node& in = g.nodes[static_cast<std::size_t>(user.args[0].node)];
        std::int64_t dim = in.meta && in.meta->isTensor() && in.meta->tensor.sizes.size() == 1 ? 0 : 1;
        return make(recordedSize(g, user.args[0], dim), "class count");
    }
    if ((op == "nll_loss_backward" || op == "nll_loss2d_backward") && pos == 2) {
        if (user.args.size() < 2 || user.args[1].kind != Arg::Kind::Node)
            return std::nullopt;
        const Node& in = g.nodes[static_cast<std::size_t>(user.args[1].node)];
        std::int64_t dim = in.meta && in.meta->isTensor() && in.meta->tensor.sizes.size() == 1 ? 0 : 1;
        return make(recordedSize(g, user.args[1], dim), "class count");
    }
    if ((op == "index" || op == "_unsafe_index" || op == "index_put" || op == "_index_put_impl") && pos == 1)
        return std::nullopt;  // handled per list position by the caller
    return std::nullopt;
}

}  // namespace

std::vector<std::optional<IntRange>> inferIntRanges(const Graph& g)
{
    const auto users = computeUsers(g);
    std::vector<std::optional<IntRange>> out(g.nodes.size());
    for (int ph : g.placeholders()) {
        // Walk forward through pass-through ops; take the tightest bound any consumer gives.
        std::vector<int> frontier{ph};
        std::vector<bool> seen(g.nodes.size(), false);
        while (!frontier.empty()) {
            int v = frontier.back();
            frontier.pop_back();
            if (seen[static_cast<std::size_t>(v)])
                continue;
            seen[static_cast<std::size_t>(v)] = true;
            for (int u : users[static_cast<std::size_t>(v)]) {
                const Node& user = g.nodes[static_cast<std::size_t>(u)];
                if (isPassThrough(user) && !user.args.empty() && user.args[0].kind == Arg::Kind::Node &&
                    user.args[0].node == v) {
                    frontier.push_back(u);
                    continue;
                }
                for (std::size_t pos = 0; pos < user.args.size(); ++pos) {
                    const Arg& a = user.args[pos];
                    std::optional<IntRange> r;
                    if (a.kind == Arg::Kind::Node && a.node == v)
                        r = boundFromUser(g, user, pos);
                    if (a.kind == Arg::Kind::List && (user.target.op == "index" || user.target.op == "_unsafe_index" ||
                                                      user.target.op == "index_put")) {
                        for (std::size_t k = 0; k < a.items.size(); ++k)
                            if (a.items[k].kind == Arg::Kind::Node && a.items[k].node == v)
                                if (auto hi = recordedSize(g, user.args[0], static_cast<std::int64_t>(k)))
                                    r = IntRange{0, *hi, user.name + " (index): size of dim " + std::to_string(k)};
                    }
                    auto& cur = out[static_cast<std::size_t>(ph)];
                    if (r && (!cur || r->high < cur->high))
                        cur = r;
                }
            }
        }
    }
    return out;
}

}  // namespace fxray::graph
