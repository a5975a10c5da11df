#include "replay/input_factory.h"

#include "base/error.h"
#include "graph/algorithms.h"
#include "graph/int_ranges.h"
#include "graph/sym_expr.h"
#include "io/pt_file.h"
#include "replay/device_placement.h"
#include "replay/pt_tensors.h"
#include "replay/torch_types.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <charconv>

namespace fxray::replay::detail {
namespace {

using graph::Node;

bool isIntLike(const graph::ValueMeta& m)
{
    return m.kind == graph::ValueMeta::Kind::Int || m.kind == graph::ValueMeta::Kind::SymInt;
}

}  // namespace

std::vector<c10::IValue> makeInputs(const io::LoadedGraph& lg, const ReplayOptions& options, const c10::Device& device,
                                    ReplayReport& report)
{
    const graph::Graph& g = lg.graph;
    const auto ranges = graph::inferIntRanges(g);
    const auto placeholders = g.placeholders();
    at::Generator gen = at::detail::createCPUGenerator(options.seed);

    // Symbols bound from SymInt inputs' hints, then from sizes that are a bare symbol with a known hint.
    graph::SymExpr::Bindings bindings(options.symbolValues.begin(), options.symbolValues.end());
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const auto& spec = lg.inputs[k];
        const Node& n = g.nodes[static_cast<std::size_t>(placeholders[k])];
        if (spec.meta && isIntLike(*spec.meta) && !spec.meta->symExpr.empty() && n.meta && isIntLike(*n.meta)) {
            auto hint = graph::SymExpr::parse(spec.meta->symExpr).evaluate({});
            std::string sym = graph::SymExpr::parse(n.meta->symExpr).singleSymbol();
            if (hint && !sym.empty() && !options.symbolValues.count(sym))
                bindings[sym] = *hint;
        }
    }
    // Symbols still free after the hints take the default, so every size that uses them is consistent.
    auto assume = [&](const std::string& expr) {
        for (const std::string& sym : graph::SymExpr::parse(expr).symbols()) {
            if (!bindings.count(sym)) {
                bindings[sym] = options.symbolDefault;
                report.notes.push_back(sym + " = " + std::to_string(options.symbolDefault) + ": no hint recorded for it");
            }
        }
    };
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const auto& spec = lg.inputs[k];
        if (!spec.meta)
            continue;
        if (spec.meta->isTensor()) {
            for (const auto& d : spec.meta->tensor.sizes)
                if (!d.isConstant())
                    assume(d.expr);
        } else if (isIntLike(*spec.meta) && !spec.meta->symExpr.empty()) {
            assume(spec.meta->symExpr);
        }
    }
    report.symbols.insert(bindings.begin(), bindings.end());
    auto resolve = [&](const graph::SymDim& d, const std::string& input) -> std::int64_t {
        if (d.isConstant())
            return *d.value;
        auto v = graph::SymExpr::parse(d.expr).evaluate(bindings);
        if (!v)
            throw Error("size '" + d.expr + "' of input '" + input + "' cannot be evaluated");
        return *v;
    };

    // One value from its metadata. `node` names it in messages and picks its int range; `onDevice` makes a
    // tensor recorded on the CPU on the replay device instead (compiled autograd's CUDA scalars).
    auto makeValue = [&](const graph::ValueMeta& m, const Node& n, int node, bool onDevice) -> c10::IValue {
        if (!m.isTensor()) {
            if (m.kind == graph::ValueMeta::Kind::Float || m.kind == graph::ValueMeta::Kind::SymFloat) {
                double v = 1.0;  // no hint recorded: a neutral value
                if (!m.symExpr.empty()) {
                    auto [ptr, ec] = std::from_chars(m.symExpr.data(), m.symExpr.data() + m.symExpr.size(), v);
                    if (ec != std::errc() || ptr != m.symExpr.data() + m.symExpr.size())
                        throw Error("float input '" + n.name + "' has hint '" + m.symExpr + "', not a number",
                                    SourceLocation{g.sourceFile, n.line, 0, n.name});
                }
                return v;
            }
            if (m.kind == graph::ValueMeta::Kind::SymBool)
                return m.symExpr != "False";  // a hint of True/False, else True
            std::optional<std::int64_t> v;
            if (!m.symExpr.empty())
                v = graph::SymExpr::parse(m.symExpr).evaluate(bindings);
            if (!v)
                throw Error("int input '" + n.name + "' has no recorded value or hint",
                            SourceLocation{g.sourceFile, n.line, 0, n.name});
            return *v;
        }
        const graph::TensorMeta& t = m.tensor;
        std::vector<std::int64_t> sizes, strides;
        for (const auto& d : t.sizes)
            sizes.push_back(resolve(d, n.name));
        if (t.strides) {
            for (const auto& d : *t.strides)
                strides.push_back(resolve(d, n.name));
        } else {
            auto contiguous = c10::contiguous_strides(sizes);
            strides.assign(contiguous.begin(), contiguous.end());
        }
        const std::int64_t offset = t.storageOffset ? resolve(*t.storageOffset, n.name) : 0;
        // Sizes come from a file: check them before asking ATen for memory.
        auto tooBig = [&](const std::string& why) {
            return Error("input '" + n.name + "': " + why, SourceLocation{g.sourceFile, n.line, 0, n.name});
        };
        if (strides.size() != sizes.size())
            throw tooBig("stride has " + std::to_string(strides.size()) + " entries for " + std::to_string(sizes.size()) +
                         " sizes");
        if (offset < 0)
            throw tooBig("negative storage offset");
        for (std::size_t d = 0; d < sizes.size(); ++d)
            if (sizes[d] < 0 || strides[d] < 0)
                throw tooBig("negative size or stride");
        const c10::ScalarType dtype = toScalarType(t.dtype);
        const c10::Device dev = t.device && !onDevice ? mapDevice(*t.device, device) : device;
        // Fill a flat base that covers every element the strides reach (expanded/overlapping strides included),
        // then view it: generating on the CPU keeps values identical across devices for the same seed.
        std::int64_t extent = 1;
        bool empty = false, overflow = false;
        for (std::size_t d = 0; d < sizes.size(); ++d) {
            empty = empty || sizes[d] == 0;
            std::int64_t span = 0;
            overflow = overflow || (sizes[d] > 0 && __builtin_mul_overflow(sizes[d] - 1, strides[d], &span)) ||
                       __builtin_add_overflow(extent, span, &extent);
        }
        std::int64_t baseNumel = offset;
        overflow = overflow || (!empty && __builtin_add_overflow(offset, extent, &baseNumel));
        constexpr std::int64_t kMaxBytes = std::int64_t(1) << 38;  // 256 GiB: more than any GPU here holds (H200: 141 GB)
        if (overflow || baseNumel > kMaxBytes / graph::dtypeItemSize(t.dtype))
            throw tooBig("needs more than 256 GiB of storage (sizes/strides out of range)");
        auto cpu = at::TensorOptions().dtype(dtype).device(c10::kCPU);
        // The device storage first: an input that does not fit fails here at once (an OOM naming the input),
        // before minutes of generating host values and host memory that the device could never hold.
        at::Tensor placed;
        if (!dev.is_cpu()) {
            try {
                placed = at::empty({baseNumel}, cpu.device(dev));
            } catch (const c10::Error& e) {
                const std::string what = e.what_without_backtrace();
                throw Error("input '" + n.name + "' (" + std::to_string(baseNumel * graph::dtypeItemSize(t.dtype)) +
                                " bytes) does not fit on " + dev.str() + ": " + what.substr(0, what.find('\n')),
                            SourceLocation{g.sourceFile, n.line, 0, n.name});
            }
        }
        at::Tensor base;
        if (t.dtype == graph::DType::Bool) {
            base = at::randint(0, 2, {baseNumel}, gen, cpu.dtype(at::kLong)).to(at::kBool);
        } else if (graph::dtypeIsIntegral(t.dtype)) {
            const auto& r = ranges[static_cast<std::size_t>(node)];
            std::int64_t lo = r ? r->low : options.intLow;
            std::int64_t hi = r ? r->high : options.intHigh;
            base = at::randint(lo, hi, {baseNumel}, gen, cpu.dtype(at::kLong)).to(dtype);
        } else if (graph::dtypeIsFloating(t.dtype) || graph::dtypeIsComplex(t.dtype)) {
            auto f32 = cpu.dtype(at::kFloat);
            base = options.floatDist == ReplayOptions::FloatDist::Uniform ? at::rand({baseNumel}, gen, f32)
                                                                          : at::randn({baseNumel}, gen, f32);
            base = base.to(dtype);
        } else {
            throw Error("cannot generate values of dtype " + std::string(graph::dtypeTorchName(t.dtype)) + " for '" +
                        n.name + "'");
        }
        if (placed.defined())
            placed.copy_(base);
        else
            placed = base;
        return placed.as_strided(sizes, strides, offset);
    };

    // Compiled-autograd graphs take lists (`inputs`, `sizes`, `hooks`, ...) unpacked by getitem; each element's
    // metadata is that getitem's (see io/compiled_autograd_meta.h).
    const bool compiledAutograd = lg.entry.kind == io::GraphKind::CompiledAutograd;
    const std::vector<int> moved = inputsMovedToDevice(g, device);
    std::vector<std::vector<int>> users(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        graph::forEachNodeRef(g.nodes[i], [&](int ref) { users[static_cast<std::size_t>(ref)].push_back(static_cast<int>(i)); });
    auto listInput = [&](const Node& n, int node) -> std::optional<c10::IValue> {
        const auto& getters = users[static_cast<std::size_t>(node)];
        if (getters.empty())
            return compiledAutograd ? std::optional<c10::IValue>(c10::IValue()) : std::nullopt;  // never read
        std::int64_t size = 0;
        for (int u : getters) {
            const Node& get = g.nodes[static_cast<std::size_t>(u)];
            if (get.target.kind != graph::Target::Kind::Getitem || get.args.size() != 2 ||
                get.args[1].kind != graph::Arg::Kind::Int || get.args[1].i < 0 || get.args[1].i > (1 << 20))
                return std::nullopt;
            size = std::max(size, get.args[1].i + 1);
        }
        // Hooks and packed data are Python objects: the nodes that use them need Python and are reported so.
        const bool opaque = compiledAutograd && (n.name == "hooks" || n.name == "packed_data");
        c10::impl::GenericList list(c10::AnyType::get());
        list.resize(static_cast<std::size_t>(size));
        for (int u : getters) {
            const Node& get = g.nodes[static_cast<std::size_t>(u)];
            const std::int64_t at = get.args[1].i;
            const std::string label = n.name + "[" + std::to_string(at) + "] (" + get.name + ")";
            if (!get.meta) {
                if (opaque || users[static_cast<std::size_t>(u)].empty())
                    continue;  // None
                throw Error("input " + label + " has no recorded metadata to build it from" +
                                (compiledAutograd ? " (compiled autograd records none; the dynamo_output_graph "
                                                    "of its compile, if logged, does not annotate this node)" : ""),
                            SourceLocation{g.sourceFile, get.line, 0, get.name});
            }
            const bool move = n.name == "inputs" && std::find(moved.begin(), moved.end(), at) != moved.end();
            if (move)
                report.notes.push_back("moved " + label + ", a 0-dim CPU tensor that only aten/prims ops read, to " +
                                       device.str() + " (as compiled autograd does on CUDA)");
            list.set(static_cast<std::size_t>(at), makeValue(*get.meta, get, u, move));
        }
        return c10::IValue(std::move(list));
    };

    std::vector<c10::IValue> out;
    for (std::size_t k = 0; k < placeholders.size(); ++k) {
        const auto& spec = lg.inputs[k];
        const Node& n = g.nodes[static_cast<std::size_t>(placeholders[k])];
        if (!spec.meta) {
            if (auto list = listInput(n, placeholders[k])) {
                out.push_back(std::move(*list));
                continue;
            }
            throw Error("input '" + n.name + "' has no recorded metadata to build it from",
                        SourceLocation{g.sourceFile, n.line, 0, n.name});
        }
        out.push_back(makeValue(*spec.meta, n, placeholders[k], false));
    }
    return out;
}

std::vector<c10::IValue> loadSavedInputs(const io::LoadedGraph& lg, const c10::Device& device)
{
    if (lg.savedInputsPath.empty())
        throw Error("this dump has no saved inputs (.pt); use random inputs", fileLocation(lg.entry.path));
    io::PtFile pt = io::readPtFile(lg.savedInputsPath);
    std::vector<c10::IValue> values = valuesFromPtList(pt, device);
    const std::size_t expected = lg.graph.placeholders().size();
    if (values.size() != expected)
        throw Error("saved inputs hold " + std::to_string(values.size()) + " values for " + std::to_string(expected) +
                        " graph inputs",
                    fileLocation(lg.savedInputsPath));
    return values;
}

}  // namespace fxray::replay::detail
