#pragma once
// The GUI's one way to the replay engine, RenderDoc's ReplayManager for fxray: one `fxray worker` per device
// (per fxray executable and device: "cpu", "cuda:0", ...), each driven by one lane thread that runs requests in
// order, shared by the Replay dock (replays, seed sweeps, repeat runs, the device probe), the Stages tab and the
// Minimize dock. A request is a body that uses the lane's worker::ReplayWorker (LibTorch starts once per device;
// a crashed, hung or poisoned worker is replaced by a fresh one on the next request, as ReplayWorker does).
// Requests have ids, a context object and a tag (job_context.h): a newer request of the same context and tag
// replaces the older one (queued: skipped; running: cancelled, which kills the worker's replay, and its results
// dropped). cancel() stops a request and still delivers what it posts. Everything a body posts arrives on the GUI
// thread. The GUI thread never waits on a lane, except when the service goes (it cancels every request first).
#include "views/services/job_context.h"

#include <QObject>

#include <chrono>
#include <functional>
#include <map>
#include <memory>

namespace fxray::worker {
class ReplayWorker;
}

namespace fxray::views {

struct ReplayRequest {
    QString program;  // the fxray executable serving `fxray worker`; empty: the service's (found next to this program)
    QString device = QStringLiteral("cpu");  // picks the lane: "cuda" is "cuda:0"
    QString tag;      // with the context object: a newer request of the same pair replaces this one
    QString label;    // for people: "replay mlp_forward_0", "minimize …", "stage compare …"
    std::chrono::milliseconds timeout{0};  // per replay in the worker; 0: none
};

class ReplayService : public QObject {
    Q_OBJECT
public:
    // Runs on the lane's thread with the lane's worker; posts results through the JobContext.
    using Body = std::function<void(worker::ReplayWorker&, const JobContext&)>;

    explicit ReplayService(QObject* parent = nullptr);
    ~ReplayService() override;  // every request cancelled and dropped; lanes joined; workers stopped

    JobId submit(QObject* context, const ReplayRequest& request, Body body);
    void cancel(JobId id) { m_board.cancel(id); }    // its worker's replay is killed; its posts still arrive
    void discard(JobId id) { m_board.discard(id); }  // the same, and its posts are dropped
    bool isActive(JobId id) const { return m_board.isActive(id); }

    QString defaultProgram() const { return m_program; }
    void setDefaultProgram(const QString& program) { m_program = program; }
    // The lane a device string names: "" and "cpu" → "cpu", "cuda" → "cuda:0", "cuda:N" as is.
    static QString laneDevice(const QString& device);
    // What the worker of that device runs now ("" when idle), and how many requests wait behind it.
    QString runningLabel(const QString& device, const QString& program = {}) const;
    int queuedCount(const QString& device, const QString& program = {}) const;
    int laneCount() const { return static_cast<int>(m_lanes.size()); }

    // The service the panels share: created on first use, gone (workers stopped) when the last holder lets go.
    static std::shared_ptr<ReplayService> shared();

Q_SIGNALS:
    void jobStarted(JobId id, const QString& label);
    void jobFinished(JobId id);
    // A body threw (a bug, not a failed replay: those are reports): its lane's worker is replaced.
    void jobFailed(JobId id, const QString& message);

private:
    struct Lane;
    Lane* lane(const QString& program, const QString& device, bool create);
    const Lane* lane(const QString& program, const QString& device) const;
    void laneLoop(Lane* lane);

    JobBoard m_board;
    QString m_program;
    std::map<QString, std::unique_ptr<Lane>> m_lanes;  // by program + '\n' + device
};

}  // namespace fxray::views
