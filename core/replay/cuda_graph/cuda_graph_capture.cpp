// Capture and replay through at::cuda::CUDAGraph, as torch.cuda.graph does: side stream, warm-up, private pool.
#include "replay/cuda_graph/cuda_graph_capture.h"

#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"

#if __has_include(<ATen/cuda/CUDAGraph.h>)
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#define FXRAY_HAVE_CUDA_GRAPHS 1
#endif

#include <chrono>

namespace fxray::replay::detail {

#ifdef FXRAY_HAVE_CUDA_GRAPHS
namespace {

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

std::string joined(const std::set<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Exact unless something upstream varies between runs (see OutputNondeterminism).
OutputComparison compareWithEager(const c10::IValue& replayed, const c10::IValue& eager, int index,
                                  const OutputNondeterminism& nd)
{
    // Random state and never-written memory (attention's philox seed/offset with dropout off): dtype and shape
    // only; even the device may differ (attention's philox state is a CPU tensor in eager, a device tensor in a
    // capture, where the seed must be read at replay time).
    const bool uninitialised = !nd.uninitialised.empty();
    if (!nd.random.empty() || uninitialised) {
        OutputComparison c;
        c.output = index;
        c.what = describeValue(replayed);
        c.ok = replayed.isTensor() == eager.isTensor() &&
               (!replayed.isTensor() || (replayed.toTensor().scalar_type() == eager.toTensor().scalar_type() &&
                                         replayed.toTensor().sizes() == eager.toTensor().sizes()));
        c.note = (uninitialised ? "uninitialised memory of " + *nd.uninitialised.begin()
                                : "after random state (" + joined(nd.random) + ")") +
                 ": values not compared" + (c.ok ? "" : "; eager is " + describeValue(eager));
        return c;
    }
    OutputComparison c = compareOutput(replayed, eager, index, nd.atomics.empty());
    if (!nd.atomics.empty())
        c.note += (c.note.empty() ? "" : "; ") + std::string("after atomics in ") + joined(nd.atomics) +
                  ": compared with tolerance";
    return c;
}

// The replays after the first: the untimed warm-up ones, the graph update before the timed ones, then the timed
// ones, each synchronised on its own as the Python reference times them (bench/replay_bench.py), and as many back
// to back.
void timeReplays(at::cuda::CUDAGraph& graph, const CaptureSettings& settings, CudaGraphReport& report)
{
    for (int k = 1; k < settings.warmupReplays; ++k)
        graph.replay();
    c10::cuda::device_synchronize();
    if (settings.beforeTimedReplays) {
        // An update of the graph is an optimisation of what it checks: its failure is told, the replays go on.
        try {
            settings.beforeTimedReplays(graph.raw_cuda_graph(), graph.raw_cuda_graph_exec());
        } catch (const std::exception& e) {
            report.valueChecksNote = "full statistics on every replay: " + errorText(e);
        }
    }
    for (int k = 0; k < settings.timedReplays; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        graph.replay();
        c10::cuda::device_synchronize();
        if (settings.afterReplay)
            settings.afterReplay();
        report.replayUs.push_back(since(t0));
    }
    // Back to back, as a training loop launches them: launch overlaps the previous replay's GPU work.
    if (settings.timedReplays > 0) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < settings.timedReplays; ++k)
            graph.replay();
        c10::cuda::device_synchronize();
        report.replayBackToBackUs = since(t0) / settings.timedReplays;
    }
}

}  // namespace

void captureAndReplay(const c10::Device& device, const GraphPass& pass, const std::vector<c10::IValue>& eagerOutputs,
                      const std::vector<OutputNondeterminism>& nondeterministic, const CaptureSettings& settings,
                      CudaGraphReport& report)
{
    auto fail = [&](std::string why) {
        report.status = "capture-failed";
        report.reason = std::move(why);
    };
    c10::cuda::CUDAGuard deviceGuard(device.index());
    // The graph (and the private memory pool its outputs live in) must outlive the outputs: declared first.
    at::cuda::CUDAGraph graph(/*keep_graph=*/static_cast<bool>(settings.beforeTimedReplays));
    std::vector<c10::IValue> outputs;
    try {
        c10::cuda::device_synchronize();  // the inputs were made on the default stream
        const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(false, device.index());
        {
            c10::cuda::CUDAStreamGuard onSide(side);
            std::string failure;
            for (int k = 0; k < settings.warmupRuns && failure.empty(); ++k, ++report.warmupRuns)
                pass(failure);
            side.synchronize();
            if (!failure.empty())
                return fail("warm-up pass failed at " + failure);

            const auto t0 = std::chrono::steady_clock::now();
            graph.capture_begin();
            try {
                outputs = pass(failure);
            } catch (const std::exception& e) {
                failure = errorText(e);
            }
            // The capture must end even when a node failed inside it, or the stream stays in capture mode.
            try {
                graph.capture_end();
                if (settings.beforeTimedReplays)
                    graph.instantiate();  // a kept graph is instantiated on demand: here, inside captureUs as before
            } catch (const std::exception& e) {
                if (failure.empty())
                    failure = errorText(e);
            }
            report.captureUs = since(t0);
            if (!failure.empty()) {
                outputs.clear();
                return fail("capture failed at " + failure);
            }
        }

        graph.replay();
        c10::cuda::device_synchronize();
        if (settings.afterReplay)
            settings.afterReplay();
        if (outputs.size() != eagerOutputs.size())
            return fail("the captured pass returned " + std::to_string(outputs.size()) + " outputs, eager " +
                        std::to_string(eagerOutputs.size()));
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            const OutputNondeterminism none;
            const OutputNondeterminism& nd = k < nondeterministic.size() ? nondeterministic[k] : none;
            report.vsEager.push_back(compareWithEager(outputs[k], eagerOutputs[k], static_cast<int>(k), nd));
        }

        timeReplays(graph, settings, report);
        report.status = "captured";
    } catch (const std::exception& e) {
        outputs.clear();
        fail(errorText(e));
    }
}

#else

void captureAndReplay(const c10::Device&, const GraphPass&, const std::vector<c10::IValue>&,
                      const std::vector<OutputNondeterminism>&, const CaptureSettings&, CudaGraphReport& report)
{
    report.status = "capture-failed";
    report.reason = "this LibTorch has no CUDA support";
}

#endif

}  // namespace fxray::replay::detail
