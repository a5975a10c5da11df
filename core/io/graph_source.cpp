// Discovery and loading of graphs from every dump format (see graph_source.h for the address scheme).
#include "io/graph_source.h"

#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/fx_parser.h"
#include "graph/repeat_scopes.h"
#include "io/compiled_autograd_meta.h"
#include "io/graph_module_pickle.h"
#include "io/symbol_hints.h"
#include "io/input_merge.h"
#include "io/input_pickle.h"
#include "io/ir_source.h"
#include "io/text_file.h"
#include "io/trace_log.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <filesystem>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <map>
#include <regex>

namespace fxray::io {
namespace fs = std::filesystem;

namespace {

// "<name>_<kind>_<i>" — the seed layout's folder and file stem.
struct SeedName {
    GraphKind kind = GraphKind::Unknown;
    int index = -1;
    std::string model;
};

// Digits from a file or folder name; nullopt when they do not fit an int.
std::optional<int> smallInt(const std::string& digits)
{
    int v = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || ptr != digits.data() + digits.size())
        return std::nullopt;
    return v;
}

std::optional<SeedName> parseSeedName(const std::string& folder)
{
    static const std::regex re(R"(^(.*)_(forward|backward|joint|inference)_(\d+)$)");
    std::smatch m;
    if (!std::regex_match(folder, m, re))
        return std::nullopt;
    SeedName n;
    n.model = m[1];
    const std::string kind = m[2];
    n.kind = kind == "forward" ? GraphKind::Forward
             : kind == "backward" ? GraphKind::Backward
             : kind == "joint" ? GraphKind::Joint
                               : GraphKind::Inference;
    auto index = smallInt(m[3]);
    if (!index)
        return std::nullopt;
    n.index = *index;
    return n;
}

// The single file in `dir` whose name ends in `suffix`, if there is exactly one.
std::optional<std::string> onlyFileEndingIn(const fs::path& dir, std::string_view suffix)
{
    std::optional<std::string> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string f = it->path().filename().string();
        if (f.size() > suffix.size() && f.ends_with(suffix)) {
            if (found)
                return std::nullopt;
            found = f.substr(0, f.size() - suffix.size());
        }
    }
    return found;
}

// The stem of a seed dump's files: the folder's name, or in a copied or renamed folder (x_forward_0/ holding
// y_forward_0.input) the stem of its single .input (else .readable.py) file, with a warning: metadata must not be
// lost silently because a folder was renamed.
std::string seedStem(const fs::path& dir, std::vector<std::string>& warnings)
{
    const std::string name = dir.filename().string();
    std::error_code ec;
    if (fs::exists(dir / (name + ".input"), ec) || fs::exists(dir / (name + ".readable.py"), ec))
        return name;
    for (std::string_view suffix : {".input", ".readable.py"}) {
        if (auto stem = onlyFileEndingIn(dir, suffix)) {
            warnings.push_back(dir.string() + ": the folder is named '" + name + "' but its dump files are '" + *stem +
                               ".*'; using those");
            return *stem;
        }
    }
    return name;
}

bool isSeedDumpFolder(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_regular_file(dir / "module.py", ec))
        return false;
    const std::string name = dir.filename().string();
    return fs::exists(dir / (name + ".input"), ec) || fs::exists(dir / (name + ".readable.py"), ec) ||
           parseSeedName(name).has_value() || onlyFileEndingIn(dir, ".input").has_value();
}

bool isCompileDebugFolder(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(dir / "fx_graph_readable.py", ec) || fs::is_regular_file(dir / "fx_graph_runnable.py", ec);
}

GraphKind compileDebugKind(const std::string& folder)
{
    // model__0_forward_1.0 / model__1_backward_3.2 / model__0_inference_0.0
    if (folder.find("_forward_") != std::string::npos)
        return GraphKind::Forward;
    if (folder.find("_backward_") != std::string::npos)
        return GraphKind::Backward;
    if (folder.find("_inference_") != std::string::npos)
        return GraphKind::Inference;
    return GraphKind::Unknown;
}

