#include "replay/engine/deferred_checks.h"

#include "replay/api/nonfinite_reach.h"
#include "replay/ops/vmap_ops.h"
#include "replay/values/torch_types.h"
#include "replay/values/value_checks.h"

#include <ATen/core/function_schema.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace fxray::replay::detail {
namespace {

bool hasNonFiniteLiteral(const graph::Arg& a)
{
    if (a.kind == graph::Arg::Kind::Float)
        return !std::isfinite(a.f);
    for (const graph::Arg& item : a.items)
        if (hasNonFiniteLiteral(item))
            return true;
    return false;
}

// A literal inf/nan among the node's arguments: masked_fill(x, mask, -inf), scalar_tensor(-inf), full(..., nan).
bool hasNonFiniteLiteral(const graph::Node& node)
{
    for (const graph::Arg& a : node.args)
        if (hasNonFiniteLiteral(a))
            return true;
    for (const auto& kv : node.kwargs)
        if (hasNonFiniteLiteral(kv.second))
            return true;
    return false;
}

constexpr const char* kBlamed = "--stop-on-first reads them back after every node and names the node";

std::size_t rowsPerReadBack(std::size_t asked)
{
    if (asked > 0)
        return asked;
    if (const char* env = std::getenv("FXRAY_STATS_ROWS"))
        if (const long v = std::strtol(env, nullptr, 10); v > 0)
            return static_cast<std::size_t>(v);
    return 4096;
}

bool isCudaError(const std::string& text)
{
    return text.find("CUDA error") != std::string::npos;
}

}  // namespace

DeferredValueChecks::DeferredValueChecks(const graph::Graph& g, const std::vector<NodePlan>& plans,
                                         std::vector<NodeResult>& results, bool eachNode, std::size_t rows)
    : m_graph(g), m_plans(plans), m_results(results), m_eachNode(eachNode), m_buffer(eachNode ? 64 : rowsPerReadBack(rows), g.nodes.size() + 16),
      m_mayWrite(plans.size(), true), m_nonFinite(g.nodes.size(), false), m_returnNonFinite(g.nodes.size())
{
    m_pending.reserve(plans.size());  // a pass queues every node once: no regrowth on the way
    m_tags.reserve(plans.size() + 16);
    using Kind = NodePlan::Kind;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const NodePlan& p = plans[i];
        // A functional collective writes its output behind the dispatcher's back (the process group fills it
        // asynchronously; wait_tensor, schema not mutable, returns that very tensor once written): a row queued for
        // it before is another value than the one the wait hands on.
        const bool collective = p.kind == Kind::Op && p.op &&
                                (p.op->schema().name().rfind("_c10d_functional::", 0) == 0 ||
                                 p.op->schema().name().rfind("c10d_functional::", 0) == 0);
        // An op that returns nothing acts by its side effects alone, whatever its schema says:
        // inductor::resize_storage_bytes_ (no alias annotation) gives a storage another allocation, so a launch
        // still queued for a view of it would read the freed pointer (FSDP2 frees its unsharded parameters so; on
        // CUDA an illegal memory access).
        const bool sideEffectOnly = p.kind == Kind::Op && p.op && p.op->schema().returns().empty();
        m_mayWrite[i] = collective || sideEffectOnly ||
                        !(p.kind == Kind::Getitem || p.kind == Kind::Operator || p.kind == Kind::SymFloat ||
                          p.kind == Kind::Input || p.kind == Kind::Output || p.kind == Kind::Constant ||
                          p.kind == Kind::Unsupported || (p.kind == Kind::Op && p.op && !p.op->schema().is_mutable()));
    }
}

void DeferredValueChecks::beforeNode(std::size_t i)
{
    if (i < m_mayWrite.size() && !m_mayWrite[i])
        return;
    m_seen.clear();  // what node i may write is another value than the one whose row is queued
    m_seenDense.clear();
    if (m_buffer.unlaunched())
        m_buffer.flush();  // a CUDA error surfaces as the node's own (interpreter: blame)
}

