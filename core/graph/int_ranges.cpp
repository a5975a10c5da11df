#include "graph/int_ranges.h"

#include "graph/value_domains.h"

namespace fxray::graph {

std::vector<std::optional<IntRange>> inferIntRanges(const Graph& g)
{
    std::vector<std::optional<IntRange>> out(g.nodes.size());
    const auto domains = inferValueDomains(g);
    for (std::size_t i = 0; i < domains.size(); ++i)
        if (domains[i].kind == ValueDomain::Kind::IntRange)
            out[i] = IntRange{domains[i].low, domains[i].high, domains[i].reason};
    return out;
}

}  // namespace fxray::graph
