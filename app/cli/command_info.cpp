// `fxray info <path> [--json]`: every graph under a path — address, kind, node count, inputs, op histogram —
// and the groups of structurally identical graphs.
#include "arg_parser.h"
#include "base/json.h"
#include "commands.h"
#include "graph/algorithms.h"
#include "io/dump_provenance.h"
#include "io/graph_source.h"

#include <cstdio>
#include <iostream>
#include <map>

namespace fxray::cli {
namespace {

struct GraphInfo {
    io::GraphEntry entry;
    std::optional<io::LoadedGraph> loaded;
    std::string error;
    std::uint64_t hash = 0;
};

std::map<std::string, int> opHistogram(const graph::Graph& g)
{
    std::map<std::string, int> h;
    for (const graph::Node& n : g.nodes)
        if (n.kind == graph::NodeKind::CallFunction || n.kind == graph::NodeKind::CallMethod)
            ++h[n.target.str()];
    return h;
}

std::string hex(std::uint64_t v)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

json::Value toJson(const GraphInfo& gi)
{
    json::Value g = json::Object{};
    g["address"] = gi.entry.address;
    g["format"] = std::string(io::sourceFormatName(gi.entry.format));
    g["kind"] = std::string(io::graphKindName(gi.entry.kind));
    g["group"] = gi.entry.group;
    g["title"] = gi.entry.title;
    if (gi.entry.trace) {
        const auto& t = *gi.entry.trace;
        g["trace"] = json::Object{{"rank", t.rank},       {"frame_id", t.frameId}, {"frame_compile_id", t.frameCompileId},
                                  {"attempt", t.attempt}, {"record", t.record},    {"ordinal", t.ordinal},
                                  {"line", t.line}};
    }
    if (!gi.loaded) {
        g["error"] = gi.error;
        return g;
    }
    const graph::Graph& graph = gi.loaded->graph;
    g["nodes"] = graph.nodes.size();
    g["ops"] = graph.opCount();
    g["hash"] = hex(gi.hash);
    json::Value inputs = json::Array{};
    for (const io::InputSpec& in : gi.loaded->inputs) {
        json::Value i = json::Object{};
        i["name"] = in.name;
        i["source"] = std::string(io::metaSourceName(in.source));
        if (in.meta) {
            i["meta"] = graph::formatAnnotation(*in.meta);
            if (in.meta->isTensor()) {
                const auto& t = in.meta->tensor;
                i["dtype"] = std::string(graph::dtypeTorchName(t.dtype));
                json::Value sizes = json::Array{}, strides = json::Array{};
                for (const auto& s : t.sizes)
                    sizes.push_back(s.isConstant() ? json::Value(*s.value) : json::Value(s.expr));
                i["shape"] = std::move(sizes);
                if (t.strides) {
                    for (const auto& s : *t.strides)
                        strides.push_back(s.isConstant() ? json::Value(*s.value) : json::Value(s.expr));
                    i["stride"] = std::move(strides);
                }
                if (t.device)
                    i["device"] = t.device->str();
            }
        }
        inputs.push_back(std::move(i));
    }
    g["inputs"] = std::move(inputs);
    json::Value hist = json::Object{};
    for (const auto& [op, count] : opHistogram(graph))
        hist[op] = count;
    g["op_histogram"] = std::move(hist);
    json::Value warnings = json::Array{};
    for (const auto& w : gi.loaded->warnings)
        warnings.push_back(w);
    g["warnings"] = std::move(warnings);
    if (gi.loaded->savedInputsPath.size())
        g["saved_inputs"] = gi.loaded->savedInputsPath;
    if (std::string torch = io::writtenByTorch(gi.entry); !torch.empty())
        g["written_by_torch"] = torch;
    return g;
}

}  // namespace

int runInfo(const Args& args)
{
    ArgParser p(args, {}, {"--json"});
    p.expectPositionals(1, "fxray info <path> [--json]");
    io::Discovery d = io::discover(p.positionals()[0]);

    std::vector<GraphInfo> infos;
    std::map<std::uint64_t, std::vector<std::size_t>> byHash;
    int failed = 0;
    for (const io::GraphEntry& e : d.graphs) {
        GraphInfo gi;
        gi.entry = e;
        try {
            gi.loaded = io::loadGraph(e);
            gi.hash = graph::structuralHash(gi.loaded->graph);
            byHash[gi.hash].push_back(infos.size());
        } catch (const Error& err) {
            gi.error = err.what();
            ++failed;
        }
        infos.push_back(std::move(gi));
    }
    std::vector<std::vector<std::size_t>> groups;
    for (const auto& [hash, members] : byHash)
        if (members.size() > 1)
            groups.push_back(members);

    if (p.flag("--json")) {
        json::Value out = json::Object{};
        out["path"] = p.positionals()[0];
        json::Value graphs = json::Array{};
        for (const GraphInfo& gi : infos)
            graphs.push_back(toJson(gi));
        out["graphs"] = std::move(graphs);
        json::Value identical = json::Array{};
        for (const auto& members : groups) {
            json::Value group = json::Array{};
            for (std::size_t m : members)
                group.push_back(infos[m].entry.address);
            identical.push_back(std::move(group));
        }
        out["identical_groups"] = std::move(identical);
        json::Value errors = json::Array{};
        for (const auto& e : d.errors)
            errors.push_back(e);
        for (const GraphInfo& gi : infos)
            if (!gi.error.empty())
                errors.push_back(gi.error);
        out["errors"] = std::move(errors);
        std::cout << out.dump(json::Style::Pretty) << "\n";
    } else {
        for (const GraphInfo& gi : infos) {
            std::cout << gi.entry.address << "\n    " << io::graphKindName(gi.entry.kind) << "  " << gi.entry.group;
            if (!gi.loaded) {
                std::cout << "\n    ERROR: " << gi.error << "\n";
                continue;
            }
            const graph::Graph& g = gi.loaded->graph;
            std::cout << "  nodes " << g.nodes.size() << "  ops " << g.opCount() << "  hash " << hex(gi.hash).substr(0, 12)
                      << "\n    inputs:";
            for (const io::InputSpec& in : gi.loaded->inputs)
                std::cout << " " << in.name << ":" << (in.meta ? graph::formatAnnotation(*in.meta) : "?");
            if (std::string torch = io::writtenByTorch(gi.entry); !torch.empty())
                std::cout << "\n    written by torch " << torch;
            std::cout << "\n    ops:";
            for (const auto& [op, count] : opHistogram(g))
                std::cout << " " << op << "×" << count;
            std::cout << "\n";
            for (const auto& w : gi.loaded->warnings)
                std::cout << "    warning: " << w << "\n";
        }
        if (!groups.empty()) {
            std::cout << "\nstructurally identical graphs:\n";
            for (const auto& members : groups) {
                std::cout << " ";
                for (std::size_t m : members)
                    std::cout << " " << infos[m].entry.address;
                std::cout << "\n";
            }
        }
        for (const auto& e : d.errors)
            std::cout << "error: " << e << "\n";
        std::cout << "\n" << infos.size() << " graph(s), " << failed << " could not be loaded\n";
    }
    return failed == 0 && d.errors.empty() ? 0 : 2;
}

}  // namespace fxray::cli