void DeferredValueChecks::queueTensor(std::size_t i, const at::Tensor& logical)
{
    NodeResult& r = m_results[i];
    OutputStats s;
    s.meta = describeValue(logical);
    // Inside vmap a value is a batch of per-example values with no storage of its own: its statistics are those of
    // the physical tensor under it (every example's values).
    const at::Tensor t = detail::isVmapBatched(logical) ? detail::vmapPhysical(logical) : logical;
    if (StatsBuffer::hasStats(t)) {
        const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
        std::optional<DenseKey> dense;
        if (t.has_storage() && t.is_non_overlapping_and_dense() && fusedStatsHandle(t))
            dense = DenseKey{t.storage().unsafeGetStorageImpl(), t.storage_offset(), t.numel(), t.scalar_type()};
        if (auto seen = m_seen.find(impl); seen != m_seen.end()) {
            m_buffer.share(m_tags.size(), seen->second.entry);
        } else if (auto view = dense ? m_seenDense.find(*dense) : m_seenDense.end(); view != m_seenDense.end()) {
            m_buffer.share(m_tags.size(), view->second.entry);
        } else {
            const std::size_t entry = m_buffer.queue(t, m_tags.size());  // throws before queuing anything
            m_seen.emplace(impl, Seen{c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>(t.getIntrusivePtr()), entry});
            if (dense)
                m_seenDense.emplace(*dense, SeenDense{t.storage().getWeakStorageImpl(), entry});
        }
        m_tags.push_back({i, r.outputs.size()});
        s.numel = t.numel();
    }
    r.outputs.push_back(std::move(s));
}

void DeferredValueChecks::queueNode(std::size_t i, const c10::IValue& value, bool anyTensorInput)
{
    NodeResult& r = m_results[i];
    Pending p;
    p.node = i;
    p.anyTensorInput = anyTensorInput;
    // Each return's tensors, without copying the returns or (for the common single tensor) flattening into a vector.
    auto queueReturn = [&](const c10::IValue& ret) {
        const std::size_t begin = r.outputs.size();
        if (ret.isTensor())
            queueTensor(i, ret.toTensor());
        else
            for (const at::Tensor& t : flattenTensors(ret))
                queueTensor(i, t);
        p.returns.emplace_back(begin, r.outputs.size());
    };
    try {
        if (value.isTuple())
            for (const c10::IValue& ret : value.toTupleRef().elements())
                queueReturn(ret);
        else
            queueReturn(value);
    } catch (const c10::Error& e) {
        // Statistics are extra: their failure must not fail a node that ran, except for a CUDA error, which belongs
        // to a kernel (see blame). The returns queued before it still count.
        const std::string text = errorText(e);
        if (isCudaError(text)) {
            r.status = NodeStatus::Error;
            r.error = blame(i, text);
        } else {
            r.error = "statistics unavailable: " + text;
        }
    }
    m_pending.push_back(std::move(p));
}

void DeferredValueChecks::queueGraphOutputs(std::size_t i, const std::vector<c10::IValue>& outputs)
{
    Pending p;
    p.node = i;
    p.graphOutputs = true;
    for (const c10::IValue& v : outputs) {
        if (v.isTensor())
            queueTensor(i, v.toTensor());
        else
            m_results[i].outputs.push_back(statsOf(v, false));
    }
    m_buffer.flush();
    m_pending.push_back(std::move(p));
}

std::string DeferredValueChecks::blame(std::size_t i, const std::string& error) const
{
    if (!isCudaError(error) || m_pending.empty() || m_pending.front().node >= i || error.find(kBlamed) != std::string::npos)
        return error;
    return error + "\n(raised at node '" + m_graph.nodes[i].name + "', but the failing kernel may be of any node from '" +
           m_graph.nodes[m_pending.front().node].name +
           "' on: their statistics were not read back yet, and kernels run asynchronously; " + kBlamed + ")";
}

