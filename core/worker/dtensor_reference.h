#pragma once
// Consistent inputs and a single-rank reference for a distributed replay of DTensor compiles (trace logs).
// Per compile: rank 0's dynamo graph, read as the unsharded computation (graph/dtensor_global.h), is replayed
// once in a plain worker on generated global inputs (DTensor prims as identities); its inputs and outputs are
// written to files. Every rank's AOT forward / inference graph of that compile then takes its inputs from that
// one file, each DTensor input cut to the rank's shard by its recorded placements and mesh coordinate
// (replicated inputs whole, so equal on every rank), and its user outputs are compared with the reference's, cut
// alike. A correct sharded compile therefore equals the unsharded step on every rank; a sharding bug does not.
// Plain C++ over ReplayWorker; the files live in the caller's folder.
#include "graph/dtensor_layout.h"
#include "io/graph_source.h"
#include "replay/api/replay_types.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::worker {

struct DtensorReferences {
    // Per rank, per graph (as perRank): the stage to replay the graph as; nullopt: as the job's options say.
    std::vector<std::vector<std::optional<replay::StageIo>>> stages;
    // Per rank, per graph: a dynamo-level graph (dynamo's, or inductor's pre-grad copies of it) of a compile with a
    // reference, as its own unsharded computation (global annotations; replayed with ReplayOptions::dtensorGlobal,
    // on the reference's global inputs, its outputs compared with the reference's whole). DTensor's prims are
    // Python, so a rank cannot replay its own shards of these graphs; what it can check is that the program its
    // log records computes what the reference computed. nullopt: the graph as it is.
    std::vector<std::vector<std::optional<io::LoadedGraph>>> unsharded;
    struct Reference {
        std::string compile;            // the compile's group ("0/0")
        replay::ReplayReport report;    // the global replay of the dynamo graph
        bool saved = false;             // its inputs and outputs were written (it ran cleanly)
        int unchecked = 0;              // rank-local annotations the global run could not meet (dropped)
    };
    std::vector<Reference> references;
    std::vector<std::string> notes;     // compiles left out and why, meshes used
    int rankGraphs = 0;                 // rank graphs given the reference's inputs
    int unshardedGraphs = 0;            // rank graphs replayed as the unsharded computation (`unsharded`)
};

// `meshes`: the DeviceMeshes the logs record (graph::findDeviceMeshes); a 1-D placement without one is taken
// over the whole job. Returns no stages (and says why in notes) when nothing is DTensor or inputs are saved.
DtensorReferences prepareDtensorReferences(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                                           const std::vector<graph::DeviceMeshInfo>& meshes,
                                           const replay::ReplayOptions& options, const std::string& program,
                                           const std::string& folder);

// A rank report's verdict against the single-rank reference: "=ref" (every compared output equal), "!=ref" (some
// differ), "" (not compared with it).
std::string referenceMark(const replay::ReplayReport& r);

// The DeviceMeshes recorded in the logs the graphs come from (each file read once).
std::vector<graph::DeviceMeshInfo> recordedMeshes(const std::vector<std::vector<const io::LoadedGraph*>>& perRank);

}  // namespace fxray::worker
