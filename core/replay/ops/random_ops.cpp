#include "replay/ops/random_ops.h"

#include "replay/ops/aligned_attention.h"

#include "base/error.h"
#include "graph/printer.h"
#include "io/pt_file.h"
#include "replay/plan/plan_builders.h"
#include "replay/values/pt_tensors.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>

namespace fxray::replay::detail {

// The generator of the k-th aligned draw: seeded by (seed, k) with splitmix64, so ordinals draw independent streams.
at::Generator alignedGenerator(std::uint64_t seed, std::int64_t ordinal)
{
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(ordinal) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return at::detail::createCPUGenerator(z ^ (z >> 31));
}

// Drawn on the CPU and moved: the same values on every device.
at::Tensor alignedDraw(std::uint64_t seed, std::int64_t ordinal, c10::IntArrayRef sizes, bool normal, const c10::Device& device)
{
    at::Generator gen = alignedGenerator(seed, ordinal);
    const auto opts = at::TensorOptions().dtype(at::kFloat);
    at::Tensor t = normal ? at::randn(sizes, gen, opts) : at::rand(sizes, gen, opts);
    return t.to(device);
}

namespace {

using graph::Arg;

// An int or SymInt (a node's value) operand.
ArgPlan intArg(const graph::Graph& g, const Arg& a)
{
    if (a.kind == Arg::Kind::Int)
        return constantArg(a.i);
    if (a.kind == Arg::Kind::Node)
        return valueArg(a.node);
    throw std::invalid_argument("expected an int, got " + graph::formatArg(g, a));
}

// A size list of ints and SymInts.
ArgPlan sizeArg(const graph::Graph& g, const Arg& a)
{
    if (a.kind != Arg::Kind::List && a.kind != Arg::Kind::Tuple)
        throw std::invalid_argument("expected a size list, got " + graph::formatArg(g, a));
    ArgPlan p;
    p.kind = ArgPlan::Kind::IntList;
    for (const Arg& item : a.items)
        p.items.push_back(intArg(g, item));
    return p;
}

ArgPlan tensorArg(const graph::Graph& g, const Arg& a)
{
    if (a.kind != Arg::Kind::Node)
        throw std::invalid_argument("expected a tensor, got " + graph::formatArg(g, a));
    return valueArg(a.node);
}

std::string modeOf(const graph::Graph& g, const Arg& a)
{
    if (a.kind != Arg::Kind::String || (a.s != "rand" && a.s != "randn"))
        throw std::invalid_argument("inductor_random mode must be 'rand' or 'randn', got " + graph::formatArg(g, a));
    return a.s;
}

// inductor_random / inductor_randint: natural mode runs inductor's eager definition (a draw from the global
// generator of the seed's device, the seed itself unused); aligned mode reads the seed as the draw's ordinal.
NodePlan planRandomDraw(const graph::Graph& g, const graph::Node& n, const RngPlan& rng)
{
    if (n.target.op == "inductor_random") {
        if (n.args.size() != 3 || !n.kwargs.empty())
            throw std::invalid_argument("inductor_random(size, seed, mode) takes 3 positional arguments");
        const bool normal = modeOf(g, n.args[2]) == "randn";
        const std::string what = normal ? "randn" : "rand";
        if (rng.aligned)
            return nativePlan({sizeArg(g, n.args[0]), tensorArg(g, n.args[1])},
                              "prims.inductor_random(size, seed, '" + what + "'): aligned draw number seed (stage compare)",
                              [normal, base = rng.seed](const std::vector<c10::IValue>& v) -> c10::IValue {
                                  const at::Tensor& seed = v[1].toTensor();
                                  return alignedDraw(base, seed.item<std::int64_t>(), v[0].toIntVector(), normal, seed.device());
                              });
        return nativePlan({sizeArg(g, n.args[0]), tensorArg(g, n.args[1])},
                          "prims.inductor_random(size, seed, mode) = torch." + what + "(size, device=seed.device) (inductor's eager definition)",
                          [normal](const std::vector<c10::IValue>& v) -> c10::IValue {
                              const auto opts = at::TensorOptions().device(v[1].toTensor().device());
                              return normal ? at::randn(v[0].toIntVector(), opts) : at::rand(v[0].toIntVector(), opts);
                          });
    }
    if (n.args.size() != 4 || !n.kwargs.empty())
        throw std::invalid_argument("inductor_randint(low, high, size, seed) takes 4 positional arguments");
    std::vector<ArgPlan> args{intArg(g, n.args[0]), intArg(g, n.args[1]), sizeArg(g, n.args[2]), tensorArg(g, n.args[3])};
    if (rng.aligned)
        return nativePlan(std::move(args), "prims.inductor_randint(low, high, size, seed): aligned draw number seed (stage compare)",
                          [base = rng.seed](const std::vector<c10::IValue>& v) -> c10::IValue {
                              const at::Tensor& seed = v[3].toTensor();
                              at::Generator gen = alignedGenerator(base, seed.item<std::int64_t>());
                              return at::randint(v[0].toInt(), v[1].toInt(), v[2].toIntVector(), gen,
                                                 at::TensorOptions().dtype(at::kLong))
                                  .to(seed.device());
                          });
    return nativePlan(std::move(args), "prims.inductor_randint(low, high, size, seed) = torch.randint(low, high, size) (inductor's eager definition)",
                      [](const std::vector<c10::IValue>& v) -> c10::IValue {
                          return at::randint(v[0].toInt(), v[1].toInt(), v[2].toIntVector(),
                                             at::TensorOptions().dtype(at::kLong).device(v[3].toTensor().device()));
                      });
}

}  // namespace

int argIndex(const NodePlan& plan, const char* name)
{
    const auto& formals = plan.op->schema().arguments();
    for (std::size_t i = 0; i < formals.size(); ++i)
        if (formals[i].name() == name)
            return static_cast<int>(i);
    return -1;
}

namespace {

// The tensor options a factory's dtype/device arguments ask for (device already mapped by the planner).
at::TensorOptions factoryOptions(const std::vector<c10::IValue>& v, int dtype, int device, const at::Tensor* like)
{
    at::TensorOptions o = like ? like->options() : at::TensorOptions().dtype(at::kFloat);
    if (dtype >= 0 && !v[static_cast<std::size_t>(dtype)].isNone())
        o = o.dtype(v[static_cast<std::size_t>(dtype)].toScalarType());
    if (device >= 0 && !v[static_cast<std::size_t>(device)].isNone())
        o = o.device(v[static_cast<std::size_t>(device)].toDevice());
    return o;
}

// SDPA's math with dropout on the attention weights, as inductor decomposes it (softmax, then
// keep = rand_like(attn) > p, attn * keep / (1 - p), then @ value), the draw being aligned draw `k`. The fused kernels
// draw inside (philox on CUDA, the global generator on the CPU) where no other stage can follow.
}  // namespace

namespace {

// Aligned mode's seeds: seed i is the program-order ordinal of the draw that looks it up, i.e. i plus the fused
// attention kernels with dropout before that lookup (they draw too, in the dynamo graph as SDPA).
std::vector<std::int64_t> alignedSeeds(const graph::Graph& g, const graph::Node& seeds, std::int64_t count)
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(std::max<std::int64_t>(count, 1)));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::int64_t>(i);
    const int self = static_cast<int>(&seeds - g.nodes.data());
    std::int64_t fused = 0;
    for (const graph::Node& n : g.nodes) {
        fused += fusedAttentionDraws(n) ? 1 : 0;
        if (n.target.op == "inductor_lookup_seed" && n.args.size() == 2 && n.args[0].kind == Arg::Kind::Node &&
            n.args[0].node == self && n.args[1].kind == Arg::Kind::Int && n.args[1].i >= 0 &&
            static_cast<std::size_t>(n.args[1].i) < out.size())
            out[static_cast<std::size_t>(n.args[1].i)] = n.args[1].i + fused;
    }
    return out;
}

}  // namespace