GraphKind traceRecordKind(const std::string& record)
{
    static const std::map<std::string, GraphKind> kKinds = {
        {"aot_forward_graph", GraphKind::Forward},     {"aot_backward_graph", GraphKind::Backward},
        {"aot_joint_graph", GraphKind::Joint},         {"aot_inference_graph", GraphKind::Inference},
        {"dynamo_output_graph", GraphKind::Dynamo},    {"before_pre_grad_graph", GraphKind::PreGrad},
        {"after_pre_grad_graph", GraphKind::PreGrad},  {"before_post_grad_graph", GraphKind::PostGrad},
        {"inductor_post_grad_graph", GraphKind::PostGrad}, {"fx_graph_runnable", GraphKind::Runnable},
        {"inductor_pre_grad_graph", GraphKind::PreGrad},   {"after_post_grad_graph", GraphKind::PostGrad},
        {"before_recompile_pre_grad", GraphKind::PreGrad}, {"after_recompile_pre_grad", GraphKind::PreGrad},
        {"before_recompile_post_grad", GraphKind::PostGrad}, {"after_recompile_post_grad", GraphKind::PostGrad},
        {"compiled_autograd_graph", GraphKind::CompiledAutograd},
    };
    auto it = kKinds.find(record);
    return it == kKinds.end() ? GraphKind::Unknown : it->second;
}

std::string selectorFor(const TraceOrigin& o)
{
    std::string s;
    if (o.rank >= 0)
        s += "r" + std::to_string(o.rank) + ":";
    if (o.frameId < 0 && o.compiledAutogradId >= 0)
        s += "!" + std::to_string(o.compiledAutogradId);  // a compiled-autograd graph belongs to no frame
    else if (o.frameId < 0)
        s += "-";  // nor does torch.export's exported_program
    else
        s += std::to_string(o.frameId) + "/" + std::to_string(o.frameCompileId);
    if (o.attempt != 0)
        s += "_" + std::to_string(o.attempt);
    s += "/" + o.record;
    if (o.ordinal > 0)
        s += "." + std::to_string(o.ordinal);
    return s;
}

// Graph records of one log, with their (stable) origins.
std::vector<std::pair<TraceOrigin, std::size_t>> traceGraphs(const TraceLog& log)
{
    std::vector<std::pair<TraceOrigin, std::size_t>> out;
    std::map<std::string, int> seen;
    for (const TraceGraphRecord& g : graphRecords(log)) {
        const TraceRecord& r = log.records[g.index];
        TraceOrigin o;
        o.rank = log.rank;
        o.frameId = r.frameId;
        o.frameCompileId = r.frameCompileId;
        o.attempt = r.attempt;
        o.compiledAutogradId = r.compiledAutogradId;
        o.record = g.name;
        o.line = r.line;
        TraceOrigin keyOrigin = o;
        o.ordinal = seen[selectorFor(keyOrigin)]++;
        out.emplace_back(o, g.index);
    }
    return out;
}

// A log's index (payloads left in the file) and its graphs, shared by discovery and every load of a graph in it:
// `fxray info` on a log of 12,000 graphs reads it once, not once per graph, and opening one graph of a 1 GB log
// reads that graph's payload, not the log. Kept while the file is unchanged (size and modification time).
struct IndexedLog {
    TraceLog log;
    std::vector<std::pair<TraceOrigin, std::size_t>> graphs;
    std::unordered_map<std::string, std::size_t> bySelector;  // selectorFor(origin) -> record index
};

std::shared_ptr<const IndexedLog> indexedLog(const std::string& path)
{
    struct Key {
        std::string path;
        std::uintmax_t size = 0;
        fs::file_time_type time;
        bool operator==(const Key&) const = default;
    };
    constexpr std::size_t kKept = 4;  // logs of a folder of ranks are opened one after another
    static std::mutex mutex;
    static std::list<std::pair<Key, std::shared_ptr<const IndexedLog>>> cache;  // most recent first
    std::error_code ec;
    Key key{path, fs::file_size(path, ec), {}};
    if (!ec)
        key.time = fs::last_write_time(path, ec);
    const std::lock_guard<std::mutex> lock(mutex);  // two loads of one log wait for one index
    if (!ec)
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->first == key) {
                cache.splice(cache.begin(), cache, it);
                return cache.front().second;
            }
    auto index = std::make_shared<IndexedLog>();
    index->log = readTraceLog(path, /*keepPayloads=*/false);
    index->graphs = traceGraphs(index->log);
    for (const auto& [origin, record] : index->graphs)
        index->bySelector.emplace(selectorFor(origin), record);
    if (!ec) {
        cache.emplace_front(key, index);
        if (cache.size() > kKept)
            cache.pop_back();
    }
    return index;
}

// The record of the graph `selector` names, or nullptr.
const TraceRecord* graphRecord(const IndexedLog& index, const std::string& selector)
{
    const auto it = index.bySelector.find(selector);
    return it == index.bySelector.end() ? nullptr : &index.log.records[it->second];
}

