#include "graph/dynamo_numpy.h"

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
    if (const auto cut = name.find_last_of('_'); cut != std::string::npos && cut + 1 < name.size() &&
                                                 name.find_first_not_of("0123456789", cut + 1) == std::string::npos &&
                                                 isNumpyRandomFunction(name.substr(0, cut)))
        name.resize(cut);
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
