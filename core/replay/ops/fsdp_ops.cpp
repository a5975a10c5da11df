#include "replay/ops/fsdp_ops.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <algorithm>
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

// copy_(Tensor(a!) tensor, Tensor data) -> () (_fsdp_param.py): traceable FSDP2's unfunctionalized copy of the
// all-gathered data into the unsharded parameter.
void fsdpCopy(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    const at::Tensor data = torch::jit::pop(*stack).toTensor();
    at::Tensor tensor = torch::jit::pop(*stack).toTensor();
    tensor.copy_(data);
}

// inductor::resize_storage_bytes_(Tensor variable, SymInt new_size) -> () (torch/csrc/inductor, built into
// libtorch_python, which fxray does not load): traceable FSDP2 frees an unsharded parameter's storage (size 0) after
// use and gives it back before the all-gather writes it. The tensor's storage gets a fresh allocation from its own
// allocator (its device), the bytes both sizes share copied over, as storage.resize_ does.
void resizeStorageBytes(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    const std::int64_t bytes = torch::jit::pop(*stack).toInt();
    const at::Tensor variable = torch::jit::pop(*stack).toTensor();
    TORCH_CHECK(bytes >= 0, "resize_storage_bytes_: negative size ", bytes);
    c10::StorageImpl* storage = variable.storage().unsafeGetStorageImpl();
    TORCH_CHECK(storage->resizable(), "resize_storage_bytes_: the storage is not resizable");
    const std::int64_t old = static_cast<std::int64_t>(storage->nbytes());
    if (bytes == old)
        return;
    at::DataPtr fresh = storage->allocator()->allocate(static_cast<std::size_t>(bytes));
    const std::int64_t keep = std::min(old, bytes);
    if (keep > 0) {
        const auto options = at::TensorOptions().dtype(at::kByte).device(variable.device());
        at::from_blob(fresh.get(), {keep}, options).copy_(at::from_blob(storage->mutable_data(), {keep}, options));
    }
    storage->set_data_ptr_noswap(std::move(fresh));
    storage->set_nbytes(static_cast<std::size_t>(bytes));
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
        lib->def("copy_(Tensor(a!) tensor, Tensor data) -> ()");
        lib->impl("copy_", torch::dispatch(key, torch::CppFunction::makeFromBoxedFunction<&fsdpCopy>()));
        static auto inductor = std::make_unique<torch::Library>(torch::Library::FRAGMENT, "inductor", std::nullopt, __FILE__, __LINE__);
        if (!c10::Dispatcher::singleton().findSchema({"inductor::resize_storage_bytes_", ""})) {
            inductor->def("resize_storage_bytes_(Tensor variable, SymInt new_size) -> ()");
            inductor->impl("resize_storage_bytes_",
                           torch::dispatch(key, torch::CppFunction::makeFromBoxedFunction<&resizeStorageBytes>()));
        }
    });
}

}  // namespace fxray::replay::detail