// The entry of the graph `origin` names inside the log at logPath (discovered, or named by an address).
GraphEntry traceEntry(const std::string& logPath, const TraceOrigin& origin)
{
    GraphEntry e;
    e.format = SourceFormat::TraceLog;
    e.path = logPath;
    e.address = logPath + "#" + selectorFor(origin);
    e.group = origin.compileId();
    e.title = origin.record + (origin.ordinal > 0 ? "." + std::to_string(origin.ordinal) : "");
    e.kind = traceRecordKind(origin.record);
    e.trace = origin;
    return e;
}

void addTraceEntries(const std::string& logPath, Discovery& d)
{
    const std::shared_ptr<const IndexedLog> index = indexedLog(logPath);
    const TraceLog& log = index->log;
    for (const auto& [origin, record] : index->graphs) {
        (void)record;
        d.graphs.push_back(traceEntry(logPath, origin));
    }
    // A damaged graph record, and also a header that did not parse or payload lines with no header: either
    // may be a graph that is lost, so the log is reported as damaged rather than listed as if whole.
    for (const TraceRecord& r : log.records)
        if ((r.isGraph || r.kind.empty()) && !r.error.empty())
            d.errors.push_back(r.error);
    for (const TraceDiagnostic& diag : log.diagnostics)
        d.errors.push_back(diag.message);
}

GraphEntry seedEntry(const std::string& dirPath)
{
    GraphEntry e;
    e.format = SourceFormat::SeedDump;
    e.path = dirPath;
    e.address = dirPath;
    const std::string name = fs::path(dirPath).filename().string();
    e.title = name;
    if (auto s = parseSeedName(name)) {
        e.kind = s->kind;
        e.index = s->index;
        e.group = s->model;
    } else {
        e.group = fs::path(dirPath).parent_path().filename().string();
    }
    return e;
}

GraphEntry compileDebugEntry(const std::string& dirPath)
{
    GraphEntry e;
    e.format = SourceFormat::CompileDebug;
    e.path = dirPath;
    e.address = dirPath;
    fs::path p(dirPath);
    e.title = p.filename().string();
    e.kind = compileDebugKind(e.title);
    // <run_...>/torchinductor/<model folder>: the run names the group.
    e.group = p.parent_path().parent_path().filename().string();
    return e;
}

GraphEntry pythonEntry(const std::string& filePath)
{
    GraphEntry e;
    e.format = SourceFormat::PythonFile;
    e.path = filePath;
    e.address = filePath;
    e.title = fs::path(filePath).filename().string();
    e.group = fs::path(filePath).parent_path().filename().string();
    const std::string stem = fs::path(filePath).stem().string();
    std::string base = stem.ends_with(".readable") ? stem.substr(0, stem.size() - 9) : stem;
    if (auto s = parseSeedName(base)) {
        e.kind = s->kind;
        e.index = s->index;
    }
    return e;
}

void walk(const fs::path& dir, Discovery& d, int depth, std::set<fs::path>& visited)
{
    if (depth > 32)
        return;  // absurd trees
    // Symlinked directories are followed once: a link to an ancestor must not make the walk exponential.
    std::error_code cec;
    if (!visited.insert(fs::canonical(dir, cec)).second)
        return;
    if (isSeedDumpFolder(dir)) {
        d.graphs.push_back(seedEntry(dir.lexically_normal().string()));
        return;
    }
    if (isCompileDebugFolder(dir)) {
        d.graphs.push_back(compileDebugEntry(dir.lexically_normal().string()));
        return;
    }
    std::vector<fs::directory_entry> entries;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        entries.push_back(*it);
    if (ec) {
        d.errors.push_back(formatError("cannot list directory: " + ec.message(), fileLocation(dir.string()), {}));
        return;
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
    for (const auto& e : entries) {
        std::error_code fe;
        if (e.is_directory(fe)) {
            walk(e.path(), d, depth + 1, visited);
        } else if (e.is_regular_file(fe)) {
            const std::string name = e.path().filename().string();
            const bool candidate = name.starts_with("dedicated_log_torch_trace") || e.path().extension() == ".log";
            if (hasIrFileName(name)) {
                if (auto format = sniffIrFile(e.path().string()))
                    d.graphs.push_back(irEntry(e.path().lexically_normal().string(), *format));
            } else if (candidate && looksLikeTraceLog(e.path().string())) {
                try {
                    addTraceEntries(e.path().lexically_normal().string(), d);
                } catch (const Error& err) {
                    d.errors.push_back(err.what());
                }
            }
        }
    }
}

// Warns unless `code` (module.py: no annotations, no stack traces) is `annotated` without its metadata. The
// annotated graph's metadata (its subgraphs' too: print_readable's nested classes against to_folder's pickled
// GraphModules) is set aside for the comparison and put back, instead of comparing a stripped copy.
struct SetAside {
    std::vector<std::optional<graph::ValueMeta>> metas;
    std::vector<int> stacks;
    std::vector<SetAside> subgraphs;
};

SetAside setAsideMetadata(graph::Graph& g)
{
    SetAside saved;
    for (auto& n : g.nodes) {
        saved.metas.push_back(std::move(n.meta));
        n.meta.reset();
        saved.stacks.push_back(std::exchange(n.stack, -1));
    }
    for (auto& sub : g.subgraphs)
        saved.subgraphs.push_back(setAsideMetadata(sub.graph));
    return saved;
}

void putBackMetadata(graph::Graph& g, SetAside& saved)
{
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        g.nodes[i].meta = std::move(saved.metas[i]);
        g.nodes[i].stack = saved.stacks[i];
    }
    for (std::size_t k = 0; k < g.subgraphs.size(); ++k)
        putBackMetadata(g.subgraphs[k].graph, saved.subgraphs[k]);
}

