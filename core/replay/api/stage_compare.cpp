#include "replay/api/stage_compare.h"

#include "base/error.h"
#include "io/text_file.h"
#include "replay/api/report_format.h"
#include "replay/api/rounding_noise.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

namespace fxray::replay {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// A scratch folder for the stages' outputs, removed when the compare ends.
class ScratchDir {
public:
    ScratchDir()
    {
        std::random_device rd;
        std::error_code ec;
        for (int k = 0; k < 100 && m_path.empty(); ++k) {
            fs::path p = fs::temp_directory_path(ec) / ("fxray-stages-" + std::to_string(rd()));
            if (fs::create_directory(p, ec))
                m_path = p;
        }
        if (m_path.empty())
            throw Error("cannot create a scratch folder for the stages' outputs under " + fs::temp_directory_path(ec).string());
    }
    ~ScratchDir()
    {
        io::removeTree(m_path.string());  // not fs::remove_all: see text_file.h
    }
    std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    fs::path m_path;
};

// The stage's status from its replay report, and the line that says why it is not clean.
void classify(StageResult& s)
{
    const ReplayReport& r = s.report;
    if (r.cancelled) {
        s.status = "cancelled";
        return;
    }
    if (!r.fatal.empty()) {
        s.status = "failed";
        s.detail = r.fatal;
        return;
    }
    if (!r.unsupported.empty()) {
        s.status = "unsupported";
        s.detail = r.unsupported.front();
        return;
    }
    for (const NodeResult& n : r.nodes)
        if (n.status == NodeStatus::Error) {
            s.status = "node errors";
            s.detail = "node '" + n.name + "' (" + n.target + "): " + n.error;
            return;
        }
    for (const NodeResult& n : r.nodes)
        if (n.status == NodeStatus::Skipped || n.status == NodeStatus::NotRun) {
            s.status = "node errors";
            s.detail = "node '" + n.name + "' did not run: " + n.error;
            return;
        }
    s.status = r.count(NodeStatus::Mismatch) > 0 ? "mismatches" : "clean";
    if (s.status == "mismatches")
        for (const NodeResult& n : r.nodes)
            if (n.status == NodeStatus::Mismatch && !n.mismatches.empty()) {
                const Mismatch& m = n.mismatches.front();
                s.detail = "node '" + n.name + "': " + std::string(mismatchKindName(m.kind)) + " recorded " + m.expected +
                           ", replayed " + m.actual;
                break;
            }
}

// The stage's summary fields, derived from its report's comparisons (again after the precision check excused some).
void summarizeComparisons(StageResult& s)
{
    s.comparisons = s.report.comparisons;
    s.compared = s.divergent = 0;
    s.maxAbs = s.maxRel = 0;
    s.firstDivergentOutput = -1;
    s.divergence.clear();
    for (const OutputComparison& c : s.comparisons) {
        if (!c.compared)
            continue;
        ++s.compared;
        if (std::isfinite(c.maxAbs))
            s.maxAbs = std::max(s.maxAbs, c.maxAbs);
        if (std::isfinite(c.maxRel))
            s.maxRel = std::max(s.maxRel, c.maxRel);
        if (c.ok)
            continue;
        ++s.divergent;
        if (s.firstDivergentOutput < 0) {
            s.firstDivergentOutput = c.output;
            s.divergence = "output " + std::to_string(c.output) + " (" + c.what + "): ";
            if (c.mismatched > 0)
                s.divergence += std::to_string(c.mismatched) + " element(s) beyond tolerance (" + toleranceText(c) + "), max abs " +
                                number(c.maxAbs) + ", max rel " + number(c.maxRel);
            if (!c.note.empty())
                s.divergence += (c.mismatched > 0 ? "; " : "") + c.note;
        }
    }
}

// What the output_code stage takes from the post-grad stage: the graph the generated code was made from (same
// placeholders and outputs), how it lines up with the AOT graph, and the inputs its replay wrote.
struct PostGradRun {
    const io::LoadedGraph* graph = nullptr;
    graph::StageIoMap map;
    std::string inputsFile;
};

// What every stage's replay shares, the generated code's included: generated inputs (the AOT graph's, StageIo), no
// chaining, and cuDNN's TF32 off so that the stages differ by the compiler only (replay_types.h).
ReplayOptions stageBaseOptions(const ReplayOptions& replay)
{
    ReplayOptions o = replay;
    o.chain = false;
    o.inputs = ReplayOptions::Inputs::Random;
    o.cudnnTf32 = false;
    return o;
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f)
        throw Error("cannot write", fileLocation(path));
}