std::optional<NodePlan> planInductorRandomPrim(const graph::Graph& g, const graph::Node& n, const c10::Device& device,
                                               RngPlan& rng)
{
    const std::string& op = n.target.op;
    if (op == "inductor_seed" || op == "inductor_seeds") {
        const bool many = op == "inductor_seeds";
        if (n.args.size() != (many ? 2u : 1u) || !n.kwargs.empty() || n.args.back().kind != Arg::Kind::Device ||
            (many && n.args[0].kind != Arg::Kind::Int))
            throw std::invalid_argument("prims." + op + (many ? "(count, device)" : "(device)") + " takes literal arguments");
        const c10::Device where = mapDevice(n.args.back().device, device);
        const std::vector<std::int64_t> shape = many ? std::vector<std::int64_t>{n.args[0].i} : std::vector<std::int64_t>{};
        if (rng.aligned)  // seed k is a draw's ordinal: inductor_lookup_seed(seeds, k) hands the draw its number
            return nativePlan({}, "prims." + op + ": the draws' program-order ordinals as seeds (aligned RNG, stage compare)",
                              [where, shape, ordinals = alignedSeeds(g, n, shape.empty() ? 1 : shape[0])](
                                  const std::vector<c10::IValue>&) -> c10::IValue {
                                  at::Tensor t = at::tensor(ordinals, at::TensorOptions().dtype(at::kLong));
                                  return (shape.empty() ? t[0].clone() : t).to(where);
                              });
        return nativePlan({}, "prims." + op + " = torch.randint(2**63 - 1, [count], device) (inductor's eager definition)",
                          [where, shape](const std::vector<c10::IValue>&) -> c10::IValue {
                              return at::randint(std::numeric_limits<std::int64_t>::max(), shape,
                                                 at::TensorOptions().dtype(at::kLong).device(where));
                          });
    }
    if (op == "inductor_lookup_seed") {
        if (n.args.size() != 2 || !n.kwargs.empty())
            throw std::invalid_argument("prims.inductor_lookup_seed(seeds, index) takes 2 positional arguments");
        ++rng.lookupsSeen;
        return nativePlan({tensorArg(g, n.args[0]), intArg(g, n.args[1])}, "prims.inductor_lookup_seed(seeds, index) = seeds[index]",
                          [](const std::vector<c10::IValue>& v) -> c10::IValue { return v[0].toTensor()[v[1].toInt()]; });
    }
    if (op == "inductor_random" || op == "inductor_randint")
        return planRandomDraw(g, n, rng);
    return std::nullopt;
}