void checkSameGraph(graph::Graph& annotated, graph::Graph code, const std::string& prefix, std::vector<std::string>& warnings)
{
    SetAside saved = setAsideMetadata(annotated);
    setAsideMetadata(code);
    code.className = annotated.className;
    code.outputForm = annotated.outputForm;
    code.pytreeInputs = annotated.pytreeInputs;
    // Subgraphs by name: print_readable writes the nested classes in its own order.
    std::sort(code.subgraphs.begin(), code.subgraphs.end(), [&](const graph::Subgraph& a, const graph::Subgraph& b) {
        auto at = [&](const std::string& name) {
            for (std::size_t k = 0; k < annotated.subgraphs.size(); ++k)
                if (annotated.subgraphs[k].name == name)
                    return k;
            return annotated.subgraphs.size();
        };
        return at(a.name) < at(b.name);
    });
    std::string why;
    const bool same = graph::graphsEqual(annotated, code, &why);
    putBackMetadata(annotated, saved);
    if (!same)
        warnings.push_back(prefix + why);
}

LoadedGraph loadSeed(const GraphEntry& entry)
{
    LoadedGraph lg;
    lg.entry = entry;
    fs::path dir(entry.path);
    const std::string name = seedStem(dir, lg.warnings);
    const fs::path readable = dir / (name + ".readable.py");
    const fs::path module = dir / "module.py";
    std::error_code ec;
    if (fs::exists(readable, ec)) {
        // module.py is what functorch wrote; the readable file adds metadata. They must be the same graph. Both are
        // parsed at once (module.py on a second thread): a big dump's load is mostly these two parses.
        std::vector<std::string> codeWarnings;  // before `code`: the thread writes it until code's end
        std::future<graph::Graph> code;
        if (fs::exists(module, ec))
            code = std::async(std::launch::async, [path = module.string(), dir = dir.string(), &codeWarnings] {
                graph::Graph g = graph::parseFxModule(readTextFile(path), {path, 1}).graph;
                addPickledSubgraphs(g, dir, codeWarnings);  // to compare them with the readable's nested classes
                return g;
            });
        lg.graph = graph::parseFxModule(readTextFile(readable.string()), {readable.string(), 1}).graph;
        if (code.valid()) {
            checkSameGraph(lg.graph, code.get(), readable.string() + " and module.py differ: ", lg.warnings);
            lg.warnings.insert(lg.warnings.end(), codeWarnings.begin(), codeWarnings.end());
        }
    } else {
        // functorch's graph_dumper_aot writes no readable file: the subgraphs of higher-order ops (flex_attention's
        // score_mod / mask_mod) are only in the GraphModules to_folder pickled beside module.py.
        lg.graph = graph::parseFxModule(readTextFile(module.string()), {module.string(), 1}).graph;
        addPickledSubgraphs(lg.graph, dir.string(), lg.warnings);
    }
    std::optional<std::vector<graph::ValueMeta>> pickled;
    const fs::path input = dir / (name + ".input");
    if (fs::exists(input, ec))
        pickled = readInputPickle(input.string());
    lg.inputs = mergeInputMetadata(lg.graph, pickled, input.string(), {}, lg.warnings);
    if (fs::exists(dir / (name + ".pt"), ec))
        lg.savedInputsPath = (dir / (name + ".pt")).string();
    if (fs::exists(dir / (name + ".expected.pt"), ec))
        lg.expectedOutputsPath = (dir / (name + ".expected.pt")).string();
    if (fs::exists(dir / (name + ".rng.pt"), ec))
        lg.rngStatePath = (dir / (name + ".rng.pt")).string();
    if (fs::exists(dir / "state_dict.pt", ec))
        lg.stateDictPath = (dir / "state_dict.pt").string();
    // The module hierarchy: optional, so a missing sidecar is silent and a broken one only a warning.
    const fs::path sidecar = dir / "node_meta.json";
    if (fs::exists(sidecar, ec)) {
        try {
            lg.modules = graph::parseNodeMeta(lg.graph, readTextFile(sidecar.string()), sidecar.string());
        } catch (const Error& e) {
            lg.warnings.push_back(formatError(e.message(), e.where(), e.excerpt()) + " (module hierarchy from parameter names instead)");
        }
    }
    return lg;
}

