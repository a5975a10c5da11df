#pragma once
// The output_code stage of stage compare: inductor's generated code run in a Python child
// (tools/runtime/run_output_code.py, with the user's torch), and, when its outputs diverge, the first generated
// kernel whose buffers differ from the post-grad nodes they compute. Plain C++: the child does the Python side,
// a replay worker the comparison (LibTorch), this file the finding of both and the reading of their answers.
#include "base/json.h"
#include "io/compile_stages.h"
#include "replay/api/replay_types.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace fxray::replay {

// How the generated code is run. Empty fields are found: python from FXRAY_PYTHON, else the Python fxray was built
// against (when it still exists), else python3 on PATH; the runner from FXRAY_RUNTIME_DIR, else next to the
// executable (<prefix>/share/fxray/runtime, or the source tree's tools/runtime seen from a build tree).
struct OutputCodeOptions {
    bool enabled = true;
    std::string python;
    std::string runner;
    std::string file;   // an output_code.py (TORCH_COMPILE_DEBUG folder) instead of the log's record
    std::chrono::seconds timeout{900};  // inductor compiles the C++ / Triton kernels on first use
};

// The first generated kernel whose buffer differs from the post-grad node it computes.
struct KernelFinding {
    bool found = false;
    std::string why;                    // when not found
    std::string kernel;                 // "cpp_fused_relu_0", "triton_poi_fused_relu_0", "extern_kernels.addmm"
    std::string kind;                   // "cpp", "triton", "extern", "call"
    std::string buffer;                 // "buf1"
    std::string node;                   // the post-grad node it is held against ("relu")
    std::vector<std::string> nodes;     // every post-grad node it could be (none agree)
    std::vector<std::string> sourceNodes;  // inductor's "Source Nodes" comment (torch-level names), when there is one
    double maxAbs = 0;
    std::int64_t mismatched = 0, elements = 0;
    int index = 0, kernels = 0;         // its position among the code's kernel calls
    int callLine = 0;                   // line of the call in the code; in the log (or file): +firstLine-1
    std::string code;                   // the call statement
    int definitionFirst = 0, definitionLast = 0;  // the kernel's definition (cpp / triton), lines in the code
    std::string definition;             // its text
    std::string origin;                 // "<log>:<line of the call>"
};

std::string findPython(const OutputCodeOptions& o);
// Throws fxray::Error listing where it looked when the runner script is nowhere.
std::string findOutputCodeRunner(const OutputCodeOptions& o);

struct ChildAnswer {
    bool ok = false;
    std::string error;   // one paragraph: why the child failed (no torch, the code raised, timed out)
    json::Value json;    // the last JSON line the child printed
};

// Runs `<python> <runner> <args>`, polling `cancel`. Never throws.
ChildAnswer runOutputCodeChild(const OutputCodeOptions& o, const std::vector<std::string>& args, CancelToken* cancel);

KernelFinding kernelFindingFromJson(const json::Value& j, const io::OutputCode& code);
json::Value kernelFindingToJson(const KernelFinding& k);
// "first divergent kernel: cpp_fused_relu_0 (kernel 2 of 3) writes buf1 = post-grad node relu: 64 of 64 ..."
std::string formatKernelFinding(const KernelFinding& k);

}  // namespace fxray::replay