// The generated code, run in a Python child on the post-grad stage's inputs; its outputs compared with the
// reference stage's by a replay worker (the post-grad graph "replayed" with the child's outputs in place of its
// own); when they diverge, the first kernel whose buffers differ (the child's kernel-by-kernel run) is named.
void runOutputCodeStage(StageResult& s, const io::OutputCode& oc, const PostGradRun& pg, const std::string& aotAddress,
                        const std::string& referenceFile, const ScratchDir& scratch, ReplayRunner& runner,
                        const StageCompareOptions& options, CancelToken* cancel)
{
    if (!pg.graph) {
        s.status = "unmappable";
        s.detail = "no post-grad graph in this compile: the generated code's inputs and outputs are lined up through it";
        return;
    }
    if (!pg.map.unmappable.empty()) {
        s.status = "unmappable";
        s.detail = pg.map.unmappable;
        return;
    }
    if (referenceFile.empty()) {
        s.detail = "no stage replayed: nothing to compare the generated code with";
        return;
    }
    std::error_code ec;
    if (!fs::exists(pg.inputsFile, ec)) {
        s.status = "failed";
        s.detail = "the post-grad stage wrote no inputs for the generated code (it did not get as far as running)";
        return;
    }
    const std::string code = scratch.file("output_code.py"), graphFile = scratch.file("post_grad.py"),
                      outputs = scratch.file("output_code_outputs.pt");
    writeText(code, oc.text);
    writeText(graphFile, oc.postGradText);
    const std::string device = options.replay.device;
    // The kernel search runs in the same child (one Python start: inductor probes the CPU's vector ISAs in each);
    // its answer is read only when the outputs diverge.
    const std::string kernelFile = scratch.file("kernel.json");
    std::vector<std::string> args = {"run", "--code", code, "--inputs", pg.inputsFile, "--out", outputs, "--device", device,
                                     "--no-cudnn-tf32"};
    if (!oc.postGradText.empty())
        args.insert(args.end(), {"--graph", graphFile, "--localize", kernelFile});
    const ChildAnswer run = runOutputCodeChild(options.outputCode, args, cancel);
    if (!run.ok) {
        s.status = run.error == "cancelled" ? "cancelled" : "failed";
        s.detail = run.error;
        return;
    }
    s.nodes = static_cast<int>(run.json.intOr("kernels", 0));
    ReplayOptions o = stageBaseOptions(options.replay);
    o.timing = false;
    o.repeat = o.warmup = 0;
    o.compareDevice.clear();
    o.cudaGraph = false;
    // The generated code draws from inductor's own seeds: outputs that depend on a random op are compared by rate.
    o.rng = ReplayOptions::Rng::Natural;
    o.stage = StageIo{aotAddress, pg.map.inputs, pg.map.outputs, "", referenceFile, "", outputs, "", {}, {}, false, {}};
    s.report = runner.run(*pg.graph, o, cancel, {});
    classify(s);
    if (s.replayed())
        summarizeComparisons(s);
    s.notes.push_back("ran the generated code of " + oc.origin + " (" + std::to_string(s.nodes) + " kernel calls) with " +
                      findPython(options.outputCode));
    if (const std::int64_t threads = run.json.intOr("threads_lowered_to", 0); threads > 0)
        s.notes.push_back("with " + std::to_string(threads) + " intra-op thread(s): its C++ kernels size their scratch "
                          "buffers for the thread count they were compiled with");
    if (s.verdict() != "diverge" || oc.postGradText.empty())
        return;
    try {
        s.kernel = kernelFindingFromJson(json::parse(io::readTextFile(kernelFile)), oc);
    } catch (const Error& e) {
        KernelFinding k;
        k.why = "the kernel-by-kernel run left no answer: " + std::string(e.what());
        s.kernel = k;
    }
}

}  // namespace

std::string toleranceText(const OutputComparison& c)
{
    if (c.atol == 0 && c.rtol == 0)
        return "exact";
    std::string dtype = c.what.substr(0, c.what.find('['));
    return dtype + ": atol " + number(c.atol) + " rtol " + number(c.rtol);
}

std::string StageResult::verdict() const
{
    if (status == "unmappable")
        return "unmappable";
    if (!replayed())
        return status == "not run" || status == "cancelled" || status == "not compiled" ? "not compared" : "failed";
    if (reference)
        return "reference";
    if (divergent > 0)
        return "diverge";
    return compared > 0 || comparisons.empty() ? "agree" : "not compared";
}

