// `--repeat N`: the checked pass again on copies of the same inputs, each timed as a whole (synchronised), the
// last one measuring steady-state peak device memory.
#include "replay/engine/replay_pass.h"

#include <chrono>

namespace fxray::replay::engine {

// Timed repeats: the same checked pass, whole-graph wall time, synchronised; the last one measures steady-state
// peak memory.
void runTimedRepeats(const Prepared& p, const ReplayOptions& options, const std::vector<c10::IValue>& pristine,
                     CancelToken* cancel, ReplayReport& report)
{
    ReplayOptions timed = options;
    timed.timing = false;
    std::vector<NodeResult> scratch = report.nodes;
    Prepared again = p;
    for (int k = 0; k < options.warmup + options.repeat; ++k) {
        again.inputs = cloneValues(pristine);
        synchronize(p.device);
        const bool last = k + 1 == options.warmup + options.repeat;
        std::int64_t atStart = 0;
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        // What the pass adds on top of what was allocated when it started (one-time allocations such as the
        // cuBLAS workspace are behind us, as for a warmed-up Python process), plus its inputs.
        if (last && p.device.is_cuda()) {
            c10::cuda::CUDACachingAllocator::resetPeakStats(p.device.index());
            atStart = allocatedBytes(p.device).current;
        }
#endif
        const auto t0 = std::chrono::steady_clock::now();
        interpret(again, timed, &scratch, nullptr, nullptr, cancel, {});
        synchronize(p.device);
#ifdef FXRAY_HAVE_CUDA_ALLOCATOR
        if (last && p.device.is_cuda())
            report.peakDeviceBytes = allocatedBytes(p.device).peak - atStart + deviceBytes(again.inputs, p.device);
#endif
        if (k >= options.warmup)
            report.iterationUs.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
}

}  // namespace fxray::replay::engine