std::optional<NodePlan> alignedRandomPlan(const NodePlan& plan, RngPlan& rng)
{
    if (!rng.aligned)
        return std::nullopt;
    // Attention's dropout (SDPA, the fused kernels, and on the CPU their stand-ins, named in plan.name).
    if (plan.kind == NodePlan::Kind::Native && plan.name.starts_with("aten::_scaled_dot_product_"))
        return alignedAttentionPlan(plan, plan.name, rng);
    if (plan.kind != NodePlan::Kind::Op || !plan.op)
        return std::nullopt;
    const c10::OperatorName& name = plan.op->schema().operator_name();
    if (name.name.find("scaled_dot_product") != std::string::npos)
        return alignedAttentionPlan(plan, name.name, rng);
    static const std::set<std::string, std::less<>> kAligned = {"aten::dropout",   "aten::native_dropout", "aten::bernoulli",
                                                                "aten::bernoulli_", "aten::dropout_",
                                                                "aten::rand",      "aten::rand_like",      "aten::randn",
                                                                "aten::randn_like", "aten::uniform",    "aten::uniform_"};
    if (!kAligned.contains(name.name))
        return std::nullopt;
    const std::string& op = name.name;
    const bool factory = op == "aten::rand" || op == "aten::randn";
    if (factory && argIndex(plan, "size") != 0)
        return std::nullopt;  // rand.generator and friends: left to the generator they name
    const std::int64_t k = rng.nextOrdinal++;
    const std::uint64_t base = rng.seed;
    NodePlan p = plan;
    p.kind = NodePlan::Kind::Native;
    p.op.reset();
    p.schema = c10::toString(plan.op->schema()) + "  [aligned RNG draw " + std::to_string(k) + " (stage compare)]";
    if (op == "aten::dropout" || op == "aten::native_dropout") {
        // inductor's decomposition: mask = rand_like(x) > p, out = mask * x * (1 / (1 - p)).
        const bool pair = op == "aten::native_dropout";
        p.native = [k, base, pair](const std::vector<c10::IValue>& v) -> c10::IValue {
            const at::Tensor& x = v[0].toTensor();
            const double prob = v[1].toDouble();
            const bool train = v[2].isNone() || v[2].toBool();
            if (!train || prob == 0)
                return pair ? c10::IValue(c10::ivalue::Tuple::create(x.clone(), at::ones_like(x, at::kBool))) : c10::IValue(x);
            const at::Tensor mask = alignedDraw(base, k, x.sizes(), false, x.device()).to(x.scalar_type()) > prob;
            at::Tensor out = mask * x * (1.0 / (1.0 - prob));
            return pair ? c10::IValue(c10::ivalue::Tuple::create(std::move(out), mask)) : c10::IValue(std::move(out));
        };
        return p;
    }
    if (op == "aten::dropout_") {
        // In place (torchvision's nn.Dropout(inplace=True): EfficientNet's classifier). No decomposition makes it
        // native_dropout: its composite kernel is noise = empty_like(x).bernoulli_(1 - p), x.mul_(noise / (1 - p)) on
        // every device, and that is what the AOT and post-grad graphs hold (bernoulli.p(empty, 1 - p)). So it draws
        // as that bernoulli does here (u < 1 - p): `u > p`, non-inplace dropout's mask, would keep other elements.
        p.native = [k, base](const std::vector<c10::IValue>& v) -> c10::IValue {
            at::Tensor x = v[0].toTensor();
            const double prob = v[1].toDouble();
            const bool train = v[2].isNone() || v[2].toBool();
            if (!train || prob == 0)
                return x;
            if (prob == 1)
                return x.mul_(0);
            const at::Tensor keep = alignedDraw(base, k, x.sizes(), false, x.device()) < (1.0 - prob);
            return x.mul_(keep.to(x.scalar_type()).div_(1.0 - prob));
        };
        return p;
    }
    if (op == "aten::uniform" || op == "aten::uniform_") {
        // from + (to - from) * u: torch._numpy's rand (np.random.rand in a dynamo graph) is empty().uniform_() and
        // its AOT graph uniform(empty): both take the same aligned draw.
        const bool inPlace = op == "aten::uniform_";
        p.native = [k, base, inPlace](const std::vector<c10::IValue>& v) -> c10::IValue {
            at::Tensor x = v[0].toTensor();
            const double from = v[1].toDouble(), to = v[2].toDouble();
            const at::Tensor u = alignedDraw(base, k, x.sizes(), false, x.device()).to(x.scalar_type()) * (to - from) + from;
            return inPlace ? x.copy_(u) : u;
        };
        return p;
    }
    if (op == "aten::bernoulli") {
        const bool scalarP = name.overload_name == "p";
        p.native = [k, base, scalarP](const std::vector<c10::IValue>& v) -> c10::IValue {
            const at::Tensor& x = v[0].toTensor();
            const at::Tensor u = alignedDraw(base, k, x.sizes(), false, x.device());
            return (scalarP ? u < v[1].toDouble() : u < x.to(at::kFloat)).to(x.scalar_type());
        };
        return p;
    }
    if (op == "aten::bernoulli_") {
        // In place (timm's drop_path: x.new_empty(shape).bernoulli_(keep_prob)), as inductor decomposes it:
        // self.copy_(rand_like(self) < p), p a float (.float) or a tensor (.Tensor).
        p.native = [k, base](const std::vector<c10::IValue>& v) -> c10::IValue {
            const at::Tensor& x = v[0].toTensor();
            const at::Tensor u = alignedDraw(base, k, x.sizes(), false, x.device());
            x.copy_(v[1].isTensor() ? u < v[1].toTensor().to(at::kFloat) : u < v[1].toDouble());
            return x;
        };
        return p;
    }
    const bool normal = op.find("randn") != std::string::npos, like = !factory;
    const int dtype = argIndex(plan, "dtype"), device = argIndex(plan, "device");
    p.native = [k, base, normal, like, dtype, device](const std::vector<c10::IValue>& v) -> c10::IValue {
        const at::Tensor* self = like ? &v[0].toTensor() : nullptr;
        const at::TensorOptions o = factoryOptions(v, dtype, device, self);
        const std::vector<std::int64_t> sizes = like ? self->sizes().vec() : v[0].toIntVector();
        return alignedDraw(base, k, sizes, normal, o.device()).to(o.dtype().toScalarType());
    };
    return p;
}

