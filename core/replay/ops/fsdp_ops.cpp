#include "replay/ops/fsdp_ops.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <memory>
#include <mutex>

namespace fxray::replay::detail {
namespace {

// all_gather_copy_in(Tensor[] all_gather_inputs, Tensor all_gather_output, SymInt[] inp_split_sizes,
//                    SymInt all_gather_input_numel, SymInt rank) -> (Tensor, Tensor):
// this rank's slice of the all-gather buffer, filled with its shards.
void allGatherCopyIn(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    const std::int64_t rank = torch::jit::pop(*stack).toInt();
    const std::int64_t numel = torch::jit::pop(*stack).toInt();
    const std::vector<std::int64_t> splits = torch::jit::pop(*stack).toIntVector();
    at::Tensor output = torch::jit::pop(*stack).toTensor();
    const std::vector<at::Tensor> inputs = torch::jit::pop(*stack).toTensorVector();
    at::Tensor input = output.narrow(0, numel * rank, numel);
    const std::vector<at::Tensor> dsts = at::split_with_sizes(input, splits);
    at::_foreach_copy_(dsts, inputs);
    torch::jit::push(*stack, input, output);
}

// split_with_sizes_copy(Tensor all_gather_output, SymInt[] all_gather_input_split_sizes, int dim=0, *,
//                       Tensor(a!)[] out) -> ()
void splitWithSizesCopy(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    std::vector<at::Tensor> out = torch::jit::pop(*stack).toTensorVector();
    const std::int64_t dim = torch::jit::pop(*stack).toInt();
    const std::vector<std::int64_t> splits = torch::jit::pop(*stack).toIntVector();
    const at::Tensor self = torch::jit::pop(*stack).toTensor();
    at::split_with_sizes_copy_out(out, self, splits, dim);
}

// chunk_cat(Tensor[] tensors, int dim, int num_chunks, *, Tensor(a!) out) -> ()
void chunkCat(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    at::Tensor out = torch::jit::pop(*stack).toTensor();
    const std::int64_t chunks = torch::jit::pop(*stack).toInt();
    const std::int64_t dim = torch::jit::pop(*stack).toInt();
    const std::vector<at::Tensor> tensors = torch::jit::pop(*stack).toTensorVector();
    at::_chunk_cat_out(out, tensors, dim, chunks);
}

}  // namespace

void registerFsdpOps()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Kept for the life of the process: unregistering happens when a Library is destroyed.
        static auto lib = std::make_unique<torch::Library>(torch::Library::FRAGMENT, "fsdp", std::nullopt, __FILE__, __LINE__);
        lib->def("all_gather_copy_in(Tensor[] all_gather_inputs, Tensor all_gather_output, SymInt[] inp_split_sizes, "
                 "SymInt all_gather_input_numel, SymInt rank) -> (Tensor, Tensor)");
        lib->def("split_with_sizes_copy(Tensor all_gather_output, SymInt[] all_gather_input_split_sizes, int dim=0, *, "
                 "Tensor(a!)[] out) -> ()");
        lib->def("chunk_cat(Tensor[] tensors, int dim, int num_chunks, *, Tensor(a!) out) -> ()");
        const auto key = c10::DispatchKey::CompositeExplicitAutograd;
        lib->impl("all_gather_copy_in", torch::dispatch(key, torch::CppFunction::makeFromBoxedFunction<&allGatherCopyIn>()));
        lib->impl("split_with_sizes_copy", torch::dispatch(key, torch::CppFunction::makeFromBoxedFunction<&splitWithSizesCopy>()));
        lib->impl("chunk_cat", torch::dispatch(key, torch::CppFunction::makeFromBoxedFunction<&chunkCat>()));
    });
}

}  // namespace fxray::replay::detail
