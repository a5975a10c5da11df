#include "minimize/result_export.h"

#include "io/seed_writer.h"
#include "io/text_file.h"
#include "replay/api/report_format.h"

#include <filesystem>

namespace fxray::minimize {

namespace fs = std::filesystem;

ReproSpec reproSpecFor(const MinimizeOptions& o, const Signature& sig, const std::string& node,
                       const replay::ReplayReport* finalReport)
{
    ReproSpec r;
    r.signature = sig;
    r.failingNode = node;
    r.device = o.replay.device;
    r.inputs = o.replay;
    r.inductorConfig = o.inductorConfig;
    for (const auto& f : o.failures) {
        if (f.kind == FailureSpec::Kind::Error && sig.kind == "error")
            r.errorPattern = f.pattern;
        if (f.kind == FailureSpec::Kind::Diverge)
            r.compareDevice = f.pattern;
    }
    if (finalReport)
        for (const auto& c : finalReport->comparisons)
            if (!c.ok) {
                r.atol = c.atol;
                r.rtol = c.rtol;
                break;
            }
    return r;
}

std::function<std::string(const io::LoadedGraph&, const Signature&)> candidateReproWriter(const MinimizeOptions& options,
                                                                                          const std::string& scratchDir)
{
    return [&options, scratchDir](const io::LoadedGraph& c, const Signature& sig) {
        std::error_code ec;
        fs::create_directories(scratchDir, ec);
        const std::string path = (fs::path(scratchDir) / "repro.py").string();
        io::writeTextFile(path, writeReproScript(c, reproSpecFor(options, sig, "", nullptr)));
        return path;
    };
}

json::Value summaryJson(const io::LoadedGraph& original, const MinimizeOptions& options, const MinimizeResult& res,
                        const std::string& until, int workerStarts)
{
    json::Value s = json::Object{};
    s["graph"] = original.entry.address;
    s["until"] = until;
    s["device"] = options.replay.device;
    s["seed"] = options.replay.seed;
    s["reproduced"] = res.reproduced;
    s["cancelled"] = res.cancelled;
    s["signature"] = res.reproduced ? json::Value(res.signature.str()) : json::Value();
    s["failing_node"] = res.failingNode;
    s["original_nodes"] = res.originalNodes;
    s["minimized_nodes"] = res.minimizedNodes;
    s["queries"] = res.queries;
    s["seconds"] = res.seconds;
    s["worker_starts"] = workerStarts;
    s["verified_seeds"] = res.verifiedSeeds;
    s["verify_failed"] = res.verifyFailed;
    if (!options.inductorConfig.empty()) {
        json::Value config = json::Object{};
        for (const auto& [k, v] : options.inductorConfig)
            config[k] = v;
        s["inductor_config"] = std::move(config);
    }
    if (res.reproduced)
        s["failure_detail"] = res.signature.detail;
    json::Value log = json::Array{};
    for (const auto& l : res.log)
        log.push_back(l);
    s["log"] = std::move(log);
    if (!res.reproduced)
        s["why"] = res.why;
    return s;
}

ExportedResult exportResult(const MinimizeResult& res, const MinimizeOptions& options, const std::string& dir,
                            json::Value& summary)
{
    const fs::path outDir(dir);
    std::error_code ec;
    fs::create_directories(outDir, ec);
    const io::GraphKind kind = res.minimized.entry.kind;
    const std::string folder =
        "minimized_" + std::string(kind == io::GraphKind::Unknown ? "forward" : io::graphKindName(kind)) + "_0";
    ExportedResult out;
    io::LoadedGraph dump = res.minimized;
    dump.entry.address = (outDir / folder).string();
    out.dump = io::writeSeedDump(dump, outDir.string(), folder);
    // The repro names the graph it came from, not the exported copy.
    out.repro = (outDir / "repro.py").string();
    io::writeTextFile(out.repro,
                      writeReproScript(res.minimized, reproSpecFor(options, res.signature, res.failingNode, &res.finalReport)));
    fs::permissions(out.repro, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
    if (!res.minimized.stateDictPath.empty() && fs::exists(res.minimized.stateDictPath, ec))
        fs::copy_file(res.minimized.stateDictPath, outDir / "state_dict.pt", fs::copy_options::overwrite_existing, ec);
    summary["dump"] = out.dump;
    summary["repro"] = out.repro;
    summary["final_report"] = replay::reportToJson(res.finalReport);
    out.summary = (outDir / "minimize.json").string();
    io::writeTextFile(out.summary, summary.dump(json::Style::Pretty) + "\n");
    return out;
}

}  // namespace fxray::minimize
