#include "worker/worker_failures.h"

#include "base/error.h"

namespace fxray::worker::detail {

std::string workerDiedMessage(const std::string& status, const std::string& stderrTail)
{
    std::string why = "the replay worker died (" + status + ")";
    if (const std::string tail = lastLines(stderrTail, 6); !tail.empty())
        why += ": " + tail;
    return why;
}

std::optional<json::Value> answerTo(const std::string& line, int id)
{
    json::Value msg;
    try {
        msg = json::parse(line);
    } catch (const Error&) {
        return std::nullopt;  // stray output of a library
    }
    if (msg.intOr("id", -1) != id)
        return std::nullopt;
    return msg;
}

std::string lastLines(const std::string& text, int count)
{
    std::size_t end = text.find_last_not_of("\n ");
    if (end == std::string::npos)
        return {};
    std::size_t pos = end + 1;
    for (int k = 0; k < count && pos > 0; ++k) {
        std::size_t nl = text.rfind('\n', pos - 1);
        pos = nl == std::string::npos ? 0 : nl;
        if (nl == std::string::npos)
            break;
    }
    std::string tail = text.substr(pos, end + 1 - pos);
    if (!tail.empty() && tail.front() == '\n')
        tail.erase(0, 1);
    return tail;
}

// A report for a replay that ended without the worker's own report: the node it was running carries the error.
replay::ReplayReport failedReport(const io::LoadedGraph& g, const replay::ReplayOptions& o, int nodesDone, const std::string& why,
                                  std::vector<replay::NodeResult> streamed)
{
    replay::ReplayReport r;
    r.address = g.entry.address;
    r.device = o.device;
    r.seed = o.seed;
    r.inputs = o.inputs == replay::ReplayOptions::Inputs::Saved ? "saved" : "random";
    for (const graph::Node& n : g.graph.nodes) {
        replay::NodeResult nr;
        nr.name = n.name;
        nr.target = n.target.str();
        r.nodes.push_back(std::move(nr));
    }
    for (std::size_t k = 0; k < streamed.size() && k < r.nodes.size(); ++k)
        if (!streamed[k].name.empty())
            r.nodes[k] = std::move(streamed[k]);
    if (nodesDone >= 0 && nodesDone < static_cast<int>(r.nodes.size())) {
        auto& at = r.nodes[static_cast<std::size_t>(nodesDone)];
        at.status = replay::NodeStatus::Error;
        at.error = why;
        r.fatal = "node '" + at.name + "' (" + at.target + "): " + why;
    } else {
        r.fatal = why;
    }
    return r;
}

}  // namespace fxray::worker::detail
