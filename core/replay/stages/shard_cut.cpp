#include "replay/stages/shard_cut.h"

#include "base/error.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <map>

namespace fxray::replay::detail {

at::Tensor cutShard(const at::Tensor& global, const graph::ShardCut& cut)
{
    const std::vector<graph::Placement> placements = graph::parsePlacements(cut.placements);
    at::Tensor t = global;
    // Per tensor dimension, the mesh dimensions that cut it, in cut order ("S(1)[k]"; else mesh-dimension order).
    std::map<int, std::vector<std::size_t>> cuts;
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const graph::Placement& p = placements[i];
        switch (p.kind) {
        case graph::Placement::Kind::Shard:
            if (p.dim < 0 || p.dim >= t.dim())
                throw Error("placement " + p.text + " shards dim " + std::to_string(p.dim) + " of a " + std::to_string(t.dim()) +
                            "-d tensor");
            cuts[p.dim].push_back(i);
            break;
        case graph::Placement::Kind::Partial:
            if (p.reduceOp == "sum")
                t = t / static_cast<double>(cut.meshShape[i]);
            else if (p.reduceOp != "avg" && p.reduceOp != "min" && p.reduceOp != "max")
                throw Error("placement " + p.text + ": a Partial(" + p.reduceOp + ") value cannot be split across ranks");
            break;
        case graph::Placement::Kind::Replicate: break;
        case graph::Placement::Kind::StridedShard:
        case graph::Placement::Kind::Other:
            throw Error("placement " + p.text + " (" + cut.placements + "): cutting it is not implemented");
        }
    }
    for (auto& [dim, meshDims] : cuts) {
        std::stable_sort(meshDims.begin(), meshDims.end(), [&](std::size_t a, std::size_t b) {
            return placements[a].order < placements[b].order;
        });
        for (std::size_t i : meshDims) {
            // torch.chunk: ceil-sized chunks, the last ones short or empty.
            const std::int64_t size = t.size(dim), n = cut.meshShape[i];
            const std::int64_t chunk = (size + n - 1) / n;
            const std::int64_t start = std::min(size, cut.coord[i] * chunk);
            const std::int64_t length = std::min(size, start + chunk) - start;
            t = t.narrow(dim, start, length);
        }
    }
    return t.contiguous();
}

}  // namespace fxray::replay::detail
