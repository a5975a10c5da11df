#include "replay/ops/rng_state_ops.h"

#include "graph/printer.h"
#include "replay/plan/op_plan.h"
#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>

#include <stdexcept>
#include <string>

namespace fxray::replay::detail {
namespace {

using graph::Arg;

// The generator run_and_save_rng_state / run_with_rng_state act on: CUDA when any tensor argument is on a GPU
// (rng_prims.get_device), else the CPU's default generator.
at::Generator generatorFor(const std::vector<c10::IValue>& operands, std::size_t first)
{
    for (std::size_t k = first; k < operands.size(); ++k)
        for (const at::Tensor& t : flattenTensors(operands[k]))
            if (t.defined() && t.is_cuda())
                return at::globalContext().defaultGenerator(t.device());
    return at::detail::getDefaultCPUGenerator();
}

}  // namespace

bool isRngStateOp(const graph::Node& n)
{
    return n.isOp() && n.target.ns == "higher_order" &&
           (n.target.op == "run_and_save_rng_state" || n.target.op == "run_with_rng_state" ||
            n.target.op == kGraphsafeRun);
}

std::optional<graph::Node> innerOpNode(const graph::Node& n)
{
    if (!isRngStateOp(n))
        return std::nullopt;
    const std::size_t at = n.target.op == "run_with_rng_state" ? 1 : 0;
    if (n.args.size() <= at || n.args[at].kind != Arg::Kind::Op)
        return std::nullopt;
    // "aten.native_dropout.default": namespace, op, overload (an overload packet names none).
    const std::string& dotted = n.args[at].s;
    const std::size_t a = dotted.find('.');
    const std::size_t b = a == std::string::npos ? a : dotted.find('.', a + 1);
    if (a == std::string::npos)
        return std::nullopt;
    graph::Node inner = n;
    inner.target = graph::Target{graph::Target::Kind::Op, dotted.substr(0, a),
                                 dotted.substr(a + 1, b == std::string::npos ? b : b - a - 1),
                                 b == std::string::npos ? "" : dotted.substr(b + 1)};
    inner.args.assign(n.args.begin() + static_cast<std::ptrdiff_t>(at + 1), n.args.end());
    std::erase_if(inner.kwargs, [](const auto& kw) { return kw.first == "rng_state"; });
    inner.meta.reset();
    return inner;
}

namespace {

// The native plan of an RNG-state op that takes a state value (node `stateNode`) before the inner op's arguments.
NodePlan planTakingState(const graph::Node& n, const NodePlan& inner, int stateNode, std::string schema)
{
    NodePlan p;
    p.kind = NodePlan::Kind::Native;
    p.name = n.target.str();
    p.args = inner.args;
    ArgPlan state;
    state.kind = ArgPlan::Kind::Value;
    state.node = stateNode;
    p.args.insert(p.args.begin(), state);
    p.schema = std::move(schema);
    p.nonFiniteByDesign = inner.nonFiniteByDesign;
    if (inner.op)
        for (const auto& ret : inner.op->schema().returns())
            p.nonFiniteByDesign.push_back(ret.name().find("logsumexp") != std::string::npos);
    return p;
}

// Runs `inner` on `operands` with generator `gen` set to `state`, and puts `gen` back after, also when the op throws.
// `after`, when given, receives `gen`'s state as the op's draws left it.
c10::IValue runFromState(const char* who, at::Generator& gen, const at::Tensor& state, const NodePlan& inner,
                         std::vector<c10::IValue> operands, at::Tensor* after = nullptr)
{
    const at::Tensor current = generatorState(gen);
    try {
        setGeneratorState(gen, state);
    } catch (const c10::Error& e) {
        throw std::invalid_argument(std::string(who) + ": cannot set the " + (gen.device().is_cuda() ? "CUDA" : "CPU") +
                                    " generator to a state of " + std::to_string(state.numel()) +
                                    " bytes (another device's generator recorded it?): " + e.what_without_backtrace());
    }
    c10::IValue out;
    try {
        out = runPlanned(inner, std::move(operands));
    } catch (...) {
        setGeneratorState(gen, current);
        throw;
    }
    if (after)
        *after = generatorState(gen);
    setGeneratorState(gen, current);
    return out;
}

// graphsafe_run_with_rng_state(op, *args, rng_state=G, **kwargs): op run on the device's default generator with G's
// state put in, G left where the op's draws took it and the default generator put back, as rng_prims' CUDA impl does
// with graphsafe_set_state (G is then shared, so its offset advances).
NodePlan planGraphsafeRun(const graph::Graph& g, const graph::Node& n, const NodePlan& inner, const std::string& innerSchema)
{
    const graph::Arg* state = nullptr;
    for (const auto& [key, value] : n.kwargs)
        if (key == "rng_state")
            state = &value;
    if (!state || state->kind != Arg::Kind::Node)
        throw std::invalid_argument(std::string(kGraphsafeRun) + " takes its generator as rng_state=<graph input>, got " +
                                    (state ? graph::formatArg(g, *state) : std::string("none")));
    NodePlan p = planTakingState(n, inner, state->node,
                                 "higher_order.graphsafe_run_with_rng_state(op, *args, rng_state) = op(*args) drawn from the "
                                 "generator rng_state (the device's generator put back after) with op = " + innerSchema);
    p.native = [inner](const std::vector<c10::IValue>& v) -> c10::IValue {
        if (!v[0].isGenerator())
            throw std::invalid_argument(std::string(kGraphsafeRun) + ": rng_state is " + describeValue(v[0]) + ", not a generator");
        at::Generator own = v[0].toGenerator();
        at::Generator device = generatorFor(v, 1);
        if (own.device().type() != device.device().type())
            throw std::invalid_argument(std::string(kGraphsafeRun) + ": rng_state is a " + own.device().str() +
                                        " generator but the op runs on " + device.device().str());
        at::Tensor drawn;
        c10::IValue out = runFromState(kGraphsafeRun, device, generatorState(own), inner, {v.begin() + 1, v.end()}, &drawn);
        setGeneratorState(own, drawn);
        return out;
    };
    return p;
}

}  // namespace

std::optional<NodePlan> planRngStateOp(const graph::Graph& g, const graph::Node& n, const c10::Device& device, RngPlan& rng)
{
    if (!isRngStateOp(n))
        return std::nullopt;
    const bool save = n.target.op == "run_and_save_rng_state";
    const bool graphsafe = n.target.op == kGraphsafeRun;
    const std::optional<graph::Node> innerNode = innerOpNode(n);
    if (!innerNode)
        throw std::invalid_argument(n.target.str() + (save || graphsafe ? "(op, *args)" : "(rng_state, op, *args)") +
                                    " takes the op it runs as an operator value (torch.ops.<ns>.<op>.<overload>)");
    NodePlan inner = planOpNode(g, *innerNode, device);
    if (inner.kind == NodePlan::Kind::Unsupported)
        throw std::invalid_argument(n.target.str() + " runs " + innerNode->target.str() + ": " + inner.why);
    // Aligned RNG: the forward's op draws its aligned stream (its ordinal in program order, as a bare op would).
    if (save || graphsafe)
        if (auto aligned = alignedRandomPlan(inner, rng))
            inner = std::move(*aligned);
    const std::string innerSchema = inner.op ? c10::toString(inner.op->schema()) : inner.schema;
    if (graphsafe)
        return planGraphsafeRun(g, n, inner, innerSchema);
    if (save) {
        NodePlan p;
        p.kind = NodePlan::Kind::Native;
        p.name = n.target.str();
        p.args = inner.args;
        // NaN/Inf by design in the op's returns (attention's logsumexp padding) sits in element 1 of the saved form.
        bool designed = false;
        for (bool d : inner.nonFiniteByDesign)
            designed = designed || d;
        if (inner.op)
            for (const auto& ret : inner.op->schema().returns())
                designed = designed || ret.name().find("logsumexp") != std::string::npos;
        p.schema = "higher_order.run_and_save_rng_state(op, *args) = (generator state, op(*args)) with op = " + innerSchema;
        p.nonFiniteByDesign = {false, designed};
        p.native = [inner](const std::vector<c10::IValue>& v) -> c10::IValue {
            at::Generator gen = generatorFor(v, 0);
            at::Tensor state = generatorState(gen);
            return c10::ivalue::Tuple::create(std::move(state), runPlanned(inner, v));
        };
        return p;
    }
    if (n.args[0].kind != Arg::Kind::Node)
        throw std::invalid_argument("run_with_rng_state's rng_state must be a tensor value, got " + graph::formatArg(g, n.args[0]));
    NodePlan p = planTakingState(n, inner, n.args[0].node,
                                 "higher_order.run_with_rng_state(rng_state, op, *args) = op(*args) drawn from rng_state (the "
                                 "generator put back after) with op = " + innerSchema);
    p.native = [inner](const std::vector<c10::IValue>& v) -> c10::IValue {
        if (!v[0].isTensor())
            throw std::invalid_argument("run_with_rng_state: rng_state is " + describeValue(v[0]) + ", not a tensor");
        at::Generator gen = generatorFor(v, 1);
        return runFromState("run_with_rng_state", gen, v[0].toTensor(), inner, {v.begin() + 1, v.end()});
    };
    return p;
}

}  // namespace fxray::replay::detail