LoadedGraph loadCompileDebug(const GraphEntry& entry)
{
    LoadedGraph lg;
    lg.entry = entry;
    fs::path dir(entry.path);
    const fs::path readable = dir / "fx_graph_readable.py";
    const fs::path runnable = dir / "fx_graph_runnable.py";
    std::error_code ec;
    std::vector<graph::LoadArgsInput> loadArgs;
    if (fs::exists(runnable, ec)) {
        graph::ParsedModule m = graph::parseFxModule(readTextFile(runnable.string()), {runnable.string(), 1});
        loadArgs = std::move(m.loadArgs);
        lg.graph = std::move(m.graph);
    }
    if (fs::exists(readable, ec))
        lg.graph = graph::parseFxModule(readTextFile(readable.string()), {readable.string(), 1}).graph;
    lg.inputs = mergeInputMetadata(lg.graph, std::nullopt, {}, loadArgs, lg.warnings);
    return lg;
}

LoadedGraph loadPython(const GraphEntry& entry)
{
    LoadedGraph lg;
    lg.entry = entry;
    graph::ParsedModule m = graph::parseFxModule(readTextFile(entry.path), {entry.path, 1});
    lg.graph = std::move(m.graph);
    lg.inputs = mergeInputMetadata(lg.graph, std::nullopt, {}, m.loadArgs, lg.warnings);
    return lg;
}

// Whether a runnable's node and the node of the same name in an annotated record of its compile are one call.
// before_post_grad_graph is logged after inductor's view_to_reshape pass, which renames no node but makes every
// aten.view an aten.reshape (the replay runs the runnable's views so: PlanOptions::viewAsReshape): its reshape's
// recorded layout is the one the runnable's view makes from inductor's input layouts (ShuffleNet's channel shuffle
// after a channels-last convolution backward: [768, 2, 1, 384, 192]), where the AOT graph's, the fallback, assumed
// contiguous inputs ([768, 8, 4, 2, 1]).
bool sameRunnableTarget(const graph::Target& runnable, const graph::Target& annotated)
{
    if (runnable.str() == annotated.str())
        return true;
    return runnable.kind == graph::Target::Kind::Op && annotated.kind == graph::Target::Kind::Op &&
           runnable.str() == "aten.view.default" && annotated.str() == "aten.reshape.default";
}

// fx_graph_runnable's code carries no annotations, but the same compile logs the same graph annotated: as
// before_post_grad_graph (same ordinal) when post-grad passes ran, and always as the AOT graph it came from (the
// compile's first runnable is the forward or inference graph, the second the backward). Node dtype/shape/stride
// are borrowed where name and target agree, so the runnable's intermediate values are checked and its inputs'
// value domains inferred (a gather's index range needs the gathered tensor's size). Its higher-order ops' subgraphs
// are not in it at all (after_aot's NNModuleToString writes `self.sdpa_score0 = <lambda>()`, the GraphModule's
// repr): they are taken from the first of those records that holds them as nested classes (the same GraphModules).
void borrowRunnableMeta(graph::Graph& g, const IndexedLog& index, const TraceOrigin& origin)
{
    const std::string runnable = selectorFor(origin);
    const std::size_t at = runnable.rfind("fx_graph_runnable");
    if (at == std::string::npos)
        return;
    const std::string prefix = runnable.substr(0, at);
    const std::string suffix = runnable.substr(at + std::string("fx_graph_runnable").size());  // "" or ".1"
    std::vector<std::string> sources = {prefix + "before_post_grad_graph" + suffix, prefix + "inductor_post_grad_graph" + suffix};
    if (suffix.empty()) {
        sources.push_back(prefix + "aot_forward_graph");
        sources.push_back(prefix + "aot_inference_graph");
    } else if (suffix == ".1") {
        sources.push_back(prefix + "aot_backward_graph");
    }
    for (const std::string& want : sources) {
        const TraceRecord* r = graphRecord(index, want);
        if (!r || !r->payloadOk)
            continue;
        graph::Graph annotated;
        try {
            annotated = graph::parseFxModule(tracePayload(index.log, *r), {index.log.path, r->payloadLine}).graph;
        } catch (const Error&) {
            continue;  // the runnable stays as logged: its own load does not depend on this record
        }
        for (graph::Node& n : g.nodes) {
            const int k = n.meta ? -1 : annotated.findNode(n.name);
            if (k >= 0 && sameRunnableTarget(n.target, annotated.nodes[static_cast<std::size_t>(k)].target))
                n.meta = annotated.nodes[static_cast<std::size_t>(k)].meta;
        }
        for (graph::Subgraph& sub : annotated.subgraphs) {
            const bool read = std::any_of(g.nodes.begin(), g.nodes.end(), [&](const graph::Node& n) {
                return n.kind == graph::NodeKind::GetAttr && n.attr == sub.name;
            });
            const bool have = std::any_of(g.subgraphs.begin(), g.subgraphs.end(), [&](const graph::Subgraph& s) { return s.name == sub.name; });
            if (read && !have)
                g.subgraphs.push_back(std::move(sub));
        }
    }
}

