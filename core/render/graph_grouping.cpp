#include "render/graph_grouping.h"

#include <algorithm>
#include <map>
#include <utility>

namespace fxray::render {

namespace {

bool isInput(const graph::Node& n)
{
    return n.kind == graph::NodeKind::Placeholder || n.kind == graph::NodeKind::GetAttr;
}

std::string opName(const graph::Node& n)
{
    if (n.kind == graph::NodeKind::Placeholder)
        return "input";
    if (n.kind == graph::NodeKind::GetAttr)
        return "get_attr";
    if (n.kind == graph::NodeKind::Output)
        return "output";
    return n.target.op.empty() ? n.target.str() : n.target.op;
}

}  // namespace

void describeBlock(const graph::Graph& g, Block& b)
{
    if (b.nodes.empty())
        for (int i = b.first; i <= b.last; ++i)
            b.nodes.push_back(i);
    if (b.nodes.empty())
        return;
    b.first = b.nodes.front();
    b.last = b.nodes.back();
    std::map<int, int> stackCount;
    std::map<std::string, int> opCount;
    for (int i : b.nodes) {
        const graph::Node& n = g.nodes[static_cast<std::size_t>(i)];
        if (n.stack >= 0)
            ++stackCount[n.stack];
        ++opCount[opName(n)];
    }
    const graph::Node& first = g.nodes[static_cast<std::size_t>(b.first)];
    const graph::Node& last = g.nodes[static_cast<std::size_t>(b.last)];
    if (!stackCount.empty()) {
        const auto top = std::max_element(stackCount.begin(), stackCount.end(),
                                          [](const auto& a, const auto& c) { return a.second < c.second; });
        const graph::StackFrame& f = g.stacks[static_cast<std::size_t>(top->first)];
        b.title = !f.code.empty() ? f.code : f.raw;
        if (stackCount.size() > 1)
            b.title += " (+" + std::to_string(stackCount.size() - 1) + " more)";
    } else {
        b.title = b.nodes.size() == 1 ? first.name : first.name + " … " + last.name;
    }
    std::vector<std::pair<std::string, int>> ops(opCount.begin(), opCount.end());
    std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& c) { return a.second > c.second; });
    b.summary = std::to_string(b.size()) + (b.size() == 1 ? " node" : " nodes");
    for (std::size_t k = 0; k < ops.size() && k < 4; ++k)
        b.summary += " · " + ops[k].first + " " + std::to_string(ops[k].second);
}

std::string blockNodeName(int block)
{
    return "group#" + std::to_string(block);
}

namespace {

// Regions: maximal runs of nodes with the same statement and the same input-ness.
std::vector<std::pair<int, int>> regionsOf(const graph::Graph& g)
{
    std::vector<std::pair<int, int>> regions;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const graph::Node& n = g.nodes[i];
        if (!regions.empty()) {
            const graph::Node& prev = g.nodes[i - 1];
            if (prev.stack == n.stack && isInput(prev) == isInput(n)) {
                regions.back().second = static_cast<int>(i);
                continue;
            }
        }
        regions.emplace_back(static_cast<int>(i), static_cast<int>(i));
    }
    return regions;
}

// Packs regions into blocks of at most `target` nodes (a longer region is cut into pieces); returns the ranges.
std::vector<std::pair<int, int>> pack(const graph::Graph& g, const std::vector<std::pair<int, int>>& regions, int target)
{
    std::vector<std::pair<int, int>> blocks;
    for (auto [first, last] : regions) {
        const bool input = isInput(g.nodes[static_cast<std::size_t>(first)]);
        while (first <= last) {
            if (!blocks.empty()) {
                auto& b = blocks.back();
                const bool sameKind = isInput(g.nodes[static_cast<std::size_t>(b.first)]) == input;
                if (sameKind && (b.second - b.first + 1) + (last - first + 1) <= target) {
                    b.second = last;
                    break;
                }
            }
            const int end = std::min(last, first + target - 1);
            blocks.emplace_back(first, end);
            first = end + 1;
        }
    }
    return blocks;
}

}  // namespace

Grouping groupIntoBlocks(const graph::Graph& g, std::size_t maxBlocks)
{
    Grouping out;
    const std::size_t count = g.nodes.size();
    out.blockOf.assign(count, -1);
    if (count == 0)
        return out;
    maxBlocks = std::max<std::size_t>(maxBlocks, 1);
    const std::vector<std::pair<int, int>> regions = regionsOf(g);
    // The smallest block size that keeps the count within maxBlocks (regions rarely fill a block exactly, so
    // nodes / maxBlocks alone can give twice as many blocks). Binary search: packing is linear.
    int low = std::max(8, static_cast<int>((count + maxBlocks - 1) / maxBlocks));
    int high = std::max(low, static_cast<int>(count));
    while (low < high) {
        const int mid = low + (high - low) / 2;
        if (pack(g, regions, mid).size() <= maxBlocks)
            high = mid;
        else
            low = mid + 1;
    }
    for (auto [first, last] : pack(g, regions, low)) {
        Block b;
        b.first = first;
        b.last = last;
        describeBlock(g, b);
        for (int i = first; i <= last; ++i)
            out.blockOf[static_cast<std::size_t>(i)] = static_cast<int>(out.blocks.size());
        out.blocks.push_back(std::move(b));
    }
    return out;
}