bool restoreGeneratorStates(const std::string& path, const c10::Device& device, const std::string& drewOn,
                            std::vector<std::string>& notes)
{
    static const std::string kByRate = "outputs that depend on random ops are compared by shape, dtype and rates, not values";
    // A CUDA dump replayed on the CPU restored the CPU state and claimed eager's draws (t5.flex_forward_2: 60 outputs
    // below its dropouts "diverged" on a CPU machine).
    if (drewOn != c10::DeviceTypeName(device.type(), true)) {
        notes.push_back("random state in " + path + " not restored: the graph was recorded on " + drewOn +
                        " and replays on " + device.str() + ", whose generator draws other values: " + kByRate);
        return false;
    }
    const io::PtFile pt = io::readPtFile(path);
    if (pt.root.kind != io::PtValue::Kind::Dict)
        throw Error("expected a dict of generator states ({\"cpu\": tensor, \"cuda:N\": tensor}), got " +
                        std::string(io::ptKindName(pt.root.kind)),
                    fileLocation(path));
    const std::string want = device.is_cuda() ? "cuda:" + std::to_string(device.index()) : "cpu";
    bool restored = false;
    for (const io::PtEntry& e : pt.root.entries) {
        if (e.first.kind != io::PtValue::Kind::String || !e.second.isTensor())
            throw Error("generator state entries are \"cpu\" / \"cuda:N\": uint8 tensor", fileLocation(path));
        const std::string& key = e.first.text;
        const at::Tensor state = tensorFromRecord(*e.second.tensor, c10::Device(c10::kCPU));
        if (key != "cpu" && key != want)
            continue;  // another GPU's stream: this replay draws nothing there
        at::Generator gen = key == "cpu" ? at::detail::getDefaultCPUGenerator() : at::globalContext().defaultGenerator(device);
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_state(state);
        restored = restored || key == want;
    }
    notes.push_back(restored ? "random state restored from " + path + ": random ops draw what eager drew"
                             : "random state in " + path + " has no " + want + " generator (recorded on another device): " +
                                   kByRate);
    return restored;
}

