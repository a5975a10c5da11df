#include "worker/worker_protocol.h"

#include "base/error.h"
#include "graph/fx_parser.h"
#include "graph/printer.h"
#include "io/graph_source.h"

namespace fxray::worker {
namespace {

io::MetaSource metaSourceFromName(const std::string& name)
{
    for (io::MetaSource s : {io::MetaSource::InputPickle, io::MetaSource::Annotation, io::MetaSource::LoadArgs})
        if (io::metaSourceName(s) == name)
            return s;
    return io::MetaSource::None;
}

// A process without LibTorch (the GUI) reads TorchScript with fxray's own parser, which cannot name overloads
// ("aten::add" has several): the worker reads the file again through parseIR and takes each op node's overload
// by name. Minimizer candidates keep the original's node names, so this holds for them too.
// `a` of graph `from`, its node references pointing at the same-named nodes of `to` (ok=false when one is absent).
graph::Arg remapArg(const graph::Arg& a, const graph::Graph& from, const graph::Graph& to, bool& ok)
{
    graph::Arg out = a;
    if (a.kind == graph::Arg::Kind::Node) {
        out.node = to.findNode(from.nodes[static_cast<std::size_t>(a.node)].name);
        ok = ok && out.node >= 0;
    }
    out.items.clear();
    for (const graph::Arg& item : a.items)
        out.items.push_back(remapArg(item, from, to, ok));
    return out;
}

void resolveTorchScriptOverloads(graph::Graph& g, const std::string& address)
{
    bool missing = false;
    for (const graph::Node& n : g.nodes)
        missing = missing || (n.isOp() && n.target.overload.empty());
    if (!missing || address.empty())
        return;
    io::LoadedGraph original;
    try {
        original = io::loadAddress(address);
    } catch (const Error&) {
        return;  // the replay then names each op it cannot resolve
    }
    for (graph::Node& n : g.nodes) {
        if (!n.isOp() || !n.target.overload.empty())
            continue;
        const int k = original.graph.findNode(n.name);
        if (k < 0)
            continue;
        const graph::Node& from = original.graph.nodes[static_cast<std::size_t>(k)];
        if (from.target.op != n.target.op)
            continue;
        // The schema also says which trailing arguments are keyword-only (mean.dim's dtype): take the original's
        // arguments, their node references renamed into this graph.
        bool ok = true;
        std::vector<graph::Arg> args;
        std::vector<std::pair<std::string, graph::Arg>> kwargs;
        for (const graph::Arg& a : from.args)
            args.push_back(remapArg(a, original.graph, g, ok));
        for (const auto& [key, a] : from.kwargs)
            kwargs.emplace_back(key, remapArg(a, original.graph, g, ok));
        n.target.overload = from.target.overload;
        if (ok) {
            n.args = std::move(args);
            n.kwargs = std::move(kwargs);
        }
    }
}

}  // namespace

json::Value graphToJson(const io::LoadedGraph& g)
{
    json::Value j = json::Object{};
    j["address"] = g.entry.address;
    j["title"] = g.entry.title;
    j["kind"] = std::string(io::graphKindName(g.entry.kind));
    j["format"] = std::string(io::sourceFormatName(g.entry.format));
    j["file"] = g.graph.sourceFile.empty() ? g.entry.address : g.graph.sourceFile;
    j["text"] = graph::printReadable(g.graph);
    json::Value inputs = json::Array{};
    for (const io::InputSpec& s : g.inputs) {
        json::Value in = json::Object{};
        in["name"] = s.name;
        in["source"] = std::string(io::metaSourceName(s.source));
        if (s.meta) {
            in["meta"] = graph::formatAnnotation(*s.meta);
            // The annotation form has no storage offset; load_args records one.
            if (s.meta->isTensor() && s.meta->tensor.storageOffset)
                in["offset"] = s.meta->tensor.storageOffset->expr;
        }
        inputs.push_back(std::move(in));
    }
    j["inputs"] = std::move(inputs);
    j["saved_inputs"] = g.savedInputsPath;
    j["state_dict"] = g.stateDictPath;
    j["expected_outputs"] = g.expectedOutputsPath;
    j["rng_state"] = g.rngStatePath;
    json::Value hints = json::Object{};
    for (const auto& [k, v] : g.symbolHints)
        hints[k] = v;
    j["symbol_hints"] = std::move(hints);
    return j;
}

io::LoadedGraph graphFromJson(const json::Value& j)
{
    // {"address": ...} alone: a graph on disk the worker loads itself (scripts and the soak benchmark).
    if (!j["text"].isString() && j["address"].isString())
        return io::loadAddress(j["address"].asString());
    io::LoadedGraph g;
    g.entry.address = j.stringOr("address", "");
    g.entry.title = j.stringOr("title", "");
    g.entry.path = g.entry.address;
    const std::string kind = j.stringOr("kind", "unknown");
    for (io::GraphKind k : {io::GraphKind::Forward, io::GraphKind::Backward, io::GraphKind::Joint, io::GraphKind::Inference,
                            io::GraphKind::Dynamo, io::GraphKind::PreGrad, io::GraphKind::PostGrad, io::GraphKind::Runnable,
                            io::GraphKind::CompiledAutograd})
        if (io::graphKindName(k) == kind)
            g.entry.kind = k;
    graph::ParseOptions po;
    po.fileName = j.stringOr("file", "<request>");
    g.graph = graph::parseFxModule(j.stringOr("text", ""), po).graph;
    if (j.stringOr("format", "") == io::sourceFormatName(io::SourceFormat::TorchScript)) {
        g.entry.format = io::SourceFormat::TorchScript;
        resolveTorchScriptOverloads(g.graph, g.entry.address);
    }
    const auto placeholders = g.graph.placeholders();
    const json::Value& inputs = j["inputs"];
    if (!inputs.isArray() || inputs.size() != placeholders.size())
        throw Error("request: " + std::to_string(inputs.size()) + " input specs for " + std::to_string(placeholders.size()) +
                    " placeholders");
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const json::Value& in = inputs[k];
        io::InputSpec s;
        s.name = in.stringOr("name", "");
        s.source = metaSourceFromName(in.stringOr("source", "none"));
        if (in["meta"].isString()) {
            s.meta = graph::parseAnnotation(in["meta"].asString(), SourceLocation{po.fileName, 0, 0, s.name});
            if (in["offset"].isString() && s.meta->isTensor()) {
                const std::string& off = in["offset"].asString();
                bool digits = !off.empty() && off.find_first_not_of("0123456789") == std::string::npos;
                s.meta->tensor.storageOffset = digits ? graph::SymDim::constant(std::stoll(off)) : graph::SymDim::symbolic(off);
            }
        }
        g.inputs.push_back(std::move(s));
    }
    g.savedInputsPath = j.stringOr("saved_inputs", "");
    g.stateDictPath = j.stringOr("state_dict", "");
    g.expectedOutputsPath = j.stringOr("expected_outputs", "");
    g.rngStatePath = j.stringOr("rng_state", "");
    if (j["symbol_hints"].isObject())
        for (const auto& [k, v] : j["symbol_hints"].asObject())
            if (v.isInt())
                g.symbolHints[k] = v.asInt();
    return g;
}