CollapsedGraph collapseBlocks(const graph::Graph& g, const Grouping& grouping, const std::vector<bool>& expanded)
{
    CollapsedGraph out;
    out.graph.className = g.className;
    out.graph.stacks = g.stacks;
    out.graph.sourceFile = g.sourceFile;
    const std::size_t count = g.nodes.size();
    std::vector<int> quotientOf(count, -1);
    const auto isExpanded = [&](int block) {
        return block < 0 || (static_cast<std::size_t>(block) < expanded.size() && expanded[static_cast<std::size_t>(block)]);
    };
    // Nodes first get their quotient index, in program order. A block sits where its first computing node was: a
    // module scope's parameters are placeholders at the top of the graph, and a layer placed there would come
    // before the layers that feed it (their edges then turned back, the chain of layers laid out side by side).
    std::vector<int> anchor(grouping.blocks.size(), -1);
    for (std::size_t b = 0; b < grouping.blocks.size(); ++b) {
        const std::vector<int>& nodes = grouping.blocks[b].nodes;
        const auto computing = std::find_if(nodes.begin(), nodes.end(), [&](int i) { return !isInput(g.nodes[static_cast<std::size_t>(i)]); });
        anchor[b] = computing != nodes.end() ? *computing : nodes.front();
    }
    for (std::size_t i = 0; i < count; ++i) {
        const int block = grouping.blockOf.empty() ? -1 : grouping.blockOf[i];
        if (isExpanded(block) || anchor[static_cast<std::size_t>(block)] == static_cast<int>(i)) {
            quotientOf[i] = static_cast<int>(out.origin.size());
            out.origin.push_back(isExpanded(block) ? static_cast<int>(i) : -1 - block);
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        if (quotientOf[i] < 0)
            quotientOf[i] = quotientOf[static_cast<std::size_t>(anchor[static_cast<std::size_t>(grouping.blockOf[i])])];
    out.graph.nodes.resize(out.origin.size());
    const auto remap = [&](auto& self, graph::Arg& a) -> void {
        if (a.kind == graph::Arg::Kind::Node && a.node >= 0 && static_cast<std::size_t>(a.node) < count)
            a.node = quotientOf[static_cast<std::size_t>(a.node)];
        for (graph::Arg& item : a.items)
            self(self, item);
    };
    for (std::size_t q = 0; q < out.origin.size(); ++q) {
        graph::Node& node = out.graph.nodes[q];
        if (out.origin[q] >= 0) {
            node = g.nodes[static_cast<std::size_t>(out.origin[q])];
            node.frees.clear();
            for (graph::Arg& a : node.args)
                remap(remap, a);
            for (auto& kv : node.kwargs)
                remap(remap, kv.second);
            continue;
        }
        const int block = -1 - out.origin[q];
        const Block& b = grouping.blocks[static_cast<std::size_t>(block)];
        node.name = blockNodeName(block);
        // A block of inputs is an input: the DOT writer then draws its far uses as stubs next to the users
        // instead of edges across the whole drawing.
        node.kind = std::all_of(b.nodes.begin(), b.nodes.end(), [&](int i) { return isInput(g.nodes[static_cast<std::size_t>(i)]); })
                        ? graph::NodeKind::Placeholder
                        : graph::NodeKind::CallFunction;
        node.target.kind = graph::Target::Kind::Python;
        node.target.op = "group";
        node.stack = g.nodes[static_cast<std::size_t>(b.first)].stack;
        // Its inputs: every value read from outside the block, once.
        std::vector<int> reads;
        for (int i : b.nodes)
            graph::forEachNodeRef(g.nodes[static_cast<std::size_t>(i)], [&](int p) {
                if (p >= 0 && static_cast<std::size_t>(p) < count && grouping.blockOf[static_cast<std::size_t>(p)] != block) {
                    const int qp = quotientOf[static_cast<std::size_t>(p)];
                    if (std::find(reads.begin(), reads.end(), qp) == reads.end())
                        reads.push_back(qp);
                }
            });
        for (int qp : reads)
            node.args.push_back(graph::Arg::ofNode(qp));
    }
    return out;
}

void addClusters(DotOptions& options, const Grouping& grouping, const CollapsedGraph& collapsed)
{
    options.clusters.clear();
    if (grouping.clusters.empty())
        return;
    for (const Cluster& c : grouping.clusters)
        options.clusters.push_back({c.label, c.parent});
    options.clusterOf = [&grouping, &collapsed](int q) {
        if (q < 0 || static_cast<std::size_t>(q) >= collapsed.origin.size())
            return -1;
        const int origin = collapsed.origin[static_cast<std::size_t>(q)];
        const int node = origin >= 0 ? origin : grouping.blocks[static_cast<std::size_t>(-1 - origin)].nodes.front();
        return static_cast<std::size_t>(node) < grouping.clusterOf.size() ? grouping.clusterOf[static_cast<std::size_t>(node)] : -1;
    };
}

}  // namespace fxray::render