namespace {

// One compare, in the order it runs: the stages listed, their graphs loaded and lined up with the AOT graph, each
// replayed on the same inputs (the first clean one becomes the reference), the generated code last, the verdict.
class StageComparison {
public:
    StageComparison(const io::CompileStages& cs, ReplayRunner& runner, const StageCompareOptions& options, CancelToken* cancel,
                    const ProgressSink& progress, const StageSink& stageDone)
        : m_cs(cs), m_runner(runner), m_options(options), m_cancel(cancel), m_progress(progress), m_stageDone(stageDone)
    {
    }

    StageCompareReport run()
    {
        listStages();
        findOutputCode();
        if (m_options.replay.device.rfind("cuda", 0) == 0)
            m_out.notes.push_back("f32 convolutions ran in full precision at every stage (cuDNN's TF32 off): the stages differ "
                                  "by the compiler only");
        if (m_outputCode || !m_outputCodeError.empty())
            addOutputCodeRow();
        loadGraphs();
        if (!findAotGraph())
            return finish();
        noteMutatedInputs();
        try {
            m_scratch = std::make_unique<ScratchDir>();
        } catch (const Error& e) {
            m_out.reason = e.what();
            return finish();
        }
        for (std::size_t k = 0; k < m_cs.stages.size(); ++k)
            replayGraphStage(k);
        if (m_outputCode && m_outputCodeError.empty())
            replayOutputCodeStage();
        checkPrecision();
        decideVerdict();
        if (m_userOutputs == 0 && m_mutatedInputs == 0)
            m_out.notes.push_back("the compile has no user outputs and mutates no input: nothing to compare");
        return finish();
    }

private:
    bool cancelRequested() const { return m_cancel && m_cancel->cancelled.load(); }

    StageCompareReport finish()
    {
        m_out.seconds = std::chrono::duration<double>(Clock::now() - m_start).count();
        return std::move(m_out);
    }

    // The report's header and a "not run" row per logged stage.
    void listStages()
    {
        m_out.address = m_cs.address;
        m_out.compileId = m_cs.compileId;
        m_out.device = m_options.replay.device;
        m_out.seed = m_options.replay.seed;
        for (const io::CompileStage& st : m_cs.stages) {
            StageResult s;
            s.stage = st.name;
            s.record = st.entry.trace ? st.entry.trace->record : st.entry.title;
            s.address = st.entry.address;
            m_out.stages.push_back(std::move(s));
        }
    }

    // The last stage, when the compile has generated code (older logs and other backends have none).
    void findOutputCode()
    {
        if (m_options.outputCode.enabled) {
            try {
                m_outputCode = m_options.outputCode.file.empty() ? io::outputCodeOf(m_cs)
                                                                 : io::outputCodeFile(m_cs, m_options.outputCode.file);
            } catch (const Error& e) {
                m_outputCodeError = e.what();
            }
        }
        // Code generated for another kind of device (Triton for CUDA, C++ for the CPU) cannot run on this one.
        if (m_outputCode) {
            const std::string& t = m_outputCode->text;
            const bool cudaCode = t.find("empty_strided_cuda(") != std::string::npos || t.find("async_compile.triton(") != std::string::npos;
            const bool cudaRun = m_options.replay.device.rfind("cuda", 0) == 0;
            if (cudaCode != cudaRun) {
                m_out.notes.push_back(std::string("output_code left out: the generated code is for ") + (cudaCode ? "CUDA" : "the CPU") +
                                      ", the stages run on " + m_options.replay.device);
                m_outputCode.reset();
            }
        }
    }

    void addOutputCodeRow()
    {
        StageResult s;
        s.stage = "output_code";
        s.record = m_options.outputCode.file.empty() ? "inductor_output_code" : "output_code.py";
        // The post-grad graph's address: the code computes its nodes (the GUI opens it when the stage is clicked);
        // where the code itself came from is in the notes.
        for (const io::CompileStage& st : m_cs.stages)
            if (st.name == "post_grad")
                s.address = st.entry.address;
        if (!m_outputCodeError.empty()) {
            s.status = "failed";
            s.detail = m_outputCodeError;
        }
        m_out.stages.push_back(std::move(s));
    }

    // Every stage's graph, loaded here (plain C++) to line their inputs and outputs up.
    void loadGraphs()
    {
        m_graphs.resize(m_cs.stages.size());
        for (std::size_t k = 0; k < m_cs.stages.size(); ++k) {
            try {
                m_graphs[k] = io::loadGraph(m_cs.stages[k].entry);
                m_out.stages[k].nodes = static_cast<int>(m_graphs[k]->graph.nodes.size());
            } catch (const Error& e) {
                m_out.stages[k].status = "failed";
                m_out.stages[k].detail = e.what();
            }
        }
    }

