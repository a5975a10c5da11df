// Stage compare's precision check (rounding_noise.h): which divergent outputs are rounding, and the notes that say
// why.
#include "replay/api/rounding_noise.h"

#include <cstdio>

namespace fxray::replay {
namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Machine epsilon (torch.finfo(dtype).eps) of the floating-point dtypes; 0 for the others.
double epsilonOf(graph::DType t)
{
    switch (t) {
    case graph::DType::Float64:
    case graph::DType::Complex128: return 0x1p-52;
    case graph::DType::Float32:
    case graph::DType::Complex64: return 0x1p-23;
    case graph::DType::Float16:
    case graph::DType::ComplexHalf: return 0x1p-10;
    case graph::DType::BFloat16: return 0x1p-7;
    default: return 0;
    }
}

// A comparison that found more than values apart: NaNs elsewhere, another kind, shape or dtype (its note says so; the
// other notes name the tolerance used: "computed from bfloat16 values", "TF32 convolutions upstream").
bool notValuesOnly(const OutputComparison& c)
{
    return c.note.find("NaNs in different places") != std::string::npos || c.note.starts_with("reference is");
}

// A divergent output that only values set apart.
bool divergentValues(const OutputComparison& c)
{
    return !c.ok && c.compared && !c.byRate && c.mismatched > 0 && !notValuesOnly(c);
}

const OutputComparison* at(const std::vector<OutputComparison>& v, int output)
{
    for (const OutputComparison& c : v)
        if (c.output == output && c.compared && !c.byRate && !notValuesOnly(c))
            return &c;
    return nullptr;
}

void excuse(OutputComparison& c, const std::string& why)
{
    c.ok = true;
    c.note = (c.note.empty() ? "" : c.note + "; ") + "rounding: " + why;
}

}  // namespace

std::string leastPreciseDtype(const graph::Graph& g)
{
    double eps = 0;
    std::string dtype;
    for (const graph::Node& n : g.nodes)
        if (n.meta && n.meta->isTensor() && epsilonOf(n.meta->tensor.dtype) > eps) {
            eps = epsilonOf(n.meta->tensor.dtype);
            dtype = std::string(graph::dtypeAbbrev(n.meta->tensor.dtype));
        }
    return dtype;
}

int excusePrecision(std::vector<OutputComparison>& low, const std::vector<OutputComparison>& high, const std::string& dtype,
                    const std::vector<OutputComparison>& referenceError)
{
    int excused = 0;
    for (OutputComparison& c : low) {
        const OutputComparison* h = at(high, c.output);
        if (!h)
            continue;
        c.roundingNoise = h->maxAbs;
        if (!divergentValues(c))
            continue;
        if (h->maxAbs <= kPrecisionShrink * c.maxAbs) {
            excuse(c, "computed in f64, the stages differ by " + number(h->maxAbs) + " where in " + dtype + " they differ by " +
                          number(c.maxAbs) + " (the difference shrinks with the precision: the same function, rounded "
                          "otherwise, in an ill-conditioned computation)");
            ++excused;
            continue;
        }
        const OutputComparison* ref = at(referenceError, c.output);
        const double noise = ref ? ref->maxAbs : 0;
        if (!(noise > 0 && c.maxAbs <= kNoiseFactor * noise && h->maxAbs <= kNoiseFactor * noise))
            continue;
        excuse(c, "ill-conditioned beyond f64: the reference's own " + dtype + " value is " + number(noise) +
                      " from its f64 value, and the stages differ by " + number(c.maxAbs) + " in " + dtype + " and " +
                      number(h->maxAbs) + " in f64, at most " + number(kNoiseFactor) +
                      "x that (no precision at hand tells a compiler change this small from rounding)");
        ++excused;
    }
    return excused;
}

std::vector<std::string> alignedDraws(const ReplayReport& r)
{
    std::vector<std::string> out;
    for (const NodeResult& n : r.nodes)
        if (n.schema.find("aligned") != std::string::npos && n.schema.find("draw") != std::string::npos)
            out.push_back(n.name + ": " + n.schema);
    return out;
}

int excuseGeneratedCode(std::vector<OutputComparison>& code, const std::vector<OutputComparison>& postGrad,
                        const std::vector<OutputComparison>& referenceError)
{
    int excused = 0;
    for (OutputComparison& c : code) {
        const OutputComparison* pg = at(postGrad, c.output);
        const OutputComparison* ref = at(referenceError, c.output);
        if (!divergentValues(c) || !pg || !pg->ok || !ref)
            continue;
        const double noise = std::max(ref->maxAbs, pg->maxAbs);
        c.roundingNoise = noise;
        if (!(c.maxAbs <= kNoiseFactor * noise))
            continue;
        excuse(c, "the post-grad graph this code computes agrees with the reference" +
                      std::string(pg->note.find("rounding:") != std::string::npos ? " in f64" : "") +
                      ", and rounding moves this output by " + number(noise) + " (the reference from its f64 value, or the "
                      "post-grad graph from the reference); the code differs by " + number(c.maxAbs) + ", at most " +
                      number(kNoiseFactor) + "x that");
        ++excused;
    }
    return excused;
}

}  // namespace fxray::replay
