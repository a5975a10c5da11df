#pragma once
// Internal to core/replay. torch.nn.functional functions whose Python signature differs from their aten
// schema (softmax's _stacklevel, dropout's training/inplace, batch_norm's argument order, embedding's
// padding_idx=None, losses' reduction strings): a table of their Python signatures, and the rewrite of a call
// into the aten call it makes.
#include "graph/graph.h"
#include "replay/ops/torch_level_overloads.h"

#include <string>
#include <utility>
#include <vector>

namespace fxray::replay::detail {

struct FunctionalRewrite {
    enum class Kind {
        NotListed,  // not in the table: resolve torch.nn.functional.<name> as aten::<name> directly
        Call,       // `call`
        Identity,   // returns its input as is (dropout outside training): `input`
    };
    Kind kind = Kind::NotListed;
    TorchCall call;
    graph::Arg input;
};

// Rewrites torch.nn.functional.<name>(args, kwargs). Throws std::invalid_argument when the call uses an
// argument that has no aten equivalent (embedding's max_norm, a reduce= of the old loss API).
FunctionalRewrite rewriteFunctional(const std::string& name, const std::vector<graph::Arg>& args,
                                    const std::vector<std::pair<std::string, graph::Arg>>& kwargs);

}  // namespace fxray::replay::detail