    // The AOT graph every stage is lined up with, the Dynamo graph that says which outputs the user sees; without
    // an AOT graph every stage that has not failed is unmappable (false).
    bool findAotGraph()
    {
        if (m_cs.aotStage < 0 || !m_graphs[static_cast<std::size_t>(m_cs.aotStage)]) {
            std::string have;
            for (const io::CompileStage& st : m_cs.stages)
                have += (have.empty() ? "" : ", ") + st.name;
            if (m_cs.aotStage < 0 && noteTorchFailure())
                return false;
            m_out.reason = m_cs.aotStage < 0 ? "no AOT graph (aot_forward_graph, aot_inference_graph or aot_joint_graph) in this compile "
                                               "(it logged: " + have + "): the stages' inputs cannot be lined up"
                                             : "the AOT graph did not load: " + m_out.stages[static_cast<std::size_t>(m_cs.aotStage)].detail;
            for (StageResult& s : m_out.stages)
                if (s.status == "not run") {
                    s.status = "unmappable";
                    s.detail = m_out.reason;
                }
            return false;
        }
        m_aot = &*m_graphs[static_cast<std::size_t>(m_cs.aotStage)];
        for (std::size_t k = 0; k < m_cs.stages.size(); ++k)
            if (m_cs.stages[k].role == graph::StageRole::Dynamo && m_graphs[k])
                m_dynamo = &m_graphs[k]->graph;
        m_userOutputs = graph::userOutputCount(m_dynamo, m_aot->graph);
        return true;
    }

    // A compile that torch itself gave up on after dynamo (a backend exception: dynamo graph-breaks and the frame runs
    // eagerly) has nothing compiled to compare: "not compiled", with torch's reason, not an fxray failure.
    bool noteTorchFailure()
    {
        std::optional<io::CompileFailure> failure;
        try {
            failure = io::torchFailureOf(m_cs);
        } catch (const Error&) {
            return false;  // the log's report cannot be read: the plain "no AOT graph" reason stands
        }
        if (!failure)
            return false;
        // fail_reason's first line is a heading ("Backend compiler exception", "backend='x' raised:"); its
        // "Explanation:" line, or the line after a heading that ends in ':', says what.
        const std::string& text = failure->reason;
        const std::size_t end = text.find('\n');
        std::string why = text.substr(0, end);
        if (const std::size_t e = text.find("Explanation: "); e != std::string::npos)
            why += ": " + text.substr(e + 13, text.find('\n', e) - e - 13);
        else if (end != std::string::npos && why.ends_with(':'))
            why += " " + text.substr(end + 1, text.find('\n', end + 1) - end - 1);
        m_out.verdict = "not compiled";
        m_out.reason = "torch's compile failed after dynamo (" + failure->type + (why.empty() ? "" : ": " + why) +
                       "): the frame ran eagerly, no compiled stage to compare";
        // Not a mapping problem of fxray's: the stage is "not compiled", not compared, and not drawn as a problem.
        for (StageResult& s : m_out.stages)
            if (s.status == "not run") {
                s.status = "not compiled";
                s.detail = m_out.reason;
            }
        return true;
    }

    // Inputs the compile mutates are compared too, after the user outputs, as each stage leaves them.
    void noteMutatedInputs()
    {
        const auto mutated = graph::mutatedInputs(m_aot->graph);
        m_mutatedInputs = mutated.size();
        if (mutated.empty())
            return;
        std::string names;
        for (std::size_t k = 0; k < mutated.size(); ++k) {
            const int n = mutated[k].dynamoInput;
            std::string name = mutated[k].dynamoAttr.empty() ? "input " + std::to_string(n) : "self." + mutated[k].dynamoAttr;
            if (m_dynamo && n >= 0 && static_cast<std::size_t>(n) < m_dynamo->placeholders().size()) {
                const graph::Node& p = m_dynamo->nodes[static_cast<std::size_t>(m_dynamo->placeholders()[static_cast<std::size_t>(n)])];
                name = p.attr.empty() ? p.name : p.attr;
            }
            if (k < 6)
                names += (k ? ", " : "") + std::to_string(m_userOutputs + static_cast<int>(k)) + " = " + name;
        }
        if (mutated.size() > 6)
            names += ", ... (" + std::to_string(mutated.size()) + " in all)";
        m_out.notes.push_back("outputs after the " + std::to_string(m_userOutputs) +
                              " user output(s) are the inputs the compile mutates, as each stage leaves them: " + names);
    }

