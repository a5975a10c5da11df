#pragma once
// Lining up the graphs of one torch.compile compile (dynamo's graph, AOTAutograd's forward / inference / joint
// graph, inductor's post-grad graph and fx_graph_runnable) so that they can be fed the same inputs and their
// outputs compared. Plain C++.
//
// The inputs every stage is fed are generated once for the AOT graph's placeholders ("the reference inputs").
// AOTAutograd writes a descriptor comment after each of its placeholders and outputs (torch >= 2.8):
//   primals_3: "Sym(s77)",  # PlainAOTInput(idx=2)     <- dynamo's placeholder 2 (s77), in dynamo's order
//   addmm_1,  # PlainAOTOutput(idx=0)                   <- dynamo's (user) output 0
//   copy_,  # InputMutationAOTOutput(mutated_input=PlainAOTInput(idx=3))
//   relu,  # SavedForBackwardsAOTOutput(idx=2)
// so dynamo's placeholders and outputs map onto the AOT graph's through them. Inductor's post-grad graph and
// the runnable keep the AOT graph's placeholders and outputs as they are (same count, same order).
#include "graph/graph.h"

#include <string>
#include <vector>

namespace fxray::graph {

// "PlainAOTInput(idx=3)" -> {kind "PlainAOTInput", index 3}; "TangentAOTInput(output=PlainAOTOutput(idx=0))"
// -> {kind "TangentAOTInput", index -1}. Empty kind when the comment is not a descriptor.
struct AotDescriptor {
    std::string kind;
    int index = -1;      // idx= of the outermost descriptor, when it has one
    std::string target;  // target='...' of a ParamAOTInput / BufferAOTInput: the attribute dynamo's get_attr reads
    std::string text;
};
AotDescriptor parseAotDescriptor(const std::string& comment);

enum class StageRole {
    Dynamo,      // dynamo_output_graph: torch-level, its placeholders are the compile's user inputs
    Aot,         // aot_forward_graph / aot_inference_graph / aot_joint_graph: the reference inputs are its own
    Downstream,  // inductor_post_grad_graph / fx_graph_runnable: the AOT graph's placeholders and outputs, as is
};

struct StageIoMap {
    // Per placeholder of the stage: the index of the AOT placeholder whose generated value it takes; -1: the stage
    // generates this input from its own metadata (inputNotes says why).
    std::vector<int> inputs;
    std::vector<std::string> inputNotes;  // one line per input that is not taken from the reference inputs
    // Per user output u (dynamo's outputs, in order), then per input the compile mutates (mutatedInputs): the
    // position in the stage's flattened outputs; -1: none; -(j + 2): the stage's input j as it is after the run
    // (dynamo's graph mutates its inputs in place, the AOT graphs return the new values).
    std::vector<int> outputs;
    // Dynamo's module attributes (get_attr) that AOTAutograd lifted to inputs (ParamAOTInput(target=...): a
    // compiled optimizer's parameters and state): attribute -> the AOT placeholder whose generated value it takes.
    // In `outputs`, -(placeholders + c + 2) is constants[c] as the run leaves it.
    std::vector<std::pair<std::string, int>> constants;
    // Why this stage cannot be lined up with the AOT graph ("" when it can): nothing is compared for it.
    std::string unmappable;
    std::vector<std::string> notes;  // how the lining up was done when descriptors were missing
};

// The number of user outputs: the dynamo graph's flattened output count, or without one the AOT graph's
// PlainAOTOutput descriptors (or all its outputs when it has none).
int userOutputCount(const Graph* dynamo, const Graph& aot);

// An input the compile mutates: returned by the AOT graph (InputMutationAOTOutput(mutated_input=PlainAOTInput(
// idx=n)) at aotOutput), or written in place by it (copy_ into its placeholder aotInput; aotOutput -1).
// Compared after the user outputs, as each stage leaves it.
struct MutatedInput {
    int dynamoInput = -1;     // n: dynamo's placeholder
    int aotInput = -1;        // the AOT graph's placeholder
    int aotOutput = -1;
    std::string dynamoAttr;   // or dynamo's module attribute (ParamAOTInput / BufferAOTInput target), dynamoInput -1
};
std::vector<MutatedInput> mutatedInputs(const Graph& aot);

// Maps one stage onto the AOT graph. `aot` is the graph the reference inputs are generated for.
StageIoMap mapStage(const Graph& stage, StageRole role, const Graph& aot, int userOutputs);

}  // namespace fxray::graph