// The placeholder names of the Dynamo graph of `origin`'s compile: an AOT graph's `PlainAOTInput(idx=i)` input is
// its input i, whose name says which parameter it is. Empty when the log has none or it does not parse.
std::vector<std::string> dynamoInputNames(const IndexedLog& index, const TraceOrigin& origin)
{
    std::vector<std::string> names;
    if (origin.record == "dynamo_output_graph" || origin.frameId < 0)
        return names;
    TraceOrigin dynamo = origin;  // the first dynamo_output_graph of the same compile and attempt
    dynamo.record = "dynamo_output_graph";
    dynamo.ordinal = 0;
    const TraceRecord* r = graphRecord(index, selectorFor(dynamo));
    if (!r || !r->payloadOk)
        return names;
    try {
        const graph::Graph g = graph::parseFxModule(tracePayload(index.log, *r), {index.log.path, r->payloadLine}).graph;
        for (int p : g.placeholders())
            names.push_back(g.nodes[static_cast<std::size_t>(p)].name);
    } catch (const Error&) {
        names.clear();
    }
    return names;
}

LoadedGraph loadTrace(const GraphEntry& entry)
{
    if (!entry.trace)
        throw Error("trace entry without an origin", fileLocation(entry.path));
    const std::shared_ptr<const IndexedLog> index = indexedLog(entry.path);
    const TraceLog& log = index->log;
    const auto found = index->bySelector.find(selectorFor(*entry.trace));
    if (found == index->bySelector.end())
        throw Error("no graph '" + selectorFor(*entry.trace) + "' in this log (see `fxray info " + entry.path + "`)",
                    fileLocation(entry.path));
    const TraceRecord& r = log.records[found->second];
    if (!r.payloadOk) {
        if (r.error.empty())  // r.error already names path:line
            throw Error("payload of this record is damaged", fileLocation(entry.path, r.line));
        throw Error(r.error);
    }
    LoadedGraph lg;
    lg.entry = entry;
    graph::ParsedModule m;
    try {
        m = graph::parseFxModule(tracePayload(log, r), {entry.path, r.payloadLine});
    } catch (const Error& e) {
        // The payload is the log's lines less their leading tab: columns in the log are one further on.
        SourceLocation where = e.where();
        if (where.column > 0)
            ++where.column;
        throw Error(e.message(), where, e.excerpt());
    }
    lg.graph = std::move(m.graph);
    if (!r.warning.empty())
        lg.warnings.push_back(r.warning);
    if (entry.kind == GraphKind::CompiledAutograd)  // its payload has no annotations: see compiled_autograd_meta.h
        annotateCompiledAutograd(lg.graph, log, found->second, lg.warnings);
    if (entry.kind == GraphKind::Runnable)
        borrowRunnableMeta(lg.graph, *index, *entry.trace);
    lg.inputs = mergeInputMetadata(lg.graph, std::nullopt, {}, m.loadArgs, lg.warnings);
    lg.modules = graph::deriveModuleScopes(lg.graph, dynamoInputNames(*index, *entry.trace));
    if (entry.trace->frameId >= 0)
        lg.symbolHints = symbolHints(log, entry.trace->frameId, entry.trace->frameCompileId);
    return lg;
}

