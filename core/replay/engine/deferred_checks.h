#pragma once
// Internal to core/replay (includes LibTorch): the value checks of a checked pass (each node output's NaN/Inf
// counts, min, max, mean, and the node where NaN/Inf first appears) without a device sync per node. The numbers are
// reduced on the device into one buffer (device_stats.h) that is read back once at the end of the pass, or when it
// is full; the NaN/Inf origin is then decided over the read-back rows in program order, by the same rule as before:
// the first node whose outputs hold NaN/Inf while its inputs did not, unless a literal, a factory or an output that
// holds inf by design (attention's logsumexp padding) put it there.
#include "graph/graph.h"
#include "replay/values/device_stats.h"
#include "replay/plan/node_plan.h"
#include "replay/api/replay_types.h"

#include <ATen/core/ivalue.h>
#include <c10/util/SmallVector.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fxray::replay::detail {

class DeferredValueChecks {
public:
    // `eachNode`: read back after every node, as --stop-on-first needs (it stops at the first NaN/Inf origin, which
    // must be known before the next node runs). `rows`: statistics rows per device before a read-back is due (40
    // bytes each); 0: FXRAY_STATS_ROWS from the environment, else 4096 (a 5k-node graph reads back two or three times).
    DeferredValueChecks(const graph::Graph& g, const std::vector<NodePlan>& plans, std::vector<NodeResult>& results,
                        bool eachNode, std::size_t rows = 0);

    // Queues the statistics of node i's value (its returns as getitem picks them: a tuple's elements, each a tensor,
    // a list of tensors or a non-tensor): r.outputs gets each tensor's metadata now, its numbers at the read-back.
    // `anyTensorInput`: the node reads a tensor (a node without tensor inputs is a factory). A refused dtype makes
    // r.error "statistics unavailable"; a CUDA error makes the node an error.
    void queueNode(std::size_t i, const c10::IValue& value, bool anyTensorInput);
    // The graph outputs' statistics, on the output node i (NaN/Inf there was traced to its origin upstream).
    void queueGraphOutputs(std::size_t i, const std::vector<c10::IValue>& outputs);

    // Before node i runs: launches the statistics still queued (consecutive nodes' CUDA outputs share one launch)
    // when node i may write to memory they read: an op whose schema mutates an argument, a native step, anything
    // but a functional op, getitem, Python arithmetic or the output node.
    void beforeNode(std::size_t i);
    // Launches whatever is still queued (the end of a pass: a CUDA-graph capture must hold every launch).
    void flush() { m_buffer.flush(); }

    // A read-back is due: after every node with `eachNode`, else when the buffer is full.
    bool due() const { return !m_pending.empty() && (m_eachNode || m_buffer.full()); }

    // Reads back what is queued, fills the numbers in, decides the NaN/Inf origins of the queued nodes in program
    // order (report->firstNanNode: the first origin). Returns the nodes whose results it completed. A device error
    // that surfaces here becomes the error of the last queued node, naming the nodes that may have caused it.
    std::vector<std::size_t> readBack(ReplayReport* report);

    // For a CUDA-graph capture of the checks: the device's buffer allocated now, `rows` rows, never read back or grown
    // by the pass itself (the rows' addresses are baked into the graph).
    void reserveFixed(const c10::Device& device, std::size_t rows) { m_buffer.reserveFixed(device, rows); }
    // Starts another pass over the same results: forgets what was queued and decided.
    void restart();
    // Reads the queued rows again, as a replay of the captured graph rewrote them, and decides the NaN/Inf origins
    // afresh; returns the first origin ("" when none). Keeps the queue for the next replay. `deviceSynced`: the
    // caller waited for the device after the replay (no stream sync again). Runs after every timed replay: a replay
    // whose rows hold no NaN/Inf at all (the usual one) decides nothing node by node.
    std::string reread(bool deviceSynced = false);

    // After the first replay of the captured graph: later replays check NaN/Inf presence only (StatsBuffer::
    // presenceOnly), which is all reread() needs to decide the origins; their results keep the first replay's min,
    // max and mean, and counts of 1 where NaN/Inf was present. Returns the statistics launches turned (0: none).
    int presenceOnly(void* cudaGraph, void* cudaGraphExec) { return m_buffer.presenceOnly(cudaGraph, cudaGraphExec); }
    bool presence() const { return m_buffer.presence(); }

