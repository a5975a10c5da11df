#pragma once
// Input metadata from every source, merged per placeholder with a stated precedence:
//   1. the seed layout's .input pickle (what the dumper saw: concrete sizes and strides),
//   2. the placeholder's annotation in the graph code (may be symbolic: "f32[s0, 64]"),
//   3. load_args of a runnable repro script (concrete hints; strides default to contiguous).
// The first source that has an entry wins; a scalar without a value takes its hint from a later source.
// Where two sources disagree on dtype, a concrete size or stride, or device, a warning names the input.
#include "graph/fx_parser.h"
#include "io/graph_source.h"

#include <optional>
#include <string>
#include <vector>

namespace fxray::io {

std::vector<InputSpec> mergeInputMetadata(const graph::Graph& g,
                                          const std::optional<std::vector<graph::ValueMeta>>& pickled,
                                          const std::string& pickleFile,
                                          const std::vector<graph::LoadArgsInput>& loadArgs,
                                          std::vector<std::string>& warnings);

}  // namespace fxray::io
