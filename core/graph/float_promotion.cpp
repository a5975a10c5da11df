// A graph's floating-point dtypes promoted to float64 (float_promotion.h).
#include "graph/float_promotion.h"

namespace fxray::graph {
namespace {

DType promoted(DType t)
{
    switch (t) {
    case DType::Float32:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float8_e4m3fn:
    case DType::Float8_e5m2:
    case DType::Float8_e4m3fnuz:
    case DType::Float8_e5m2fnuz:
    case DType::Float8_e8m0fnu: return DType::Float64;
    case DType::ComplexHalf:
    case DType::Complex64: return DType::Complex128;
    default: return t;
    }
}

void promote(Arg& a)
{
    if (a.kind == Arg::Kind::DType)
        a.dtype = promoted(a.dtype);
    for (Arg& item : a.items)
        promote(item);
}

}  // namespace

Graph promotedToDouble(const Graph& g)
{
    Graph out = g;
    for (Node& n : out.nodes) {
        // _enter_autocast(device_type, dtype, enabled, cache_enabled): opened, but disabled (its dtype kept: autocast
        // takes no float64).
        if (n.target.kind == Target::Kind::Python && n.target.op == "torch.amp.autocast_mode._enter_autocast") {
            bool set = false;
            for (auto& [name, a] : n.kwargs)
                if (name == "enabled") {
                    a = Arg::ofBool(false);
                    set = true;
                }
            if (!set && n.args.size() > 2)
                n.args[2] = Arg::ofBool(false);
            else if (!set)
                n.kwargs.emplace_back("enabled", Arg::ofBool(false));
            continue;
        }
        for (Arg& a : n.args)
            promote(a);
        for (auto& [name, a] : n.kwargs)
            promote(a);
        if (n.meta && n.meta->isTensor())
            n.meta->tensor.dtype = promoted(n.meta->tensor.dtype);
        if (n.target.kind == Target::Kind::Method &&
            (n.target.op == "float" || n.target.op == "half" || n.target.op == "bfloat16"))
            n.target.op = "double";
    }
    return out;
}

}  // namespace fxray::graph