// "r1:0/0_1/aot_forward_graph.2" -> origin
TraceOrigin parseSelector(const std::string& sel, const std::string& path)
{
    static const std::regex re(R"(^(?:r(\d+):)?(?:(\d+)/(\d+)|!(\d+)|-)(?:_(\d+))?/([A-Za-z0-9_]+)(?:\.(\d+))?$)");
    std::smatch m;
    if (!std::regex_match(sel, m, re))
        throw Error("bad graph selector '" + sel + "' (expected e.g. 0/0/aot_forward_graph)", fileLocation(path));
    auto number = [&](int group, int fallback) {
        if (!m[static_cast<std::size_t>(group)].matched)
            return fallback;
        auto v = smallInt(m[static_cast<std::size_t>(group)]);
        if (!v)
            throw Error("number out of range in graph selector '" + sel + "'", fileLocation(path));
        return *v;
    };
    TraceOrigin o;
    o.rank = number(1, traceLogRank(path));
    o.compiledAutogradId = number(4, -1);
    o.frameId = number(2, -1);
    o.frameCompileId = number(3, -1);
    o.attempt = number(5, 0);
    o.record = m[6];
    o.ordinal = number(7, 0);
    return o;
}

}  // namespace

std::shared_ptr<const TraceLog> traceLogIndex(const std::string& path)
{
    std::shared_ptr<const IndexedLog> index = indexedLog(path);
    return std::shared_ptr<const TraceLog>(index, &index->log);
}

std::string TraceOrigin::compileId() const
{
    std::string s = "[";
    if (rank >= 0)
        s += "r" + std::to_string(rank) + ":";
    if (frameId < 0 && compiledAutogradId >= 0)
        s += "!" + std::to_string(compiledAutogradId);
    else if (frameId < 0)
        s += "-";
    else
        s += std::to_string(frameId) + "/" + std::to_string(frameCompileId);
    if (attempt != 0)
        s += "_" + std::to_string(attempt);
    return s + "]";
}

std::string_view graphKindName(GraphKind k)
{
    switch (k) {
    case GraphKind::Forward: return "forward";
    case GraphKind::Backward: return "backward";
    case GraphKind::Joint: return "joint";
    case GraphKind::Inference: return "inference";
    case GraphKind::Dynamo: return "dynamo";
    case GraphKind::PreGrad: return "pre_grad";
    case GraphKind::PostGrad: return "post_grad";
    case GraphKind::Runnable: return "runnable";
    case GraphKind::CompiledAutograd: return "compiled_autograd";
    case GraphKind::Unknown: return "unknown";
    }
    return "unknown";
}

std::string_view sourceFormatName(SourceFormat f)
{
    switch (f) {
    case SourceFormat::SeedDump: return "seed";
    case SourceFormat::TraceLog: return "trace";
    case SourceFormat::CompileDebug: return "compile-debug";
    case SourceFormat::PythonFile: return "python";
    case SourceFormat::TorchScript: return "torchscript";
    case SourceFormat::LazyIr: return "ltc-ir";
    case SourceFormat::LazyDot: return "ltc-dot";
    }
    return "";
}

std::string_view metaSourceName(MetaSource s)
{
    switch (s) {
    case MetaSource::InputPickle: return "input-pickle";
    case MetaSource::Annotation: return "annotation";
    case MetaSource::LoadArgs: return "load_args";
    case MetaSource::None: return "none";
    }
    return "";
}

namespace {
std::optional<GraphEntry> traceAddressEntry(const std::string& address);
}

Discovery discover(const std::string& pathText)
{
    if (pathText.empty())
        throw Error("empty path");
    if (auto e = traceAddressEntry(pathText)) {
        Discovery single;
        single.graphs.push_back(std::move(*e));
        return single;
    }
    fs::path path(pathText);
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw Error("no such file or directory", fileLocation(pathText));
    Discovery d;
    if (fs::is_directory(path, ec)) {
        std::set<fs::path> visited;
        walk(path, d, 0, visited);
        if (d.graphs.empty()) {
            std::string msg = "no graphs found (looked for seed dump folders, TORCH_TRACE logs, "
                              "TORCH_COMPILE_DEBUG directories and *.ts.txt, *.torchscript, *.ltc.txt, *.ltc.dot files)";
            if (!d.errors.empty())
                msg += "; " + std::to_string(d.errors.size()) + " file(s) could not be read:\n" + d.errors.front();
            throw Error(msg, fileLocation(pathText));
        }
        return d;
    }
    // A single file.
    const std::string name = path.filename().string();
    if (name == "module.py" || path.extension() == ".input" || (path.extension() == ".pt" && isSeedDumpFolder(path.parent_path()))) {
        if (isSeedDumpFolder(path.parent_path())) {
            d.graphs.push_back(seedEntry(path.parent_path().lexically_normal().string()));
            return d;
        }
    }
    if (path.extension() == ".py") {
        d.graphs.push_back(pythonEntry(path.lexically_normal().string()));
        return d;
    }
    if (looksLikeTraceLog(pathText)) {
        addTraceEntries(path.lexically_normal().string(), d);
        if (d.graphs.empty())
            throw Error("TORCH_TRACE log holds no graph records" +
                            (d.errors.empty() ? std::string() : ":\n" + d.errors.front()),
                        fileLocation(pathText));
        return d;
    }
    if (auto format = sniffIrFile(pathText)) {
        d.graphs.push_back(irEntry(path.lexically_normal().string(), *format));
        return d;
    }
    throw Error("not a graph file (expected a dump folder, a TORCH_TRACE log, a TORCH_COMPILE_DEBUG directory, a .py file, "
                "TorchScript IR text or a lazy-tensor IR dump)",
                fileLocation(pathText));
}