    // Stage k lined up with the AOT graph and replayed; the first clean replay's outputs become the reference.
    void replayGraphStage(std::size_t k)
    {
        StageResult& s = m_out.stages[k];
        if (cancelRequested()) {
            m_out.cancelled = true;
            s.status = "cancelled";
            return;
        }
        if (!m_graphs[k])
            return;
        const io::LoadedGraph& g = *m_graphs[k];
        const graph::StageIoMap map = graph::mapStage(g.graph, m_cs.stages[k].role, m_aot->graph, m_userOutputs);
        if (m_cs.stages[k].name == "post_grad" && m_outputCode)
            m_postGrad = PostGradRun{&g, map, m_scratch->file("inputs.pt")};
        s.notes = map.notes;
        s.notes.insert(s.notes.end(), map.inputNotes.begin(), map.inputNotes.end());
        if (!map.unmappable.empty()) {
            s.status = "unmappable";
            s.detail = map.unmappable;
        } else {
            replayMapped(k, s, g, map);
        }
        const std::size_t total = m_out.stages.size();
        if (m_progress)
            m_progress((k + 1) * 1000, total * 1000);
        if (m_stageDone)
            m_stageDone(k, s);
    }

    // How stage k replays: on the AOT graph's generated inputs, aligned RNG, its user outputs lined up by `map`.
    ReplayOptions stageOptions(const graph::StageIoMap& map) const
    {
        ReplayOptions o = stageBaseOptions(m_options.replay);
        // Each stage calls dropout its own way (F.dropout, rand_like > p, inductor_random): only aligned draws
        // make the same random call draw the same values at every stage (random_ops.h).
        o.rng = ReplayOptions::Rng::Aligned;
        o.stage = StageIo{};
        o.stage->inputsFrom = m_aot->entry.address;
        o.stage->inputMap = map.inputs;
        o.stage->outputMap = map.outputs;
        o.stage->constantMap = map.constants;
        o.stage->referenceOutputs = m_referenceFile;
        return o;
    }

    void replayMapped(std::size_t k, StageResult& s, const io::LoadedGraph& g, const graph::StageIoMap& map)
    {
        ReplayOptions o = stageOptions(map);
        if (m_referenceFile.empty())
            o.stage->saveOutputs = m_scratch->file("stage" + std::to_string(k) + ".pkl");
        if (m_postGrad.graph == &g)
            o.stage->saveInputs = m_postGrad.inputsFile;
        const std::size_t total = m_out.stages.size();
        auto nodeProgress = [&](std::size_t done, std::size_t all) {
            if (m_progress && all > 0)
                m_progress(k * 1000 + done * 1000 / all, total * 1000);
        };
        const auto t0 = Clock::now();
        s.report = m_runner.run(g, o, m_cancel, nodeProgress);
        s.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        classify(s);
        if (s.replayed() && m_referenceFile.empty()) {
            std::error_code ec;
            if (fs::exists(o.stage->saveOutputs, ec)) {
                m_referenceFile = o.stage->saveOutputs;
                s.reference = true;
                m_out.referenceStage = static_cast<int>(k);
            }
        } else if (s.replayed()) {
            summarizeComparisons(s);
        }
        if (s.report.cancelled)
            m_out.cancelled = true;
    }

    void replayOutputCodeStage()
    {
        StageResult& s = m_out.stages.back();
        if (cancelRequested()) {
            m_out.cancelled = true;
            s.status = "cancelled";
        } else {
            const auto t0 = Clock::now();
            try {
                runOutputCodeStage(s, *m_outputCode, m_postGrad, m_aot->entry.address, m_referenceFile, *m_scratch, m_runner,
                                   m_options, m_cancel);
            } catch (const Error& e) {
                s.status = "failed";
                s.detail = e.what();
            }
            s.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            m_out.cancelled = m_out.cancelled || s.status == "cancelled";
        }
        const std::size_t total = m_out.stages.size();
        if (m_progress)
            m_progress(total * 1000, total * 1000);
        if (m_stageDone)
            m_stageDone(m_out.stages.size() - 1, s);
    }