std::vector<std::size_t> DeferredValueChecks::readBack(ReplayReport* report)
{
    std::vector<std::size_t> done;
    if (m_pending.empty())
        return done;
    try {
        m_buffer.readBack([&](std::size_t tag, const StatsRow& row) { take(tag, row); });
    } catch (const c10::Error& e) {
        const std::string text = errorText(e);
        NodeResult& last = m_results[m_pending.back().node];
        if (isCudaError(text)) {
            last.status = NodeStatus::Error;
            last.error = blame(m_pending.back().node, text);
        } else {
            for (const Pending& p : m_pending)
                if (m_results[p.node].error.empty())
                    m_results[p.node].error = "statistics unavailable: " + text;
        }
    }
    for (const Pending& p : m_pending) {
        if (!p.graphOutputs)
            decideOrigin(p, report);
        done.push_back(p.node);
    }
    m_pending.clear();
    m_tags.clear();
    m_seen.clear();  // their queue entries are gone
    m_seenDense.clear();
    return done;
}

void DeferredValueChecks::take(std::size_t tag, const StatsRow& row)
{
    OutputStats& s = m_results[m_tags[tag].node].outputs[m_tags[tag].output];
    s.nanCount = static_cast<std::int64_t>(row.nanCount);
    s.infCount = static_cast<std::int64_t>(row.infCount);
    if (m_buffer.presence())
        return;  // min, max and sum are no longer written: the first replay's stay
    s.min = row.min;
    s.max = row.max;
    s.mean = row.sum / static_cast<double>(s.numel);
    s.hasValues = true;
}

void DeferredValueChecks::restart()
{
    m_buffer.discard();
    m_tags.clear();
    m_pending.clear();
    m_seen.clear();
    m_seenDense.clear();
    m_nonFinite.assign(m_nonFinite.size(), false);
    for (auto& rets : m_returnNonFinite)
        rets.clear();
}

std::string DeferredValueChecks::reread(bool deviceSynced)
{
    bool nonFinite = false;
    m_buffer.peek(
        [&](std::size_t tag, const StatsRow& row) {
            take(tag, row);
            nonFinite = nonFinite || row.nanCount + row.infCount > 0;
        },
        deviceSynced);
    m_nonFinite.assign(m_nonFinite.size(), false);
    for (auto& rets : m_returnNonFinite)
        rets.clear();
    if (!nonFinite) {
        // No output holds NaN/Inf: no node is an origin or holds a constant's (what decideOrigin would find, without
        // walking every node's inputs; its per-return flags are only read while deciding).
        for (const Pending& p : m_pending)
            m_results[p.node].nanOrigin = m_results[p.node].nonFiniteConstant = false;
        return "";
    }
    ReplayReport scratch;
    for (const Pending& p : m_pending) {
        m_results[p.node].nanOrigin = m_results[p.node].nonFiniteConstant = false;
        if (!p.graphOutputs)
            decideOrigin(p, &scratch);
    }
    return scratch.firstNanNode;
}

void recordCheckedReplay(const graph::Graph& g, const std::vector<NodeResult>& results, const std::string& firstOrigin,
                         bool strict, bool presence, CudaGraphReport& cg)
{
    ++cg.checkedReplays;
    cg.presenceReplays += presence ? 1 : 0;
    if (!cg.firstNanNode.empty()) {
        cg.nanReplays += firstOrigin.empty() ? 0 : 1;
        return;  // the first replay with an origin is the one kept (same inputs: the others are alike or rarer)
    }
    // Only a replay that made NaN/Inf pays for copying the results to classify its origins.
    ReplayReport classified;
    if (!firstOrigin.empty()) {
        classified.nodes = results;
        classified.firstNanNode = firstOrigin;
        if (!strict)
            classifyNonFiniteOrigins(g, classified);
    }
    const std::vector<NodeResult>& decided = firstOrigin.empty() ? results : classified.nodes;
    cg.nanReplays += classified.firstNanNode.empty() ? 0 : 1;
    cg.firstNanNode = classified.firstNanNode;
    cg.nonFinite.clear();
    for (const NodeResult& r : decided) {
        std::int64_t nan = 0, inf = 0;
        for (const OutputStats& s : r.outputs)
            nan += s.nanCount, inf += s.infCount;
        if (nan + inf > 0)  // the name copied only then: this runs after every replay, over every node
            cg.nonFinite.push_back({r.name, nan, inf, r.nanOrigin, !presence});
    }
}