OutputComparison compareRandomOutput(const c10::IValue& actual, const c10::IValue& reference, int index,
                                     const std::string& randomOp)
{
    OutputComparison c;
    c.output = index;
    c.what = describeValue(actual);
    c.byRate = true;
    const std::string by = "by rate (depends on random op " + randomOp + ": its draws are not reproduced here)";
    if (!actual.isTensor() || !reference.isTensor()) {
        c.ok = actual.isTensor() == reference.isTensor();
        c.note = c.ok ? by : "reference is " + describeValue(reference);
        return c;
    }
    const at::Tensor a = actual.toTensor().cpu(), b = reference.toTensor().cpu();
    if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type()) {
        c.ok = false;
        c.note = "reference is " + describeValue(reference);
        return c;
    }
    if (a.numel() == 0 || (a.scalar_type() != at::kBool && !a.is_floating_point())) {
        c.note = by + ": shape and dtype agree";
        return c;
    }
    const bool mask = a.scalar_type() == at::kBool;
    auto rate = [mask](const at::Tensor& t) { return (mask ? t : t.eq(0)).to(at::kDouble).mean().item<double>(); };
    const double ra = rate(a), rb = rate(b);
    const double tol = 5.0 * std::sqrt(std::max(rb * (1 - rb), 1e-12) / static_cast<double>(b.numel())) + 0.005;
    c.maxAbs = std::abs(ra - rb);
    c.atol = tol;
    c.ok = c.maxAbs <= tol;
    char buf[160];
    std::snprintf(buf, sizeof buf, ": %s rate %.4f vs %.4f (tolerance %.4f)", mask ? "keep" : "zero", ra, rb, tol);
    c.note = by + buf;
    return c;
}

}  // namespace fxray::replay::detail
