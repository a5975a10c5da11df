#include "replay/inputs/input_chaining.h"

#include "base/error.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <map>

namespace fxray::replay::detail {
namespace {

// The node names of a graph's outputs, flattened in output order as the replayer collects them ("" for literals).
void outputNames(const graph::Graph& g, const graph::Arg& a, std::vector<std::string>& out)
{
    switch (a.kind) {
    case graph::Arg::Kind::List:
    case graph::Arg::Kind::Tuple:
        for (const graph::Arg& item : a.items)
            outputNames(g, item, out);
        break;
    case graph::Arg::Kind::Node: out.push_back(g.nodes[static_cast<std::size_t>(a.node)].name); break;
    default: out.emplace_back(); break;
    }
}

// Whether `value` can stand where the backward generated `generated`: same kind, and for tensors the same sizes
// and dtype (the layout may differ: the placeholder check then reports it, as it would for the real run).
bool fits(const c10::IValue& value, const c10::IValue& generated)
{
    if (generated.isTensor() != value.isTensor())
        return false;
    if (!value.isTensor())
        return value.isInt() == generated.isInt() && value.isDouble() == generated.isDouble();
    const at::Tensor& v = value.toTensor();
    const at::Tensor& g = generated.toTensor();
    return v.defined() && g.defined() && v.sizes() == g.sizes() && v.scalar_type() == g.scalar_type();
}

// Whether every element of `t` has a storage place of its own: dims ordered by stride each step over the whole
// extent of the smaller ones (true for dense and padded layouts, false for an expand's stride 0).
bool elementsApart(const at::Tensor& t)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (stride, size) of dims with more than one element
    for (std::int64_t d = 0; d < t.dim(); ++d)
        if (t.size(d) > 1)
            dims.emplace_back(t.stride(d), t.size(d));
    std::sort(dims.begin(), dims.end());
    std::int64_t extent = 1;  // elements spanned by the dims so far
    for (const auto& [stride, size] : dims) {
        if (stride < extent)
            return false;
        extent = stride * size;
    }
    return true;
}

// The forward's value in the layout the backward recorded (that of `generated`): inductor chooses the layout of
// the activations it saves (channels-last for convolutions) in code it generates, not in the forward graph, and
// hands the backward what the backward's graph records, padded strides included (DeiT's attention weights: rows of
// 324 stored 328 apart). Layouts without overlap only; an expanded one is passed as it is.
c10::IValue inRecordedLayout(const c10::IValue& value, const c10::IValue& generated)
{
    if (!value.isTensor())
        return value;
    const at::Tensor& v = value.toTensor();
    const at::Tensor& g = generated.toTensor();
    if (v.strides() == g.strides() || !elementsApart(g))
        return value;
    at::Tensor out = at::empty_strided(g.sizes(), g.strides(), v.options());
    out.copy_(v);
    return out;
}

}  // namespace

void chainFromForward(const io::LoadedGraph& backward, const ReplayOptions& options, const ForwardRunner& runForward,
                      std::vector<c10::IValue>& inputs, ReplayReport& report)
{
    const auto partner = io::forwardPartnerAddress(backward.entry);
    if (!partner)
        return;
    // A post-grad graph is chained only when it is a backward indeed (it reads tangents): an inference compile may
    // log a second graph too.
    const auto placeholders = backward.graph.placeholders();
    const bool readsTangents = std::any_of(placeholders.begin(), placeholders.end(), [&](int p) {
        return backward.graph.nodes[static_cast<std::size_t>(p)].name.starts_with("tangents_");
    });
    if (backward.entry.kind != io::GraphKind::Backward && !readsTangents)
        return;
    std::vector<c10::IValue> outputs;
    io::LoadedGraph forward;
    try {
        forward = io::loadAddress(*partner);
        ReplayOptions fo = options;
        fo.chain = false;
        outputs = runForward(forward, fo);
    } catch (const std::exception& e) {  // fxray::Error, c10::Error
        report.notes.push_back("not chained: its forward graph " + *partner + " did not replay (" +
                               std::string(e.what()).substr(0, 300) + "); saved activations were generated");
        return;
    }
    std::vector<std::string> names;
    const int out = forward.graph.outputNode();
    if (out >= 0 && !forward.graph.nodes[static_cast<std::size_t>(out)].args.empty())
        outputNames(forward.graph, forward.graph.nodes[static_cast<std::size_t>(out)].args[0], names);
    std::map<std::string, std::size_t> byName;
    for (std::size_t k = 0; k < names.size() && k < outputs.size(); ++k)
        if (!names[k].empty())
            byName.emplace(names[k], k);

    std::vector<std::string> unfit;
    for (std::size_t k = 0; k < placeholders.size() && k < inputs.size(); ++k) {
        const std::string& name = backward.graph.nodes[static_cast<std::size_t>(placeholders[k])].name;
        auto it = byName.find(name);
        if (it == byName.end())
            continue;  // a tangent, or an input the forward does not return
        const c10::IValue& value = outputs[it->second];
        if (!fits(value, inputs[k])) {
            unfit.push_back(name);
            continue;
        }
        inputs[k] = inRecordedLayout(value, inputs[k]);
        report.chainedInputs.push_back(name);
        // Its generated value's domain no longer describes what the replay uses.
        std::erase_if(report.constraints, [&](const std::string& c) { return c.starts_with(name + " "); });
    }
    report.chainedFrom = *partner;
    if (!unfit.empty()) {
        std::string list;
        for (const auto& n : unfit)
            list += (list.empty() ? "" : ", ") + n;
        report.notes.push_back("not chained (the forward's value has other sizes or dtype than recorded): " + list);
    }
}

}  // namespace fxray::replay::detail
