#include "io/ir_source.h"

#include "graph/lazy_ir_parser.h"
#include "graph/torchscript_parser.h"
#include "io/input_merge.h"
#include "io/text_file.h"
#include "io/torchscript_importer.h"

#include <filesystem>
#include <fstream>
#include <cstring>

namespace fxray::io {
namespace fs = std::filesystem;

namespace {

TorchScriptImporter& importerSlot()
{
    static TorchScriptImporter importer;
    return importer;
}

std::string_view firstLine(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    for (;;) {
        const std::size_t start = text.find_first_not_of(" \t\r\n");
        if (start == std::string_view::npos)
            return {};
        text.remove_prefix(start);
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.starts_with("#"))  // comment lines before a TorchScript graph
            return line;
        if (end == std::string_view::npos)
            return {};
        text.remove_prefix(end);
    }
}

// The file name less its IR extension: "mlp.ts.txt" -> "mlp".
std::string stemOf(const std::string& path)
{
    std::string name = fs::path(path).filename().string();
    for (const char* ext : {".ts.txt", ".torchscript", ".ltc.txt", ".ltc.dot", ".txt", ".dot"})
        if (name.size() > std::strlen(ext) && name.ends_with(ext))
            return name.substr(0, name.size() - std::strlen(ext));
    return fs::path(path).stem().string();
}

// All arguments of a node in order, keyword ones after the positional ones (TorchScript passes them all by
// position; the importer names the keyword-only ones).
std::vector<graph::Arg> flatArgs(const graph::Node& n)
{
    std::vector<graph::Arg> out = n.args;
    for (const auto& kv : n.kwargs)
        out.push_back(kv.second);
    return out;
}

// Overload names and keyword-only arguments from the importer's graph onto fxray's, node by node; a disagreement
// is a warning (fxray's graph is kept: it has the source lines).
void takeOverloads(graph::Graph& g, const graph::Graph& imported, const std::string& path, std::vector<std::string>& warnings)
{
    if (imported.nodes.size() != g.nodes.size()) {
        warnings.push_back(path + ": LibTorch's parseIR gives " + std::to_string(imported.nodes.size()) +
                           " nodes, fxray's parser " + std::to_string(g.nodes.size()) + "; operator overloads not resolved");
        return;
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const graph::Node& a = g.nodes[i];
        const graph::Node& b = imported.nodes[i];
        if (a.name != b.name || a.kind != b.kind || a.target.kind != b.target.kind || a.target.ns != b.target.ns ||
            a.target.op != b.target.op || flatArgs(a) != flatArgs(b) || a.meta != b.meta) {
            warnings.push_back(path + ": LibTorch's parseIR and fxray's parser disagree at node '" + a.name + "' ('" +
                               b.name + "', " + b.target.str() + "); operator overloads not resolved");
            return;
        }
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].isOp()) {
            g.nodes[i].target.overload = imported.nodes[i].target.overload;
            g.nodes[i].args = imported.nodes[i].args;
            g.nodes[i].kwargs = imported.nodes[i].kwargs;
        }
}

}  // namespace

void setTorchScriptImporter(TorchScriptImporter importer) { importerSlot() = std::move(importer); }
const TorchScriptImporter& torchScriptImporter() { return importerSlot(); }

bool hasIrFileName(const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    return name.ends_with(".ts.txt") || name.ends_with(".torchscript") || name.ends_with(".ltc.txt") ||
           name.ends_with(".ltc.dot");
}

std::optional<SourceFormat> sniffIrFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    const std::string_view line = firstLine(head);
    if (line.starts_with("graph("))
        return SourceFormat::TorchScript;
    if (line.starts_with("IR {"))
        return SourceFormat::LazyIr;
    if (line.starts_with("digraph") && graph::looksLikeLazyDot(head))
        return SourceFormat::LazyDot;
    return std::nullopt;
}

GraphEntry irEntry(const std::string& path, SourceFormat format)
{
    GraphEntry e;
    e.format = format;
    e.path = path;
    e.address = path;
    e.title = fs::path(path).filename().string();
    e.group = fs::path(path).parent_path().filename().string();
    e.kind = GraphKind::Unknown;  // a TorchScript or lazy graph says nothing of forward/backward
    return e;
}

LoadedGraph loadIrFile(const GraphEntry& entry)
{
    LoadedGraph lg;
    lg.entry = entry;
    const std::string text = readTextFile(entry.path);
    switch (entry.format) {
    case SourceFormat::TorchScript: {
        lg.graph = graph::parseTorchScript(text, entry.path);
        if (const TorchScriptImporter& importer = torchScriptImporter()) {
            try {
                takeOverloads(lg.graph, importer(text, entry.path), entry.path, lg.warnings);
            } catch (const Error& e) {
                lg.warnings.push_back(std::string("LibTorch's parseIR cannot read this graph, so its operator overloads "
                                                  "are not resolved: ") + e.what());
            }
        }
        std::error_code ec;
        const fs::path stateDict = fs::path(entry.path).parent_path() / (stemOf(entry.path) + ".state_dict.pt");
        if (fs::is_regular_file(stateDict, ec))
            lg.stateDictPath = stateDict.string();
        break;
    }
    case SourceFormat::LazyIr: lg.graph = graph::parseLazyIrText(text, entry.path); break;
    case SourceFormat::LazyDot: lg.graph = graph::parseLazyIrDot(text, entry.path); break;
    default: throw Error("not a TorchScript or lazy-tensor IR source", fileLocation(entry.path));
    }
    lg.inputs = mergeInputMetadata(lg.graph, std::nullopt, {}, {}, lg.warnings);
    return lg;
}

}  // namespace fxray::io