json::Value optionsToJson(const replay::ReplayOptions& o)
{
    json::Value j = json::Object{};
    j["device"] = o.device;
    j["seed"] = o.seed;
    j["inputs"] = o.inputs == replay::ReplayOptions::Inputs::Saved ? "saved" : "random";
    j["floats"] = o.floatDist == replay::ReplayOptions::FloatDist::Uniform ? "uniform" : "normal";
    j["int_low"] = o.intLow;
    j["int_high"] = o.intHigh;
    j["stop_on_first"] = o.stopOnFirst;
    j["symbol_default"] = o.symbolDefault;
    json::Value syms = json::Object{};
    for (const auto& [k, v] : o.symbolValues)
        syms[k] = v;
    j["symbol_values"] = std::move(syms);
    j["value_checks"] = o.valueChecks;
    j["timing"] = o.timing;
    j["warmup"] = o.warmup;
    j["repeat"] = o.repeat;
    j["compare_device"] = o.compareDevice;
    j["expected_outputs"] = o.expectedOutputsPath;
    j["cuda_graph"] = o.cudaGraph;
    j["chain"] = o.chain;
    j["rng"] = o.rng == replay::ReplayOptions::Rng::Aligned ? "aligned" : "natural";
    j["strict_nonfinite"] = o.strictNonFinite;
    j["digests"] = o.digests;
    j["graph_repeats"] = o.graphRepeats;
    j["dtensor_global"] = o.dtensorGlobal;
    j["cudnn_tf32"] = o.cudnnTf32;
    if (o.stage) {
        auto ints = [](const std::vector<int>& v) {
            json::Value a = json::Array{};
            for (int x : v)
                a.push_back(x);
            return a;
        };
        j["stage"] = json::Object{{"inputs_from", o.stage->inputsFrom}, {"input_map", ints(o.stage->inputMap)},
                                  {"output_map", ints(o.stage->outputMap)}, {"save_outputs", o.stage->saveOutputs},
                                  {"reference_outputs", o.stage->referenceOutputs}, {"save_inputs", o.stage->saveInputs},
                                  {"outputs_from", o.stage->outputsFrom}, {"inputs_file", o.stage->inputsFile}};
        auto strings = [](const std::vector<std::string>& v) {
            json::Value a = json::Array{};
            for (const auto& x : v)
                a.push_back(x);
            return a;
        };
        j["stage"]["input_shards"] = strings(o.stage->inputShards);
        j["stage"]["output_shards"] = strings(o.stage->outputShards);
        j["stage"]["promote"] = o.stage->promote;
        std::vector<std::string> constantNames;
        std::vector<int> constantInputs;
        for (const auto& [name, from] : o.stage->constantMap) {
            constantNames.push_back(name);
            constantInputs.push_back(from);
        }
        j["stage"]["constant_names"] = strings(constantNames);
        j["stage"]["constant_inputs"] = ints(constantInputs);
    }
    return j;
}

