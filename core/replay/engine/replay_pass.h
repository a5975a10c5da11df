#pragma once
// Internal to core/replay (includes LibTorch): what the engine's files share to run one replay, which
// engine/replayer.cpp drives: the prepared replay (prepare.cpp), one pass of the checked interpreter and its per-node
// device timers (interpreter.cpp), copies of a pass's values and their device memory (pass_values.cpp), and the steps
// after the pass: output comparison (output_comparison.cpp), timed repeats (timed_runs.cpp), CUDA-graph capture
// (cuda_graph_run.cpp). One job per file; the functions are the ones replayer.cpp held, moved.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"
#include "replay/engine/deferred_checks.h"
#include "replay/engine/graph_plan.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>
#include <c10/core/Event.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#if __has_include(<c10/cuda/CUDACachingAllocator.h>)
#include <c10/cuda/CUDACachingAllocator.h>
#define FXRAY_HAVE_CUDA_ALLOCATOR 1
#endif

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fxray::replay::engine {

using detail::NodePlan;

// What the interpreter asks of a graph node on every pass and every repeat, worked out once per graph: it depends on
// the graph alone (not on the device, the plans or the inputs), so any copy of a Prepared over the same graph may
// keep it.
struct NodeFacts {
    std::vector<int> inputs;          // the nodes whose values it reads, in graph::forEachNodeRef's order
    bool resizesStorage = false;      // inductor's resize_storage_bytes_: what gives a freed storage its bytes back
    bool backendPicksLayout = false;  // its kernel picks its output layout per device and backend (interpreter.cpp)
};
std::vector<NodeFacts> nodeFacts(const graph::Graph& g);

// Everything one pass over the graph needs, built once per replay.
struct Prepared {
    const graph::Graph* graph = nullptr;
    detail::PlanOptions planOptions;
    std::vector<NodePlan> plans;
    std::vector<c10::IValue> inputs;
    std::map<std::string, at::Tensor> constants;
    std::set<std::string> generatedConstants;  // constants the dump holds no value for (their values are made up)
    c10::Device device{c10::kCPU};
    // The capture's generator state for this device was restored: random ops draw what eager drew.
    bool rngRestored = false;
    // On the CPU: nodes whose recorded dtype is a fake-tensor rule's that the CPU kernel does not follow (mixed-dtype
    // normalisations' statistics, graph/mixed_norm_dtypes.h), checked against the kernel's dtype instead.
    std::map<int, graph::DType> kernelDtypes;
    // nodeFacts(*graph), set where a Prepared is built (prepare(), the chained forward's runner); a pass over one
    // without them works them out itself.
    std::vector<NodeFacts> facts;
};

// CUDA (or other accelerator) event pairs for per-node device time; empty on CPU.
class DeviceTimer {
public:
    DeviceTimer(const c10::Device& device, std::size_t nodes) : m_device(device)
    {
        if (!device.is_cuda())
            return;
        m_impl = c10::impl::getDeviceGuardImpl(device.type());
        m_start.reserve(nodes);
        m_end.reserve(nodes);
        for (std::size_t i = 0; i < nodes; ++i) {
            m_start.emplace_back(device.type(), c10::EventFlag::BACKEND_DEFAULT);
            m_end.emplace_back(device.type(), c10::EventFlag::BACKEND_DEFAULT);
        }
    }
    bool active() const { return m_impl != nullptr && !m_start.empty(); }
    void begin(std::size_t i) { m_start[i].record(m_impl->getStream(m_device)); }
    // Only nodes that got here are timed (an op that threw has no end event).
    void end(std::size_t i)
    {
        m_end[i].record(m_impl->getStream(m_device));
        m_used.push_back(i);
    }
    // Call after synchronising. Milliseconds -> microseconds.
    void collect(std::vector<NodeResult>& results)
    {
        for (std::size_t i : m_used)
            results[i].timeUs = m_start[i].elapsedTime(m_end[i]) * 1000.0;
    }

private:
    c10::Device m_device;
    const c10::impl::DeviceGuardImplInterface* m_impl = nullptr;
    std::vector<c10::Event> m_start, m_end;
    std::vector<std::size_t> m_used;
};

// prepare.cpp
c10::Device parseDevice(const std::string& text);
c10::Device resolveDevice(const std::string& text);
std::vector<std::string> unsupportedLines(const graph::Graph& g, const std::vector<NodePlan>& plans);
ReplayReport emptyReport(const io::LoadedGraph& lg, const ReplayOptions& options);
Prepared prepare(const io::LoadedGraph& lg, const ReplayOptions& options, ReplayReport& report);

// interpreter.cpp
void synchronize(const c10::Device& device);
std::vector<c10::IValue> interpret(const Prepared& p, const ReplayOptions& options, std::vector<NodeResult>* results,
                                   DeviceTimer* timer, ReplayReport* report, CancelToken* cancel,
                                   const ProgressSink& progress, const NodeSink& nodeDone = {},
                                   detail::DeferredValueChecks* capturedChecks = nullptr);

// pass_values.cpp
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
c10::CachingDeviceAllocator::Stat allocatedBytes(const c10::Device& device);
#endif
std::int64_t deviceBytes(const std::vector<c10::IValue>& values, const c10::Device& device);
std::vector<c10::IValue> cloneValues(const std::vector<c10::IValue>& values);
std::vector<c10::IValue> moveTo(const std::vector<c10::IValue>& values, const c10::Device& from, const c10::Device& to);

// output_comparison.cpp, timed_runs.cpp, cuda_graph_run.cpp
void compareStageOutputs(const Prepared& p, const StageIo& stage, const std::vector<c10::IValue>& outputs,
                         ReplayReport& report);
void compareOutputs(const io::LoadedGraph& lg, const Prepared& p, const ReplayOptions& options,
                    const std::vector<c10::IValue>& pristine, const std::vector<c10::IValue>& outputs,
                    CancelToken* cancel, ReplayReport& report);
void runTimedRepeats(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                     CancelToken* cancel, ReplayReport& report);
void runCudaGraph(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                  const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report);
// The CUDA-graph safety analysis of a prepared graph (findings, nondeterministic ops), before any capture.
CudaGraphReport cudaGraphAnalysis(const Prepared& p);
// `--repeat N` on CUDA: the timed repeats as replays of the captured checked pass (ReplayOptions::graphRepeats).
// False when not asked for (not CUDA, --interpreted-repeats, --cuda-graph, digests, stage compare) or when they
// cannot be (a blocking finding, an unclean pass, a failed capture, replays that differ from the pass: a note says
// which); the caller then runs the interpreted repeats.
bool runGraphRepeats(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                     const std::vector<c10::IValue>& eagerOutputs, ReplayReport& report);

}  // namespace fxray::replay::engine
