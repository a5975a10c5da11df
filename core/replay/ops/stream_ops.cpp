#include "replay/ops/stream_ops.h"

#include "replay/ops/torch_level_natives.h"

#include <string>

namespace fxray::replay::detail {
namespace {

constexpr const char* kOneStream = "the replay runs every node in program order on one stream, so what it orders is ordered";

bool isExternalObject(const graph::Graph& g, const graph::Arg& a)
{
    if (a.kind != graph::Arg::Kind::Node || a.node < 0 || a.node >= static_cast<int>(g.nodes.size()))
        return false;
    const graph::Node& n = g.nodes[static_cast<std::size_t>(a.node)];
    return n.kind == graph::NodeKind::CallFunction && n.target.kind == graph::Target::Kind::Python &&
           n.target.op.ends_with("get_external_object_by_index");
}

bool isStreamMethod(const std::string& m)
{
    return m == "wait_stream" || m == "wait_event" || m == "record_event" || m == "record" || m == "synchronize";
}

}  // namespace

std::optional<NodePlan> planStreamStep(const graph::Graph& g, const graph::Node& n)
{
    if (n.kind != graph::NodeKind::CallFunction && n.kind != graph::NodeKind::CallMethod)
        return std::nullopt;
    const graph::Target& t = n.target;
    if (t.kind == graph::Target::Kind::Python && t.op.ends_with("get_external_object_by_index"))
        return planNoOp("an object dynamo keeps outside the graph (FSDP2's CUDA streams and events): an opaque value "
                        "(None) for the stream methods that use it; " + std::string(kOneStream));
    if ((t.kind == graph::Target::Kind::Method || n.kind == graph::NodeKind::CallMethod) && isStreamMethod(t.op) &&
        !n.args.empty() && isExternalObject(g, n.args[0]))
        return planNoOp("stream/event ." + t.op + "(): " + kOneStream);
    if (t.kind == graph::Target::Kind::Op && t.ns == "streams" &&
        (t.op == "record_event" || t.op == "wait_event" || t.op == "wait_stream" || t.op.starts_with("synchronize")))
        return planNoOp("streams." + t.op + " (dynamo's stream op, by stream index): " + kOneStream);
    return std::nullopt;
}

}  // namespace fxray::replay::detail
