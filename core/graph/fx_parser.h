#pragma once
// One parser for FX Python code in every form torch dumps (FORMATS.md §2): module.py (to_folder),
// print_readable with annotations (inline, one per line with comments, pytree joint form), TORCH_TRACE payloads,
// TORCH_COMPILE_DEBUG fx_graph_readable.py / fx_graph_runnable.py (with load_args).
// Module level is a python script (imports, config, `if __name__` blocks are skipped); the body of
// `forward` is strict: anything it does not understand is an fxray::Error naming file:line:column.
#include "base/error.h"
#include "graph/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxray::graph {

struct ParseOptions {
    std::string fileName;  // for error messages and Graph::sourceFile
    int firstLine = 1;     // line number of the text's first line in fileName (trace payloads start mid-file)
};

// One input as fx_graph_runnable.py's load_args describes it (reader.tensor / reader.symint).
struct LoadArgsInput {
    std::string name;  // from the trailing "# primals_1" comment (may be empty)
    ValueMeta meta;
    int line = 0;
};

struct ParsedModule {
    Graph graph;
    bool hasLoadArgs = false;
    std::vector<LoadArgsInput> loadArgs;
};

// Throws fxray::Error on anything it cannot parse. Parses the first class with a forward method.
ParsedModule parseFxModule(std::string_view text, const ParseOptions& options);

// Annotation text without quotes: "f32[32, 64][64, 1]cuda:0", "i64[]", "Sym(s0)". Throws fxray::Error.
ValueMeta parseAnnotation(std::string_view text, const SourceLocation& where);

}  // namespace fxray::graph