    // A divergence may be rounding (rounding_noise.h): the reference and each divergent stage replayed again in
    // float64 on the same inputs; the divergent outputs whose difference shrinks with the precision agree, saying so.
    void checkPrecision()
    {
        const bool divergent = std::any_of(m_out.stages.begin(), m_out.stages.end(),
                                           [](const StageResult& s) { return s.verdict() == "diverge"; });
        if (!divergent || !m_options.precisionCheck || m_out.referenceStage < 0 || cancelRequested())
            return;
        const auto r = static_cast<std::size_t>(m_out.referenceStage);
        const std::string dtype = leastPreciseDtype(m_graphs[r]->graph);
        if (dtype.empty() || dtype == "f64")
            return;
        // The reference in float64 (kept for the stages), compared with itself as computed: how far rounding moved it.
        const std::string reference64 = m_scratch->file("reference64.pkl");
        const ReplayReport ref = replayPromoted(r, reference64, m_referenceFile);
        std::error_code ec;
        if (!ref.fatal.empty() || ref.cancelled || !fs::exists(reference64, ec)) {
            m_out.notes.push_back("precision check (the stages again in float64) did not run: the reference " +
                                  (ref.fatal.empty() ? std::string("did not replay cleanly") : ref.fatal));
            return;
        }
        if (!sameDraws(m_out.stages[r].report, ref, m_out.notes, "the reference"))
            return;
        int excused = 0, checked = 0;
        for (std::size_t k = 0; k < m_cs.stages.size(); ++k) {
            StageResult& s = m_out.stages[k];
            if (s.verdict() != "diverge" || !m_graphs[k])
                continue;
            const ReplayReport high = replayPromoted(k, "", reference64);
            if (!high.fatal.empty() || high.comparisons.empty()) {
                s.notes.push_back("precision check: the stage did not replay in float64" + (high.fatal.empty() ? "" : ": " + high.fatal));
                continue;
            }
            if (!sameDraws(s.report, high, s.notes, "the stage"))
                continue;
            ++checked;
            const int n = excusePrecision(s.report.comparisons, high.comparisons, dtype, ref.comparisons);
            excused += n;
            summarizeComparisons(s);  // the comparisons now carry their float64 difference
            if (n > 0) {
                s.notes.push_back(std::to_string(n) + " output(s) beyond tolerance are rounding: their difference shrinks in float64, "
                                  "or stays within the reference's own rounding error");
            }
        }
        const StageResult* postGrad = nullptr;
        for (const StageResult& s : m_out.stages)
            if (s.stage == "post_grad" && s.replayed())
                postGrad = &s;
        StageResult& code = m_out.stages.back();
        if (code.stage == "output_code" && code.verdict() == "diverge" && postGrad) {
            const int n = excuseGeneratedCode(code.report.comparisons, postGrad->report.comparisons, ref.comparisons);
            excused += n;
            summarizeComparisons(code);
            if (n > 0) {
                if (code.verdict() != "diverge")
                    code.kernel.reset();  // no divergence left for a kernel to explain
                code.notes.push_back(std::to_string(n) + " output(s) beyond tolerance are rounding: within what rounding does to them");
            }
        }
        double refError = 0;
        for (const OutputComparison& c : ref.comparisons)
            if (c.compared && std::isfinite(c.maxAbs))
                refError = std::max(refError, c.maxAbs);
        m_out.notes.push_back("precision check: the reference computed in float64 is up to " + number(refError) + " from its " +
                              dtype + " value; " + std::to_string(checked) + " divergent stage(s) replayed in float64, " +
                              std::to_string(excused) + " divergent output(s) found to be rounding (see their notes)");
    }

    // Whether a run and its float64 re-run made the same aligned random draws; if not, a note saying why nothing is
    // excused as rounding (rounding_noise.h: alignedDraws).
    static bool sameDraws(const ReplayReport& low, const ReplayReport& high, std::vector<std::string>& notes, const std::string& who)
    {
        const std::vector<std::string> a = alignedDraws(low), b = alignedDraws(high);
        if (a == b)
            return true;
        notes.push_back("precision check: nothing excused as rounding: in float64 " + who + " draws its random numbers otherwise (" +
                        std::to_string(a.size()) + " aligned draws, " + std::to_string(b.size()) +
                        " in float64), so a difference is not rounding alone");
        return false;
    }

    // Stage k replayed in float64, saving its outputs to `save` and comparing them with `reference` (either may be "").
    ReplayReport replayPromoted(std::size_t k, const std::string& save, const std::string& reference)
    {
        const io::LoadedGraph& g = *m_graphs[k];
        ReplayOptions o = stageOptions(graph::mapStage(g.graph, m_cs.stages[k].role, m_aot->graph, m_userOutputs));
        o.stage->promote = true;
        o.stage->saveOutputs = save;
        o.stage->referenceOutputs = reference;
        o.timing = false;
        return m_runner.run(g, o, m_cancel, {});
    }

