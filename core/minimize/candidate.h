#pragma once
// Candidate graphs: the original with some of its nodes kept. A node that is dropped but still read by a kept
// node becomes a placeholder carrying the dropped node's recorded metadata; the input factory then feeds it
// fresh values (never the recorded intermediate value, which may already carry the failure). Outputs are the
// kept nodes nobody kept reads, plus the failing node: dead code and unused inputs never appear.
#include "io/graph_source.h"

#include <vector>

namespace fxray::minimize {

class CandidateBuilder {
public:
    // Placeholders without node metadata take their input spec's (the .input file's) metadata.
    explicit CandidateBuilder(const io::LoadedGraph& original);

    const io::LoadedGraph& original() const { return m_original; }
    // Nodes the minimizer decides about, program order: every call and get_attr node except getitems, which
    // go with the node they unpack (a multi-output op and its getitems are one unit).
    const std::vector<int>& units() const { return m_units; }
    // Units `node` depends on, itself included (program order).
    std::vector<int> ancestorUnits(int node) const;
    // Compute nodes build(keptUnits) would hold: the units and their getitems (no graph is built).
    int computeNodes(const std::vector<int>& keptUnits) const;
    // The candidate keeping exactly these units (node indices); `mustOutput` (-1: none) is made an output.
    io::LoadedGraph build(const std::vector<int>& keptUnits, int mustOutput) const;

private:
    io::LoadedGraph m_original;
    std::vector<int> m_units;
    std::vector<std::vector<int>> m_users;
    std::vector<std::vector<int>> m_getitems;  // per unit head: its getitem nodes
};

}  // namespace fxray::minimize
