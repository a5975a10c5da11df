#include "replay/ops/transformers_ops.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <memory>
#include <mutex>

namespace fxray::replay::detail {
namespace {

// grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor: rows [offs[i-1], offs[i]) of input (tokens
// sorted by expert) times expert i's weight [input_dim, output_dim], into a zero-filled (S, output_dim) output; rows
// past the last offset stay zero. Python's _grouped_mm_fallback, loop for loop (offs read on the host once).
void groupedMmFallback(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    const at::Tensor offs = torch::jit::pop(*stack).toTensor();
    const at::Tensor weight = torch::jit::pop(*stack).toTensor();
    const at::Tensor input = torch::jit::pop(*stack).toTensor();
    TORCH_CHECK(input.dim() == 2 && weight.dim() == 3 && offs.dim() == 1 && offs.size(0) == weight.size(0) &&
                    input.size(1) == weight.size(1),
                "transformers::grouped_mm_fallback: expected input (S, in), weight (experts, in, out), offs (experts,); got ",
                input.sizes(), ", ", weight.sizes(), ", ", offs.sizes());
    at::Tensor output = at::zeros({input.size(0), weight.size(2)}, input.options());
    const at::Tensor ends = offs.to(at::kCPU, at::kLong).contiguous();
    std::int64_t start = 0;
    for (std::int64_t i = 0; i < ends.numel(); ++i) {
        const std::int64_t end = ends.data_ptr<std::int64_t>()[i];
        if (start == end)
            continue;
        at::Tensor rows = output.slice(0, start, end);
        at::mm_out(rows, input.slice(0, start, end), weight[i]);
        start = end;
    }
    torch::jit::push(*stack, output);
}

}  // namespace

void registerTransformersOps()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Kept for the life of the process: unregistering happens when a Library is destroyed.
        static auto lib = std::make_unique<torch::Library>(torch::Library::FRAGMENT, "transformers", std::nullopt, __FILE__, __LINE__);
        lib->def("grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor");
        lib->impl("grouped_mm_fallback", torch::dispatch(c10::DispatchKey::CompositeExplicitAutograd,
                                                         torch::CppFunction::makeFromBoxedFunction<&groupedMmFallback>()));
    });
}

}  // namespace fxray::replay::detail