    // The verdict: the first stage (in pipeline order) whose outputs diverge from the reference's; otherwise a stage
    // that could not be compared makes the compare fail; otherwise all agree.
    void decideVerdict()
    {
        StageCompareReport& out = m_out;
        int failed = -1, compared = 0, uncompared = 0;
        for (std::size_t k = 0; k < out.stages.size(); ++k) {
            const StageResult& s = out.stages[k];
            const std::string v = s.verdict();
            if (v == "diverge" && out.firstDivergentStage < 0) {
                out.firstDivergentStage = static_cast<int>(k);
                out.firstDivergentOutput = s.firstDivergentOutput;
            }
            // A stage that ran clean with every output left uncompared for a reason it states (an output of a constant
            // the log holds no value for: BART's decoder start token) neither fails the compile nor agrees: a note.
            if (v == "not compared" && s.status == "clean" && !s.comparisons.empty()) {
                out.notes.push_back("stage " + s.stage + " ran clean; its outputs were not compared: " + s.comparisons.front().note);
                ++uncompared;
                continue;
            }
            if ((v == "failed" || v == "unmappable" || v == "not compared") && failed < 0)
                failed = static_cast<int>(k);
            compared += v == "agree" || v == "diverge" ? 1 : 0;
        }
        if (out.firstDivergentStage >= 0) {
            const StageResult& s = out.stages[static_cast<std::size_t>(out.firstDivergentStage)];
            out.verdict = "diverge";
            out.reason = "stage " + s.stage + " diverges from " + out.stages[static_cast<std::size_t>(out.referenceStage)].stage +
                         " at " + s.divergence;
        } else if (out.cancelled) {
            out.verdict = "failed";
            out.reason = "cancelled";
        } else if (failed >= 0) {
            const StageResult& s = out.stages[static_cast<std::size_t>(failed)];
            out.verdict = "failed";
            out.reason = "stage " + s.stage + " " + (s.status == "unmappable" ? "cannot be lined up with the AOT graph" : s.status) +
                         (s.detail.empty() ? "" : ": " + s.detail);
        } else if (compared == 0) {
            out.verdict = "failed";
            out.reason = uncompared == 0 ? "fewer than two stages replayed: nothing to compare"
                                         : "no stage's outputs could be compared with the reference's (see the notes)";
        } else {
            out.verdict = "agree";
        }
    }

    const io::CompileStages& m_cs;
    ReplayRunner& m_runner;
    const StageCompareOptions& m_options;
    CancelToken* m_cancel;
    const ProgressSink& m_progress;
    const StageSink& m_stageDone;
    const Clock::time_point m_start = Clock::now();
    StageCompareReport m_out;
    std::optional<io::OutputCode> m_outputCode;
    std::string m_outputCodeError;
    std::vector<std::optional<io::LoadedGraph>> m_graphs;
    const io::LoadedGraph* m_aot = nullptr;
    const graph::Graph* m_dynamo = nullptr;
    int m_userOutputs = 0;
    std::size_t m_mutatedInputs = 0;  // compared after the user outputs (noteMutatedInputs)
    std::unique_ptr<ScratchDir> m_scratch;
    std::string m_referenceFile;  // the reference stage's outputs, once a stage replayed cleanly
    PostGradRun m_postGrad;
};

}  // namespace

StageCompareReport compareStages(const io::CompileStages& cs, ReplayRunner& runner, const StageCompareOptions& options,
                                 CancelToken* cancel, const ProgressSink& progress, const StageSink& stageDone)
{
    return StageComparison(cs, runner, options, cancel, progress, stageDone).run();
}

