#include "graph/dynamo_numpy.h"

#include "graph/node_namer.h"

#include <string_view>

namespace fxray::graph {

std::string dynamoNumpyWrapped(const Node& n)
{
    static constexpr std::string_view kPrefix = "torch__dynamo_utils_wrapped_";
    if (n.kind != NodeKind::CallFunction || n.target.kind != Target::Kind::Python || !n.target.op.starts_with(kPrefix))
        return "";
    std::string name = n.target.op.substr(kPrefix.size());
    // FX's name for a second global of the same qualified name: "<name>_<digits>". numpy has names ending in
    // "_<digits>" of its own only outside np.random (none of the functions below), so the suffix is dropped only
    // where what remains is a random function.
    if (auto base = withoutFxSuffix(name); base && isNumpyRandomFunction(*base))
        return *base;
    return name;
}

bool isNumpyRandomFunction(const std::string& name)
{
    for (std::string_view f : {"rand", "random_sample", "sample", "random", "uniform", "randn", "normal", "randint",
                               "choice", "shuffle"})
        if (name == f)
            return true;
    return false;
}

}  // namespace fxray::graph