void compareReplayStatsWithPass(const std::vector<NodeResult>& replay, const std::vector<NodeResult>& pass,
                                const std::vector<bool>& varies, CudaGraphReport& cg)
{
    // Counts exactly; min, max and mean to a relative 1e-5, which a nondeterministic kernel's rounding (index_add's
    // atomics) stays within and a read of another tensor's memory does not.
    auto close = [](double a, double b) {
        return a == b || (std::isnan(a) && std::isnan(b)) || std::abs(a - b) <= 1e-5 * std::max(std::abs(a), std::abs(b));
    };
    for (std::size_t i = 0; i < std::min(replay.size(), pass.size()); ++i) {
        if (i < varies.size() && varies[i])
            continue;  // random draws, never-written memory: other numbers on every run
        const std::vector<OutputStats>& got = replay[i].outputs;
        const std::vector<OutputStats>& want = pass[i].outputs;
        for (std::size_t k = 0; k < std::min(got.size(), want.size()); ++k) {
            const OutputStats& a = got[k];
            const OutputStats& b = want[k];
            if (!a.hasValues || !b.hasValues)
                continue;
            ++cg.statsRowsCompared;
            if (a.nanCount == b.nanCount && a.infCount == b.infCount && close(a.min, b.min) && close(a.max, b.max) &&
                close(a.mean, b.mean))
                continue;
            if (cg.statsRowsDiffer++ == 0)
                cg.firstStatsDiffer = pass[i].name;
        }
    }
}

bool DeferredValueChecks::designedNonFinite(std::size_t i, std::size_t ret) const
{
    // Outputs whose NaN/Inf is by design: efficient/flash attention pad their logsumexp to a multiple of the block
    // size with inf, eager included. A native plan says so itself; an op's come after, from its schema's names.
    const NodePlan& plan = m_plans[i];
    if (ret < plan.nonFiniteByDesign.size())
        return plan.nonFiniteByDesign[ret];
    if (!plan.op)
        return false;
    const auto& returns = plan.op->schema().returns();
    const std::size_t k = ret - plan.nonFiniteByDesign.size();
    if (k >= returns.size())
        return false;
    const std::string& name = returns[k].name();
    return name.find("logsumexp") != std::string::npos || name.find("log_sumexp") != std::string::npos;
}

// Whether a value the node reads holds NaN/Inf: for getitem, the one return it picks.
bool DeferredValueChecks::inputsNonFinite(const graph::Node& node) const
{
    bool any = false;
    graph::forEachNodeRef(node, [&](int ref) {
        const auto k = static_cast<std::size_t>(ref);
        const auto& rets = m_returnNonFinite[k];
        if (node.target.kind == graph::Target::Kind::Getitem && node.args.size() == 2 &&
            node.args[1].kind == graph::Arg::Kind::Int && node.args[1].i >= 0 && static_cast<std::size_t>(node.args[1].i) < rets.size())
            any = any || rets[static_cast<std::size_t>(node.args[1].i)];
        else
            any = any || m_nonFinite[k];
    });
    return any;
}

void DeferredValueChecks::decideOrigin(const Pending& p, ReplayReport* report)
{
    const std::size_t i = p.node;
    NodeResult& r = m_results[i];
    bool unexpected = false;  // NaN/Inf in an output where no design puts it
    for (std::size_t k = 0; k < p.returns.size(); ++k) {
        bool bad = false;
        for (std::size_t o = p.returns[k].first; o < p.returns[k].second; ++o)
            bad = bad || r.outputs[o].nanCount + r.outputs[o].infCount > 0;
        m_returnNonFinite[i].push_back(bad);
        m_nonFinite[i] = m_nonFinite[i] || bad;
        unexpected = unexpected || (bad && !designedNonFinite(i, k));
    }
    const graph::Node& node = m_graph.nodes[i];
    if (!m_nonFinite[i] || inputsNonFinite(node))
        return;  // finite, or NaN/Inf that came in through an input: traced to its origin upstream
    if (!unexpected || !p.anyTensorInput || hasNonFiniteLiteral(node)) {
        r.nonFiniteConstant = true;  // a mask's -inf, a factory's fill, logsumexp padding: meant to be there
        return;
    }
    r.nanOrigin = true;
    if (report && report->firstNanNode.empty())
        report->firstNanNode = node.name;
}

}  // namespace fxray::replay::detail