replay::ReplayOptions optionsFromJson(const json::Value& j)
{
    replay::ReplayOptions o;
    auto flag = [&](const char* key, bool fallback) { return j[key].isBool() ? j[key].asBool() : fallback; };
    o.device = j.stringOr("device", o.device);
    o.seed = static_cast<std::uint64_t>(j.intOr("seed", 0));
    o.inputs = j.stringOr("inputs", "random") == "saved" ? replay::ReplayOptions::Inputs::Saved : replay::ReplayOptions::Inputs::Random;
    o.floatDist = j.stringOr("floats", "normal") == "uniform" ? replay::ReplayOptions::FloatDist::Uniform
                                                               : replay::ReplayOptions::FloatDist::Normal;
    o.intLow = j.intOr("int_low", o.intLow);
    o.intHigh = j.intOr("int_high", o.intHigh);
    o.stopOnFirst = flag("stop_on_first", o.stopOnFirst);
    o.symbolDefault = j.intOr("symbol_default", o.symbolDefault);
    if (j["symbol_values"].isObject())
        for (const auto& [k, v] : j["symbol_values"].asObject())
            o.symbolValues[k] = v.asInt();
    o.valueChecks = flag("value_checks", o.valueChecks);
    o.timing = flag("timing", o.timing);
    o.warmup = static_cast<int>(j.intOr("warmup", 0));
    o.repeat = static_cast<int>(j.intOr("repeat", 0));
    o.compareDevice = j.stringOr("compare_device", "");
    o.expectedOutputsPath = j.stringOr("expected_outputs", "");
    o.cudaGraph = flag("cuda_graph", false);
    o.chain = flag("chain", true);
    o.rng = j.stringOr("rng", "natural") == "aligned" ? replay::ReplayOptions::Rng::Aligned : replay::ReplayOptions::Rng::Natural;
    o.strictNonFinite = flag("strict_nonfinite", false);
    o.digests = flag("digests", false);
    o.graphRepeats = flag("graph_repeats", true);
    o.dtensorGlobal = flag("dtensor_global", false);
    o.cudnnTf32 = flag("cudnn_tf32", true);
    if (j["stage"].isObject()) {
        const json::Value& s = j["stage"];
        auto ints = [](const json::Value& a) {
            std::vector<int> v;
            if (a.isArray())
                for (std::size_t k = 0; k < a.size(); ++k)
                    v.push_back(static_cast<int>(a[k].asInt()));
            return v;
        };
        o.stage.emplace();
        o.stage->inputsFrom = s.stringOr("inputs_from", "");
        o.stage->inputMap = ints(s["input_map"]);
        o.stage->outputMap = ints(s["output_map"]);
        o.stage->saveOutputs = s.stringOr("save_outputs", "");
        o.stage->referenceOutputs = s.stringOr("reference_outputs", "");
        o.stage->saveInputs = s.stringOr("save_inputs", "");
        o.stage->outputsFrom = s.stringOr("outputs_from", "");
        o.stage->inputsFile = s.stringOr("inputs_file", "");
        auto strings = [](const json::Value& a) {
            std::vector<std::string> v;
            if (a.isArray())
                for (std::size_t k = 0; k < a.size(); ++k)
                    v.push_back(a[k].isString() ? a[k].asString() : "");
            return v;
        };
        o.stage->inputShards = strings(s["input_shards"]);
        o.stage->outputShards = strings(s["output_shards"]);
        o.stage->promote = s["promote"].isBool() && s["promote"].asBool();
        const std::vector<std::string> constantNames = strings(s["constant_names"]);
        const std::vector<int> constantInputs = ints(s["constant_inputs"]);
        for (std::size_t k = 0; k < constantNames.size() && k < constantInputs.size(); ++k)
            o.stage->constantMap.emplace_back(constantNames[k], constantInputs[k]);
    }
    return o;
}

}  // namespace fxray::worker