json::Value stageCompareToJson(const StageCompareReport& r)
{
    json::Value j = json::Object{};
    j["address"] = r.address;
    j["compile"] = r.compileId;
    j["device"] = r.device;
    j["seed"] = r.seed;
    j["verdict"] = r.verdict;
    j["reason"] = r.reason;
    j["reference_stage"] = r.referenceStage >= 0 ? json::Value(r.stages[static_cast<std::size_t>(r.referenceStage)].stage) : json::Value();
    j["first_divergent_stage"] =
        r.firstDivergentStage >= 0 ? json::Value(r.stages[static_cast<std::size_t>(r.firstDivergentStage)].stage) : json::Value();
    j["first_divergent_output"] = r.firstDivergentOutput >= 0 ? json::Value(r.firstDivergentOutput) : json::Value();
    const StageResult* divergent = r.firstDivergentStage >= 0 ? &r.stages[static_cast<std::size_t>(r.firstDivergentStage)] : nullptr;
    j["first_divergent_kernel"] = divergent && divergent->kernel && divergent->kernel->found ? json::Value(divergent->kernel->kernel)
                                                                                             : json::Value();
    j["cancelled"] = r.cancelled;
    j["seconds"] = r.seconds;
    json::Value notes = json::Array{};
    for (const auto& n : r.notes)
        notes.push_back(n);
    j["notes"] = std::move(notes);
    json::Value stages = json::Array{};
    for (const StageResult& s : r.stages) {
        json::Value o = json::Object{};
        o["stage"] = s.stage;
        o["record"] = s.record;
        o["address"] = s.address;
        o["nodes"] = s.nodes;
        o["status"] = s.status;
        o["detail"] = s.detail;
        o["verdict"] = s.verdict();
        o["reference"] = s.reference;
        o["compared"] = s.compared;
        o["divergent"] = s.divergent;
        o["max_abs"] = s.maxAbs;
        o["max_rel"] = s.maxRel;
        o["first_divergent_output"] = s.firstDivergentOutput >= 0 ? json::Value(s.firstDivergentOutput) : json::Value();
        o["divergence"] = s.divergence;
        o["seconds"] = s.seconds;
        json::Value sn = json::Array{};
        for (const auto& n : s.notes)
            sn.push_back(n);
        for (const auto& n : s.report.notes)
            sn.push_back(n);
        o["notes"] = std::move(sn);
        json::Value comps = json::Array{};
        for (const OutputComparison& c : s.comparisons)
            comps.push_back(json::Object{{"output", c.output}, {"what", c.what}, {"compared", c.compared}, {"ok", c.ok},
                                         {"max_abs", c.maxAbs}, {"max_rel", c.maxRel}, {"atol", c.atol}, {"rtol", c.rtol},
                                         {"tolerance", toleranceText(c)}, {"mismatched", c.mismatched}, {"note", c.note},
                                         {"rounding_noise", c.roundingNoise >= 0 ? json::Value(c.roundingNoise) : json::Value()}});
        o["comparisons"] = std::move(comps);
        if (s.kernel)
            o["kernel"] = kernelFindingToJson(*s.kernel);
        o["replay"] = json::Object{{"verdict", s.report.verdict()},
                                   {"passed", s.report.count(NodeStatus::Passed)},
                                   {"mismatch", s.report.count(NodeStatus::Mismatch)},
                                   {"error", s.report.count(NodeStatus::Error)},
                                   {"unsupported", s.report.count(NodeStatus::Unsupported)},
                                   {"fatal", s.report.fatal}};
        stages.push_back(std::move(o));
    }
    j["stages"] = std::move(stages);
    return j;
}

std::string formatStageCompare(const StageCompareReport& r)
{
    std::ostringstream os;
    os << r.address << " " << r.compileId << " on " << r.device << " (generated inputs, seed " << r.seed << "): " << r.verdict;
    if (r.verdict == "diverge")
        os << " at stage " << r.stages[static_cast<std::size_t>(r.firstDivergentStage)].stage << ", output " << r.firstDivergentOutput;
    os << "\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-14s %-26s %6s  %-12s %8s %10s %10s  %s\n", "stage", "graph", "nodes", "status", "compared",
                  "max abs", "max rel", "verdict");
    os << line;
    for (const StageResult& s : r.stages) {
        const bool shown = s.replayed() && !s.reference;
        const std::string compared = shown ? std::to_string(s.compared) + "/" + std::to_string(s.comparisons.size()) : "-";
        std::snprintf(line, sizeof line, "  %-14s %-26s %6d  %-12s %8s %10s %10s  %s\n", s.stage.c_str(), s.record.c_str(), s.nodes,
                      s.status.c_str(), compared.c_str(), shown ? number(s.maxAbs).c_str() : "-",
                      shown ? number(s.maxRel).c_str() : "-", s.verdict().c_str());
        os << line;
    }
    // The tolerances used, once per dtype.
    std::vector<std::string> tolerances;
    for (const StageResult& s : r.stages)
        for (const OutputComparison& c : s.comparisons)
            if (c.compared) {
                const std::string t = toleranceText(c);
                if (std::find(tolerances.begin(), tolerances.end(), t) == tolerances.end())
                    tolerances.push_back(t);
            }
    if (!tolerances.empty()) {
        os << "  tolerance:";
        for (std::size_t k = 0; k < tolerances.size(); ++k)
            os << (k ? "; " : " ") << tolerances[k];
        os << " (atol scaled by max(1, max |reference|); NaNs must sit in the same places)\n";
    }
    if (!r.reason.empty())
        os << "  " << (r.verdict == "diverge" ? "first divergence: " : "why: ") << r.reason << "\n";
    for (const StageResult& s : r.stages)
        if (s.kernel)
            os << "  " << s.stage << ": " << formatKernelFinding(*s.kernel) << "\n";
    for (const StageResult& s : r.stages) {
        if (!s.detail.empty() && s.status != "unmappable" && !(r.verdict == "failed" && r.reason.find(s.detail) != std::string::npos))
            os << "  " << s.stage << ": " << s.detail << "\n";
        for (const std::string& n : s.notes)
            os << "  " << s.stage << ": " << n << "\n";
    }
    for (const std::string& n : r.notes)
        os << "  note: " << n << "\n";
    return os.str();
}

}  // namespace fxray::replay
