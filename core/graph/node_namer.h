#pragma once
// Python identifiers for nodes of graphs that were not FX code (TorchScript, lazy-tensor IR): fxray prints every
// graph as FX code, so names must be identifiers that FX's parser reads back, unique within the graph.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace fxray::graph {

class NodeNamer {
public:
    // "input.3" -> "input_3", "13" -> "v13", "device" -> "device_1"; a taken name gets FX's "_<n>" suffix.
    std::string unique(std::string_view wanted);
    // Whether a TorchScript value name is only a number ("%13"): such names say nothing, FX names those by op.
    static bool isAnonymous(std::string_view name);

private:
    std::unordered_set<std::string> m_used;
    std::unordered_map<std::string, int> m_next;  // next suffix to try per base name
};

// The name without the "_<digits>" FX appends to a second node or global of the same name ("mm_plus_mm_1" ->
// "mm_plus_mm"); nullopt when it ends in no such suffix. Whether the digits are FX's or the name's own is the
// caller's to judge (by the base it expects).
std::optional<std::string> withoutFxSuffix(std::string_view name);

}  // namespace fxray::graph
