// The engine's entry points: a whole replay (prepare, the checked pass, then the steps after it), what cannot run
// on a device, and how many CUDA devices there are. The steps are in engine/*.cpp, one job each (replay_pass.h).
#include "replay/engine/replayer.h"

#include "base/error.h"
#include "graph/float_promotion.h"
#include "replay/api/nonfinite_reach.h"
#include "replay/engine/replay_pass.h"
#include "replay/stages/stage_io.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/DefaultDtype.h>
#include <c10/core/InferenceMode.h>

#include <chrono>

namespace fxray::replay {

using namespace engine;  // the steps of a replay (replay_pass.h)

int cudaDeviceCount()
{
    return at::hasCUDA() ? static_cast<int>(c10::impl::getDeviceGuardImpl(c10::kCUDA)->deviceCount()) : 0;
}

std::vector<std::string> coverageReport(const graph::Graph& g, const std::string& deviceText)
{
    return unsupportedLines(g, detail::planGraph(g, parseDevice(deviceText)));
}

namespace {

// The process-wide cuDNN TF32 switch for one replay, restored after it (a worker replays many graphs).
class CudnnTf32Scope {
public:
    explicit CudnnTf32Scope(bool allow) : m_before(at::globalContext().allowTF32CuDNN())
    {
        at::globalContext().setAllowTF32CuDNN(allow);
    }
    ~CudnnTf32Scope() { at::globalContext().setAllowTF32CuDNN(m_before); }
    CudnnTf32Scope(const CudnnTf32Scope&) = delete;
    CudnnTf32Scope& operator=(const CudnnTf32Scope&) = delete;

private:
    bool m_before;
};

// torch's default dtype (what factories without a dtype make) for the length of a promoted replay.
class DefaultDtypeGuard {
public:
    explicit DefaultDtypeGuard(caffe2::TypeMeta t) : m_was(c10::get_default_dtype()) { c10::set_default_dtype(t); }
    ~DefaultDtypeGuard() { c10::set_default_dtype(m_was); }
    DefaultDtypeGuard(const DefaultDtypeGuard&) = delete;
    DefaultDtypeGuard& operator=(const DefaultDtypeGuard&) = delete;

private:
    caffe2::TypeMeta m_was;
};

ReplayReport replayLoaded(const io::LoadedGraph& lg, const ReplayOptions& options, CancelToken* cancel,
                          const ProgressSink& progress, const NodeSink& nodeDone);

}  // namespace

ReplayReport replayGraph(const io::LoadedGraph& lg, const ReplayOptions& options, CancelToken* cancel,
                         const ProgressSink& progress, const NodeSink& nodeDone)
{
    if (!options.stage || !options.stage->promote)
        return replayLoaded(lg, options, cancel, progress, nodeDone);
    // Stage compare's precision check (rounding_noise.h): the same stage computed in float64.
    io::LoadedGraph promoted = lg;
    promoted.graph = graph::promotedToDouble(lg.graph);
    const DefaultDtypeGuard dtype(caffe2::TypeMeta::Make<double>());
    ReplayReport report = replayLoaded(promoted, options, cancel, progress, nodeDone);
    report.notes.push_back("computed in float64: every floating-point dtype of the graph promoted, autocast off (stage "
                           "compare's precision check)");
    return report;
}

namespace {

ReplayReport replayLoaded(const io::LoadedGraph& lg, const ReplayOptions& options, CancelToken* cancel,
                          const ProgressSink& progress, const NodeSink& nodeDone)
{
    ReplayReport report = emptyReport(lg, options);
    // Python's `import torch` does this; without it ATen's CPU kernels can run on one OpenMP thread.
    at::init_num_threads();
    const CudnnTf32Scope tf32(options.cudnnTf32);
    Prepared p;
    try {
        p = prepare(lg, options, report);
    } catch (const Error& e) {
        report.fatal = e.what();
        return report;
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
        return report;
    }
    c10::InferenceMode inferenceMode;  // no autograd bookkeeping: replay runs kernels only
    // Later passes (timed repeats, the reference device) must start from the same inputs even when the graph
    // mutates its inputs in place (running stats, step counters): keep pristine copies.
    const bool morePasses = options.repeat > 0 || !options.compareDevice.empty() || options.cudaGraph;
    std::vector<c10::IValue> pristine;
    try {
        if (morePasses)
            pristine = cloneValues(p.inputs);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        // Peak over the run, inputs included (they are allocated already): what the graph needs on the device.
        if (p.device.is_cuda())
            c10::cuda::CUDACachingAllocator::resetPeakStats(p.device.index());
#endif
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
        return report;
    }
    DeviceTimer timer(p.device, options.timing ? lg.graph.nodes.size() : 0);
    const auto start = std::chrono::steady_clock::now();
    std::vector<c10::IValue> outputs;
    if (options.stage && !options.stage->outputsFrom.empty()) {
        // The output_code stage: inductor's generated code ran in a Python child; its outputs are compared here.
        report.nodes.clear();
        try {
            outputs = detail::externalOutputs(options.stage->outputsFrom, p.device, p.inputs);
        } catch (const Error& e) {
            report.fatal = e.what();
            return report;
        } catch (const c10::Error& e) {
            report.fatal = detail::errorText(e);
            return report;
        }
    } else {
        outputs = interpret(p, options, &report.nodes, timer.active() ? &timer : nullptr, &report, cancel, progress, nodeDone);
    }
    if (!options.strictNonFinite)
        classifyNonFiniteOrigins(lg.graph, report);
    // Everything after the pass can meet a sticky CUDA error (a device-side assert in a kernel): it becomes the
    // report's fatal message, never an exception out of replayGraph.
    try {
        synchronize(p.device);
        report.totalUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if (timer.active())
            timer.collect(report.nodes);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        if (p.device.is_cuda())
            report.peakDeviceBytes = allocatedBytes(p.device).peak;
#endif
        if (options.repeat > 0 && !report.cancelled && !runGraphRepeats(p, options, pristine, outputs, report))
            runTimedRepeats(p, options, pristine, cancel, report);
        if (options.stage)
            compareStageOutputs(p, *options.stage, outputs, report);
        else
            compareOutputs(lg, p, options, pristine, outputs, cancel, report);
        if (options.cudaGraph)  // not the graph-backed repeats' report, already captured and replayed
            runCudaGraph(p, options, pristine, outputs, report);
    } catch (const Error& e) {
        report.fatal = e.what();
    } catch (const c10::Error& e) {
        report.fatal = detail::errorText(e);
    } catch (const std::exception& e) {
        report.fatal = e.what();
    }
    return report;
}

}  // namespace

}  // namespace fxray::replay