    // A CUDA error raised at node i may come from a kernel of a node before it whose statistics are not read back
    // yet (kernels run asynchronously; a read-back is the sync that reports them): the text, saying so.
    std::string blame(std::size_t i, const std::string& error) const;

private:
    struct Pending {
        std::size_t node = 0;
        // Per return of the node: [begin, end) of its tensors in the node's outputs. Inline for the usual one or two
        // returns: every node of every checked pass queues one.
        c10::SmallVector<std::pair<std::size_t, std::size_t>, 2> returns;
        bool anyTensorInput = false;
        bool graphOutputs = false;  // the output node: statistics only
    };
    struct Tag {
        std::size_t node, output;
    };
    void queueTensor(std::size_t i, const at::Tensor& t);
    void take(std::size_t tag, const StatsRow& row);
    void decideOrigin(const Pending& p, ReplayReport* report);
    bool inputsNonFinite(const graph::Node& node) const;
    bool designedNonFinite(std::size_t i, std::size_t ret) const;

    const graph::Graph& m_graph;
    const std::vector<NodePlan>& m_plans;
    std::vector<NodeResult>& m_results;
    bool m_eachNode;
    StatsBuffer m_buffer;
    std::vector<Tag> m_tags;  // per queued row
    std::vector<bool> m_mayWrite;  // per node: beforeNode flushes (see there)
    // Tensors queued since the last node that may write (m_mayWrite) or read-back, by identity: the same tensor queued
    // again (a getitem of a tuple's element, a graph output, an op that returns its input) shares the row it got
    // then instead of being reduced again. The weak reference keeps the TensorImpl's address from going to another
    // tensor while it is a key, without keeping the tensor's memory.
    struct Seen {
        c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl> keep;
        std::size_t entry;  // StatsBuffer's queue entry
    };
    std::unordered_map<const c10::TensorImpl*, Seen> m_seen;
    // The same for another view of the same memory: a dense tensor the one-pass statistics take (t(), view(), alias()
    // of a queued value) shares the row of the first tensor over the same storage, offset, element count and dtype.
    // Its numbers are the same bits: the CUDA kernel reads a dense tensor in memory order whatever its sizes and
    // strides, and on the CPU counts, min and max do not depend on the order while ATen's full sum of a dense tensor
    // coalesces it into memory order too (checked on 2-4-d permutations, views and channels-last, every float dtype).
    // The weak reference keeps the StorageImpl's address from going to another storage while it is a key.
    struct DenseKey {
        const c10::StorageImpl* storage;
        std::int64_t offset, numel;
        c10::ScalarType dtype;
        bool operator==(const DenseKey&) const = default;
    };
    struct DenseKeyHash {
        std::size_t operator()(const DenseKey& k) const
        {
            return std::hash<const void*>()(k.storage) ^ (static_cast<std::size_t>(k.offset) * 0x9e3779b97f4a7c15ULL) ^
                   (static_cast<std::size_t>(k.numel) << 8) ^ static_cast<std::size_t>(k.dtype);
        }
    };
    struct SeenDense {
        c10::weak_intrusive_ptr<c10::StorageImpl> keep;
        std::size_t entry;
    };
    std::unordered_map<DenseKey, SeenDense, DenseKeyHash> m_seenDense;
    std::vector<Pending> m_pending;
    // What is known after the read-backs so far, per node: some output holds NaN/Inf; and per return (a getitem
    // reads one return: attention's finite output is not downstream of the inf padding its logsumexp sibling holds).
    std::vector<bool> m_nonFinite;
    std::vector<std::vector<bool>> m_returnNonFinite;
};

// One replay of a captured graph with value checks, read back (`firstOrigin` from reread()): counts it, and keeps the
// nodes that held NaN/Inf of the first replay that had an origin (else of the latest). As after the eager pass, an
// origin whose NaN/Inf reaches no graph output is transient, not an origin (nonfinite_reach.h), unless `strict`.
// `presence`: the replay checked NaN/Inf presence only (DeferredValueChecks::presenceOnly): its counts are not counts.
void recordCheckedReplay(const graph::Graph& g, const std::vector<NodeResult>& results, const std::string& firstOrigin,
                         bool strict, bool presence, CudaGraphReport& cg);

// The first replay's statistics against the checked pass's (same inputs, same kernels: the same numbers up to the
// rounding of nondeterministic kernels), row by row into cg.statsRowsCompared / statsRowsDiffer / firstStatsDiffer.
// A row that differs means the captured checks read other memory than the pass did (a launch that raced a later node,
// a buffer the graph's pool handed on): the replays' NaN/Inf verdicts are then not to be trusted, and the report
// says so. Nodes marked in `varies` (valuesVaryBetweenRuns: random draws, attention's never-written philox state)
// are not compared: their numbers differ on every run.
void compareReplayStatsWithPass(const std::vector<NodeResult>& replay, const std::vector<NodeResult>& pass,
                                const std::vector<bool>& varies, CudaGraphReport& cg);

}  // namespace fxray::replay::detail