namespace {

LoadedGraph loadAnyGraph(const GraphEntry& entry)
{
    switch (entry.format) {
    case SourceFormat::SeedDump: return loadSeed(entry);
    case SourceFormat::CompileDebug: return loadCompileDebug(entry);
    case SourceFormat::PythonFile: return loadPython(entry);
    case SourceFormat::TraceLog: return loadTrace(entry);
    case SourceFormat::TorchScript:
    case SourceFormat::LazyIr:
    case SourceFormat::LazyDot: return loadIrFile(entry);
    }
    throw Error("unknown graph source", fileLocation(entry.path));
}

}  // namespace

LoadedGraph loadGraph(const GraphEntry& entry)
{
    LoadedGraph lg = loadAnyGraph(entry);
    if (lg.modules.source == graph::ModuleScopes::Source::None)
        lg.modules = graph::deriveModuleScopes(lg.graph);
    // Nothing names the modules (functorch's own dumper, compile-debug dumps, TorchScript): the hierarchy of
    // repeated statements, which every dump with stack-trace comments or ops in program order has.
    if (lg.modules.source == graph::ModuleScopes::Source::None)
        lg.modules = graph::inferRepeatScopes(lg.graph);
    return lg;
}

namespace {

// "log#selector" -> the entry it names, without reading the log; nullopt when the text is not such an address.
std::optional<GraphEntry> traceAddressEntry(const std::string& address)
{
    std::size_t hash = address.rfind('#');
    std::error_code ec;
    if (hash == std::string::npos || fs::exists(address, ec))
        return std::nullopt;
    const std::string logPath = fs::path(address.substr(0, hash)).lexically_normal().string();
    if (!fs::exists(logPath, ec))
        throw Error("no such file or directory", fileLocation(logPath));
    return traceEntry(logPath, parseSelector(address.substr(hash + 1), logPath));
}

}  // namespace

std::optional<std::string> forwardPartnerAddress(const GraphEntry& e)
{
    const std::size_t hash = e.address.rfind('#');
    if ((e.kind == GraphKind::PostGrad || e.kind == GraphKind::Runnable) && hash != std::string::npos) {
        // Inductor compiles a training step's forward, then its backward, logging each one's graphs: the second
        // post-grad (or runnable) graph of a compile is the backward, reading the first one's saved activations.
        if (e.address.ends_with(".1"))
            return e.address.substr(0, e.address.size() - 2);
        return std::nullopt;
    }
    if (e.kind != GraphKind::Backward)
        return std::nullopt;
    if (hash != std::string::npos) {
        const std::string record = "aot_backward_graph";
        const std::size_t at = e.address.rfind(record);
        if (at == std::string::npos || at < hash)
            return std::nullopt;
        return e.address.substr(0, at) + "aot_forward_graph" + e.address.substr(at + record.size());
    }
    const fs::path dir(e.address);
    const std::string name = dir.filename().string();
    const std::size_t at = name.rfind("_backward_");
    if (at == std::string::npos)
        return std::nullopt;
    const fs::path forward = dir.parent_path() / (name.substr(0, at) + "_forward_" + name.substr(at + 10));
    std::error_code ec;
    if (!fs::is_directory(forward, ec))
        return std::nullopt;
    return forward.string();
}

LoadedGraph loadAddress(const std::string& address)
{
    if (auto e = traceAddressEntry(address))
        return loadGraph(*e);
    Discovery d = discover(address);
    if (d.graphs.size() != 1)
        throw Error(std::to_string(d.graphs.size()) + " graphs found here; name one by its address (see `fxray info " +
                        address + "`)",
                    fileLocation(address));
    return loadGraph(d.graphs.front());
}

}  // namespace fxray::io
