#include "io/input_merge.h"

namespace fxray::io {
namespace {

using graph::ValueMeta;

// Returns a description of the first disagreement, or empty.
std::string disagreement(const ValueMeta& a, const ValueMeta& b)
{
    const bool aTensor = a.isTensor(), bTensor = b.isTensor();
    if (aTensor != bTensor)
        return "one says tensor, the other scalar";
    if (!aTensor)
        return {};
    const auto& x = a.tensor;
    const auto& y = b.tensor;
    if (x.dtype != y.dtype)
        return "dtype";
    if (x.sizes.size() != y.sizes.size())
        return "rank";
    auto dimsDiffer = [](const std::vector<graph::SymDim>& p, const std::vector<graph::SymDim>& q) {
        for (std::size_t i = 0; i < p.size() && i < q.size(); ++i)
            if (p[i].isConstant() && q[i].isConstant() && *p[i].value != *q[i].value)
                return true;
        return false;
    };
    if (dimsDiffer(x.sizes, y.sizes))
        return "size";
    if (x.strides && y.strides && dimsDiffer(*x.strides, *y.strides)) {
        // Strides of size-1 dims carry no meaning (FORMATS.md: significant strides only).
        bool significant = false;
        for (std::size_t i = 0; i < x.sizes.size(); ++i)
            if (!(x.sizes[i].isConstant() && *x.sizes[i].value <= 1) && (*x.strides)[i].isConstant() &&
                (*y.strides)[i].isConstant() && *(*x.strides)[i].value != *(*y.strides)[i].value)
                significant = true;
        if (significant)
            return "stride";
    }
    if (x.device && y.device && x.device->type != y.device->type)
        return "device";
    return {};
}

bool isInteger(const std::string& s)
{
    if (s.empty())
        return false;
    for (std::size_t i = s[0] == '-' ? 1 : 0; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return s != "-";
}

}  // namespace

std::vector<InputSpec> mergeInputMetadata(const graph::Graph& g,
                                          const std::optional<std::vector<ValueMeta>>& pickled,
                                          const std::string& pickleFile,
                                          const std::vector<graph::LoadArgsInput>& loadArgs,
                                          std::vector<std::string>& warnings)
{
    const std::vector<int> placeholders = g.placeholders();
    if (pickled && pickled->size() != placeholders.size())
        warnings.push_back(pickleFile + ": has " + std::to_string(pickled->size()) + " entries for " +
                           std::to_string(placeholders.size()) + " graph inputs; its entries are not used");
    const bool usePickle = pickled && pickled->size() == placeholders.size();
    const bool loadArgsByPosition = loadArgs.size() == placeholders.size();

    std::vector<InputSpec> out;
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const graph::Node& node = g.nodes[static_cast<std::size_t>(placeholders[k])];
        struct Candidate {
            MetaSource source;
            ValueMeta meta;
        };
        std::vector<Candidate> candidates;
        if (usePickle && (*pickled)[k].kind != ValueMeta::Kind::None)  // None: a generator, known by its use
            candidates.push_back({MetaSource::InputPickle, (*pickled)[k]});
        if (node.meta)
            candidates.push_back({MetaSource::Annotation, *node.meta});
        const graph::LoadArgsInput* la = nullptr;
        for (const auto& l : loadArgs)
            if (!l.name.empty() && l.name == node.name)
                la = &l;
        if (!la && loadArgsByPosition)
            la = &loadArgs[k];
        if (la)
            candidates.push_back({MetaSource::LoadArgs, la->meta});

        InputSpec spec;
        spec.name = node.name;
        if (!candidates.empty()) {
            spec.source = candidates[0].source;
            spec.meta = candidates[0].meta;
            for (std::size_t c = 1; c < candidates.size(); ++c) {
                std::string what = disagreement(candidates[0].meta, candidates[c].meta);
                if (!what.empty())
                    warnings.push_back("input '" + node.name + "': " + std::string(metaSourceName(candidates[0].source)) +
                                       " says " + graph::formatAnnotation(candidates[0].meta) + " but " +
                                       std::string(metaSourceName(candidates[c].source)) + " says " +
                                       graph::formatAnnotation(candidates[c].meta) + " (" + what + ")");
                // A scalar recorded without a concrete value (".input" has "(int,)", an annotation says
                // "Sym(s0)") takes the concrete hint of a later source (load_args' reader.symint(8)).
                if (!spec.meta->isTensor() && !isInteger(spec.meta->symExpr) && !candidates[c].meta.isTensor() &&
                    isInteger(candidates[c].meta.symExpr)) {
                    spec.meta->symExpr = candidates[c].meta.symExpr;
                }
            }
        }
        out.push_back(std::move(spec));
    }
    return out;
}

}  // namespace fxray::io
