#include "worker/dtensor_reference.h"

#include "base/error.h"
#include "graph/dtensor_global.h"
#include "worker/replay_worker.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace fxray::worker {
namespace {

bool exists(const std::string& path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// "PlainAOTInput(idx=3)" and "SubclassGetAttrAOTInput(base=PlainAOTInput(idx=3), attr='_local_tensor')" -> 3 (a
// DTensor's local tensor stands for dynamo's input 3); same for outputs with "Output"; -1 for anything else.
int dynamoIndex(const std::string& comment, const std::string& io)
{
    const std::string plain = "Plain" + io + "(idx=";
    std::string rest;
    if (comment.rfind(plain, 0) == 0)
        rest = comment.substr(plain.size());
    else if (const std::string sub = "SubclassGetAttr" + io + "(base=" + plain; comment.rfind(sub, 0) == 0 &&
                                                                                 comment.find("attr='_local_tensor'") != std::string::npos)
        rest = comment.substr(sub.size());
    else
        return -1;
    const std::size_t end = rest.find(')');
    if (end == 0 || end == std::string::npos || rest.find_first_not_of("0123456789") != end)
        return -1;
    return std::stoi(rest.substr(0, end));
}

const graph::DeviceMeshInfo* meshFor(std::size_t dims, int world, const std::vector<graph::DeviceMeshInfo>& meshes,
                                     std::optional<graph::DeviceMeshInfo>& flat)
{
    for (const auto& m : meshes)
        if (m.shape.size() == dims && m.size() == world)
            return &m;
    if (dims != 1)
        return nullptr;
    flat = graph::flatMesh(world);
    return &*flat;
}

// The rank's cut of a layout ("" stays ""); throws fxray::Error when no recorded mesh fits it.
std::string cutFor(const std::string& layout, int rank, int world, const std::vector<graph::DeviceMeshInfo>& meshes)
{
    if (layout.empty())
        return "";
    const std::size_t dims = graph::parsePlacements(layout).size();
    std::optional<graph::DeviceMeshInfo> flat;
    const graph::DeviceMeshInfo* mesh = meshFor(dims, world, meshes, flat);
    if (!mesh)
        throw Error("placements " + layout + " need a " + std::to_string(dims) + "-d mesh of " + std::to_string(world) +
                    " ranks, and the logs record none");
    graph::ShardCut cut;
    cut.placements = layout;
    cut.meshShape = mesh->shape;
    const auto coord = graph::meshCoordinate(*mesh, rank);
    if (!coord)
        throw Error("rank " + std::to_string(rank) + " has no coordinate in the recorded mesh (its strides are not a dense layout)");
    cut.coord = *coord;
    return cut.str();
}

// The compile a trace graph belongs to, the same on every rank ("0/0", "0/0_1", "!0").
std::string compileKey(const io::TraceOrigin& t)
{
    if (t.compiledAutogradId >= 0 && t.frameId < 0)
        return "!" + std::to_string(t.compiledAutogradId);
    return std::to_string(t.frameId) + "/" + std::to_string(t.frameCompileId) + (t.attempt ? "_" + std::to_string(t.attempt) : "");
}

struct Compile {
    const io::LoadedGraph* dynamo = nullptr;
    std::vector<std::pair<int, std::size_t>> dynamoLevel;  // (rank, graph index) of every rank's dynamo / pre-grad graphs
    std::vector<std::pair<int, std::size_t>> forwards;  // (rank, graph index) of its AOT forward / inference graphs
    std::vector<std::pair<int, std::size_t>> downstream;  // its first post-grad / runnable graphs (the forward's)
};

// The stage of one rank's AOT graph: the reference's inputs cut to the rank, its outputs compared cut alike.
replay::StageIo rankStage(const io::LoadedGraph& aot, const graph::DtensorGlobalGraph& global, int rank, int world,
                          const std::vector<graph::DeviceMeshInfo>& meshes, const std::string& inputs,
                          const std::string& outputs, std::vector<std::string>& notes)
{
    replay::StageIo s;
    s.inputsFile = inputs;
    s.referenceOutputs = outputs;
    const auto placeholders = aot.graph.placeholders();
    for (int p : placeholders) {
        const int i = dynamoIndex(aot.graph.nodes[static_cast<std::size_t>(p)].comment, "AOTInput");
        const bool known = i >= 0 && static_cast<std::size_t>(i) < global.inputLayouts.size();
        s.inputMap.push_back(known ? i : -1);
        s.inputShards.push_back(known ? cutFor(global.inputLayouts[static_cast<std::size_t>(i)], rank, world, meshes) : "");
    }
    s.outputMap.assign(global.outputLayouts.size(), -1);
    s.outputShards.assign(global.outputLayouts.size(), "");
    for (std::size_t k = 0; k < aot.graph.outputComments.size(); ++k) {
        const int u = dynamoIndex(aot.graph.outputComments[k], "AOTOutput");
        if (u < 0 || static_cast<std::size_t>(u) >= global.outputLayouts.size())
            continue;
        const auto& layout = global.outputLayouts[static_cast<std::size_t>(u)];
        if (!layout) {
            if (rank == 0)
                notes.push_back(aot.entry.address + ": user output " + std::to_string(u) +
                                " is a rank-local value of no recorded layout: not compared with the reference");
            continue;
        }
        s.outputMap[static_cast<std::size_t>(u)] = static_cast<int>(k);
        s.outputShards[static_cast<std::size_t>(u)] = cutFor(*layout, rank, world, meshes);
    }
    return s;
}

}  // namespace

std::string referenceMark(const replay::ReplayReport& r)
{
    if (r.reference.rfind("single-rank reference", 0) != 0)
        return "";
    int compared = 0;
    bool all = true;
    for (const auto& c : r.comparisons)
        if (c.compared) {
            ++compared;
            all = all && c.ok;
        }
    return compared == 0 ? "" : all ? "=ref" : "!=ref";
}

std::vector<graph::DeviceMeshInfo> recordedMeshes(const std::vector<std::vector<const io::LoadedGraph*>>& perRank)
{
    std::vector<graph::DeviceMeshInfo> out;
    std::set<std::string> read;
    for (const auto& rank : perRank)
        for (const io::LoadedGraph* g : rank) {
            if (!g->entry.trace || !read.insert(g->entry.path).second)
                continue;
            std::ifstream f(g->entry.path, std::ios::binary);
            std::stringstream text;
            text << f.rdbuf();
            for (auto& m : graph::findDeviceMeshes(text.str()))
                if (std::find(out.begin(), out.end(), m) == out.end())
                    out.push_back(std::move(m));
        }
    return out;
}

namespace {

// The compiles of the job by their id (the same on every rank), in rank 0's order: rank 0's dynamo graph, each
// rank's AOT forward / inference graph, and the post-grad / runnable graphs made from it (a compile's first).
std::pair<std::map<std::string, Compile>, std::vector<std::string>>
collectCompiles(const std::vector<std::vector<const io::LoadedGraph*>>& perRank)
{
    std::map<std::string, Compile> compiles;
    std::vector<std::string> order;
    for (std::size_t r = 0; r < perRank.size(); ++r)
        for (std::size_t k = 0; k < perRank[r].size(); ++k) {
            const io::LoadedGraph& g = *perRank[r][k];
            if (!g.entry.trace)
                continue;
            const std::string key = compileKey(*g.entry.trace);
            auto [it, added] = compiles.try_emplace(key);
            if (added)
                order.push_back(key);
            Compile& c = it->second;
            const auto kind = g.entry.kind;
            if (kind == io::GraphKind::Dynamo && r == 0)
                c.dynamo = &g;
            // (One chain: a dynamo-level graph is none of the kinds below.)
            if (kind == io::GraphKind::Dynamo || kind == io::GraphKind::PreGrad)
                c.dynamoLevel.emplace_back(static_cast<int>(r), k);
            else if (kind == io::GraphKind::Forward || kind == io::GraphKind::Inference)
                c.forwards.emplace_back(static_cast<int>(r), k);
            else if ((kind == io::GraphKind::PostGrad || kind == io::GraphKind::Runnable) && g.entry.trace->ordinal == 0)
                c.downstream.emplace_back(static_cast<int>(r), k);
        }
    return {compiles, order};
}

// A dynamo-level graph with the global annotations of graph::dtensorGlobalGraph, on its graph and its input records.
io::LoadedGraph unshardedCopy(const io::LoadedGraph& g, const graph::DtensorGlobalGraph& global)
{
    io::LoadedGraph copy = g;
    copy.graph = global.graph;
    const auto placeholders = copy.graph.placeholders();
    for (std::size_t k = 0; k < placeholders.size() && k < copy.inputs.size(); ++k)
        copy.inputs[k].meta = copy.graph.nodes[static_cast<std::size_t>(placeholders[k])].meta;
    return copy;
}

// Every rank's dynamo-level graphs of a compile as their unsharded computation, on the reference's inputs and
// compared with its outputs whole (DtensorReferences::unsharded).
void addUnshardedRuns(const Compile& c, const graph::DtensorGlobalGraph& reference, const replay::StageIo& io,
                      bool outputsSaved, const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                      const std::string& group, DtensorReferences& out)
{
    for (const auto& [rank, k] : c.dynamoLevel) {
        const io::LoadedGraph& g = *perRank[static_cast<std::size_t>(rank)][k];
        graph::DtensorGlobalGraph own = graph::dtensorGlobalGraph(g.graph);
        const std::size_t inputs = own.graph.placeholders().size();
        if (!own.why.empty() || inputs != reference.graph.placeholders().size() ||
            own.outputLayouts.size() != reference.outputLayouts.size()) {
            out.notes.push_back("compile " + group + ", rank " + std::to_string(rank) + ": " + g.entry.address +
                                (own.why.empty() ? " has other inputs or outputs than the reference's dynamo graph"
                                                 : ": " + own.why) + ": replayed as recorded");
            continue;
        }
        replay::StageIo s;
        s.inputsFile = io.saveInputs;
        s.referenceOutputs = outputsSaved ? io.saveOutputs : "";
        for (std::size_t i = 0; i < inputs; ++i)
            s.inputMap.push_back(static_cast<int>(i));
        s.outputMap = io.outputMap;
        out.stages[static_cast<std::size_t>(rank)][k] = std::move(s);
        out.unsharded[static_cast<std::size_t>(rank)][k] = unshardedCopy(g, own);
        ++out.unshardedGraphs;
    }
}

// Rank 0's dynamo graph with the global annotations, replayed once on generated global inputs in a plain worker;
// its inputs and user outputs written to <stem>.inputs.pkl / .outputs.pkl.
DtensorReferences::Reference runReference(const io::LoadedGraph& dynamo, const graph::DtensorGlobalGraph& global,
                                          const replay::ReplayOptions& options, ReplayWorker& worker,
                                          const std::string& stem, replay::StageIo& io)
{
    const io::LoadedGraph ref = unshardedCopy(dynamo, global);
    replay::ReplayOptions ro = options;
    ro.dtensorGlobal = true;
    ro.expectedOutputsPath.clear();
    ro.compareDevice.clear();
    ro.warmup = ro.repeat = 0;
    for (std::size_t u = 0; u < global.outputLayouts.size(); ++u)
        io.outputMap.push_back(static_cast<int>(u));
    io.saveInputs = stem + ".inputs.pkl";
    io.saveOutputs = stem + ".outputs.pkl";
    ro.stage = io;
    DtensorReferences::Reference reference;
    reference.unchecked = global.unchecked;
    reference.report = worker.run(ref, ro);
    reference.saved = exists(io.saveInputs) && exists(io.saveOutputs);
    return reference;
}

}  // namespace

DtensorReferences prepareDtensorReferences(const std::vector<std::vector<const io::LoadedGraph*>>& perRank,
                                           const std::vector<graph::DeviceMeshInfo>& meshes,
                                           const replay::ReplayOptions& options, const std::string& program,
                                           const std::string& folder)
{
    DtensorReferences out;
    const int world = static_cast<int>(perRank.size());
    out.stages.resize(perRank.size());
    out.unsharded.resize(perRank.size());
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        out.stages[r].resize(perRank[r].size());
        out.unsharded[r].resize(perRank[r].size());
    }
    if (options.inputs == replay::ReplayOptions::Inputs::Saved)
        return out;  // the ranks' own recorded inputs are consistent already
    auto [compiles, order] = collectCompiles(perRank);
    WorkerConfig wc;
    wc.program = program;
    std::optional<ReplayWorker> worker;
    for (const std::string& group : order) {
        const Compile& c = compiles[group];
        if (!c.dynamo || c.forwards.empty())
            continue;
        const graph::DtensorGlobalGraph global = graph::dtensorGlobalGraph(c.dynamo->graph);
        if (!global.hasDtensor)
            continue;
        if (!global.why.empty()) {
            out.notes.push_back("compile " + group + ": no single-rank reference: " + global.why);
            continue;
        }
        if (!worker)
            worker.emplace(wc);
        replay::StageIo io;
        DtensorReferences::Reference reference =
            runReference(*c.dynamo, global, options, *worker, folder + "/reference_" + std::to_string(out.references.size()), io);
        reference.compile = group;
        out.references.push_back(reference);
        if (!exists(io.saveInputs)) {
            out.notes.push_back("compile " + group + ": the single-rank reference did not run (" +
                                (reference.report.fatal.empty() ? reference.report.verdict() : reference.report.fatal) +
                                "): the ranks generate their own inputs");
            continue;
        }
        addUnshardedRuns(c, global, io, reference.saved, perRank, group, out);
        for (const auto& [rank, k] : c.forwards) {
            const auto r = static_cast<std::size_t>(rank);
            try {
                const io::LoadedGraph& aot = *perRank[r][k];
                out.stages[r][k] = rankStage(aot, global, rank, world, meshes, io.saveInputs,
                                             reference.saved ? io.saveOutputs : "", out.notes);
                ++out.rankGraphs;
                // Inductor's post-grad graph and the runnable keep the AOT graph's placeholders and outputs as is.
                for (const auto& [dr, dk] : c.downstream)
                    if (dr == rank && perRank[r][dk]->graph.placeholders().size() == aot.graph.placeholders().size()) {
                        out.stages[r][dk] = out.stages[r][k];
                        ++out.rankGraphs;
                    }
            } catch (const Error& e) {
                out.notes.push_back("compile " + group + ", rank " + std::to_string(rank) + ": " + e.what() +
                                    ": the rank generates its own inputs");
            }
        }
    }
    return out;
}

}  // namespace fxray::worker
