#pragma once
// What the nodes of a compiled-autograd graph (TORCH_TRACE `compiled_autograd_graph`) are. Besides aten ops
// the graph calls Python-level helpers, printed as the function's module path with "." turned into "_":
//   torch__dynamo_compiled_autograd_ops_validate_outputs(...)   checks/coerces gradients against metadata
//   torch__dynamo_compiled_autograd_call_aot_bwd_prologue(...)   feeds an inlined AOT backward its inputs
//   torch__dynamo_external_utils_call_accumulate_grad(...)       param.grad += grad
//   torch__dynamo_external_utils_call_hook(hook, x, hook_type=)  a user hook (Python code)
//   torch__dynamo_compiled_autograd_ops_MulBackward0(...)        an autograd node's backward, run from Python
//   torch__dynamo_compiled_autograd_ops_CppNode<Fn>(...)         a custom autograd.Function's backward
// Plain C++: the replay planner and the tests share these rules.
#include "graph/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxray::graph {

enum class CompiledAutogradCall {
    None,               // not a compiled-autograd helper
    ValidateOutputs,    // identity for gradients that match their metadata
    AotBwdPrologue,     // saved tensors ++ symints ++ opaque objects ++ gradients
    AccumulateGrad,     // side effect on a parameter's .grad
    FinalCallbacksStub, // no-op marker at the end
    UnwrapDynamicInt,   // an int from `sizes` (an int, or a tensor whose size(1) is the int)
    Hook,               // call_hook: user code
    AutogradNode,       // compiled_autograd.ops.<Node>: an autograd node's backward through Python
    CustomFunction,     // compiled_autograd.ops.CppNode<Fn>: a user autograd.Function's backward
};

// Classifies a call_function node by its printed target name.
CompiledAutogradCall compiledAutogradCall(const Node& n);

// The autograd nodes (compiled_autograd.ops.<Node>) fxray runs without Python: LibTorch's own generated node of that
// name (torch::autograd::generated::<Node>, the formula eager runs), its saved fields filled from the call's
// arguments in their declared order, and ops.AccumulateGrad through AccumulateGrad::accumulateGrad. The replay
// (replay/ops/autograd_nodes) implements exactly these; every other node needs Python.
bool autogradNodeRunsNatively(std::string_view node);

// Why a compiled-autograd helper call needs Python ("needs Python: call_hook runs a user hook (tensor_pre_hook)"),
// or "" when fxray runs it natively. Only meaningful for nodes that compiledAutogradCall classifies.
std::string compiledAutogradPythonReason(const Node& n);

// Indices k of `inputs[k]` that compiled autograd moves to the GPU before running a CUDA graph
// (AutogradCompilerInstance.move_graph_nodes_to_cuda): 0-dim CPU tensors (recorded metadata) all of whose users are
// aten/prims ops or compiled_autograd.ops calls (built-in autograd nodes, validate_outputs; not custom Functions:
// those are user code that may look at the device), and only when some other input is recorded on CUDA. Empty for graphs without an `inputs` placeholder.
std::vector<int> cudaMovableScalarInputs(const Graph& g);

}  // namespace fxray::graph
