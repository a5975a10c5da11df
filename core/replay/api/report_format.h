#pragma once
// ReplayReport as JSON (the CLI's --json, the GUI's export) and as a text table. Plain C++.
#include "base/json.h"
#include "replay/api/replay_types.h"

#include <string>

namespace fxray::replay {

json::Value reportToJson(const ReplayReport& r);
json::Value nodeToJson(const NodeResult& n);
NodeResult nodeFromJson(const json::Value& j);
// The inverse (the worker's answers): every field reportToJson writes. Throws fxray::Error on unknown enum names.
ReplayReport reportFromJson(const json::Value& j);
// Summary line plus one row per node that did not pass (all nodes with allNodes), and the slowest nodes.
std::string formatReport(const ReplayReport& r, bool allNodes);

}  // namespace fxray::replay
