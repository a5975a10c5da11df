#include "io/graph_module_pickle.h"

#include "base/error.h"
#include "graph/fx_parser.h"
#include "io/pickle.h"
#include "io/zip_reader.h"

#include <filesystem>
#include <memory>
#include <set>
#include <string_view>

namespace fxray::io {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kReduce = "torch.fx.graph_module.reduce_graph_module";
constexpr int kMaxNesting = 16;  // subgraphs of subgraphs; a pickle whose modules nest deeper is refused

PickleOptions graphModuleOptions()
{
    PickleOptions o = defaultPickleOptions();
    o.allowedGlobals.insert(std::string(kReduce));
    // A GraphModule's __dict__ names its tracer class (torch.fx.experimental.proxy_tensor.PythonKeyTracer, dynamo's
    // SubgraphTracer, ...) and hook containers; they are only names here.
    o.allowedGlobalPrefixes = {"torch."};
    return o;
}

const PickleValue* dictItem(const Pickle& p, const PickleValue& dict, std::string_view key)
{
    for (const auto& [k, v] : dict.entries)
        if (p[k].kind == PickleKind::String && p[k].text == key)
            return &p[v];
    return nullptr;
}

// The __dict__ of a pickled GraphModule (the first argument of reduce_graph_module); nullptr for anything else.
const PickleValue* graphModuleBody(const Pickle& p, const PickleValue& v)
{
    if (v.kind != PickleKind::Call || v.callee == kNoPickleValue || v.args == kNoPickleValue)
        return nullptr;
    const PickleValue& callee = p[v.callee];
    if (callee.kind != PickleKind::Global || callee.qualifiedName() != kReduce)
        return nullptr;
    const PickleValue& args = p[v.args];
    if (args.kind != PickleKind::Tuple || args.items.empty() || p[args.items[0]].kind != PickleKind::Dict)
        return nullptr;
    return &p[args.items[0]];
}

// `_code` is `def forward(self, ...):` at module level; the FX parser reads the first class with a forward, so
// the code is put in one, named after the attribute (as print_readable names a nested subgraph class). Line
// numbers in errors are those of `_code` (the class line is line 0).
graph::Graph parseCode(const std::string& code, const std::string& name, const std::string& where)
{
    std::string text = "class " + name + "(torch.nn.Module):\n";
    std::size_t start = 0;
    while (start <= code.size()) {
        std::size_t end = code.find('\n', start);
        if (end == std::string::npos)
            end = code.size();
        const std::string_view line(code.data() + start, end - start);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos)
            text.append("    ").append(line);
        text += '\n';
        start = end + 1;
    }
    return graph::parseFxModule(text, {where, 0}).graph;
}

graph::Graph graphOf(const Pickle& p, const PickleValue& body, const std::string& name, const std::string& where, int depth)
{
    if (depth > kMaxNesting)
        throw Error("GraphModules nested more than " + std::to_string(kMaxNesting) + " deep", fileLocation(where));
    const PickleValue* code = dictItem(p, body, "_code");
    if (!code)
        code = dictItem(p, body, "code");  // torch < 1.8 named it `code` (reduce_graph_module still reads it)
    if (!code || code->kind != PickleKind::String)
        throw Error("pickled GraphModule '" + name + "' holds no `_code` string", fileLocation(where));
    graph::Graph g = parseCode(code->text, name, where + " (" + name + "._code)");
    if (const PickleValue* modules = dictItem(p, body, "_modules"); modules && modules->kind == PickleKind::Dict) {
        for (const auto& [k, v] : modules->entries) {
            const PickleValue* child = graphModuleBody(p, p[v]);
            if (p[k].kind != PickleKind::String || !child)
                continue;  // an ordinary module: a subgraph call would name it as unsupported
            g.subgraphs.push_back(graph::Subgraph{p[k].text, graphOf(p, *child, p[k].text, where, depth + 1)});
        }
    }
    return g;
}

}  // namespace

graph::Subgraph readPickledGraphModule(const std::string& path, const std::string& name)
{
    auto zip = std::make_shared<ZipReader>(path);
    const std::string pkl = zip->archivePrefix() + "/data.pkl";
    const Pickle p = parsePickle(zip->read(pkl), path, graphModuleOptions());
    const PickleValue* body = graphModuleBody(p, p.root());
    if (!body)
        throw Error("not a pickled GraphModule (reduce_graph_module): " + p.describe(p.rootId(), 120), fileLocation(path));
    return graph::Subgraph{name, graphOf(p, *body, name, path, 0)};
}

void addPickledSubgraphs(graph::Graph& g, const std::string& dir, std::vector<std::string>& warnings)
{
    std::set<std::string> have;
    for (const graph::Subgraph& s : g.subgraphs)
        have.insert(s.name);
    for (const graph::Node& n : g.nodes) {
        if (n.kind != graph::NodeKind::GetAttr || n.attr.find('.') != std::string::npos || have.contains(n.attr))
            continue;
        const fs::path pt = fs::path(dir) / (n.attr + ".pt");
        std::error_code ec;
        if (!fs::is_regular_file(pt, ec))
            continue;
        have.insert(n.attr);
        try {
            g.subgraphs.push_back(readPickledGraphModule(pt.string(), n.attr));
        } catch (const Error& e) {
            warnings.push_back(formatError(e.message(), e.where(), e.excerpt()) + " (self." + n.attr +
                               " is not read from it: an op that runs it says so)");
        }
    }
}

}  // namespace fxray::io
