#pragma once
// DTensor layouts as the logs record them, for a distributed replay: the DeviceMesh (its shape, strides and dim
// names, as DeviceMesh.__repr__ prints it in a trace's describe_tensor records), a DTensor's placements (as its
// annotation prints them: "S(0)", "R", "P(sum)", "PS(1)[1]S(1)[0]R"), where a rank sits in the mesh, the
// sub-groups each mesh dimension makes, and how one rank's local tensor is cut from the global one (ShardCut,
// which the replay engine applies with LibTorch: replay/stages/shard_cut). Plain C++.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fxray::graph {

// "DeviceMesh((dp=2, tp=2), 'cpu', stride=(2, 1))" / "DeviceMesh((2,), 'cpu', stride=(1,))".
struct DeviceMeshInfo {
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> stride;      // rank = sum(coord[i] * stride[i]) (init_device_mesh's row-major layout)
    std::vector<std::string> dimNames;     // empty when the mesh has none
    std::string deviceType;
    std::string text;                      // as printed
    std::int64_t size() const;
    bool operator==(const DeviceMeshInfo& o) const { return shape == o.shape && stride == o.stride && dimNames == o.dimNames; }
};

// Every DeviceMesh printed in `text` (a trace log), distinct, in order of first appearance.
std::vector<DeviceMeshInfo> findDeviceMeshes(const std::string& text);
// One mesh from its repr; nullopt when `text` is not one.
std::optional<DeviceMeshInfo> parseDeviceMesh(const std::string& text);
// A 1-D mesh of `world` ranks (what a single-dimension placement on a job without a recorded mesh means).
DeviceMeshInfo flatMesh(std::int64_t world);

// The rank's coordinate in the mesh (by its strides); nullopt when the rank is outside it.
std::optional<std::vector<std::int64_t>> meshCoordinate(const DeviceMeshInfo& mesh, std::int64_t rank);
// The process groups of mesh dimension `dim`, in the order DeviceMesh creates them (the other dimensions'
// coordinates in row-major order), each group's ranks by their coordinate along `dim`.
std::vector<std::vector<int>> meshDimGroups(const DeviceMeshInfo& mesh, std::size_t dim);

// One mesh dimension's placement.
struct Placement {
    enum class Kind { Shard, Replicate, Partial, StridedShard, Other } kind = Kind::Replicate;
    int dim = -1;            // Shard / StridedShard: the tensor dimension
    int order = -1;          // "S(1)[k]": the k-th cut of that tensor dimension; -1: mesh-dimension order
    std::string reduceOp;    // Partial: "sum", "avg", ...
    std::string text;
};
// "S(0)R" -> [Shard(0), Replicate]. Throws fxray::Error naming the text when it cannot be read.
std::vector<Placement> parsePlacements(const std::string& text);

// How one rank's local tensor is made from the global one: for each mesh dimension (shards in their cut order),
// Shard(d) keeps the rank's torch.chunk of dim d, Replicate keeps it whole, Partial(sum) keeps global / n (torch's
// Replicate -> Partial rule: the ranks' values sum to the global one), Partial(avg/min/max) keeps it whole.
struct ShardCut {
    std::string placements;                // as the annotation prints them
    std::vector<std::int64_t> meshShape;
    std::vector<std::int64_t> coord;       // the rank's coordinate
    // "S(0)R@2,2@1,0": what travels to the worker (ReplayOptions::StageIo); parse() reads it back.
    std::string str() const;
    static ShardCut parse(const std::string& text);
    bool partial() const;                  // some mesh dimension holds a Partial: the local value is not a slice
};

// Group membership for the names a job's graphs use, where the log names no members: from the meshes the log
// records. For each group name, `users` are the ranks whose graphs call it; the group is the one sub-group of a
// mesh dimension that holds all of them (unique), else, when the names are torch's counters ("1", "2", ... as
// new_group numbers the groups DeviceMesh makes, dimension by dimension after the world "0"), the sub-group with
// that number. Names it cannot place are left out (the caller keeps its default) with a note why.
struct DerivedGroups {
    std::map<std::string, std::vector<int>> groups;
    std::vector<std::string> notes;
};
DerivedGroups groupsFromMeshes(const std::map<std::string, std::set<int>>& users, const std::vector<DeviceMeshInfo>& meshes,
                               int world);

}  // namespace fxray::graph
