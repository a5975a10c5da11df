#pragma once
// The Replay panel: replay the selected graph in a `fxray worker` child process (a crash, a device-side assert or
// a hang costs one replay, not the GUI) with every node's dtype/size/stride checked, and show the node results
// as they arrive. Options: device (CPU and the CUDA devices the worker reports), seed, random or saved inputs,
// the range of unconstrained int inputs, stop at the first failing node; Run / Cancel, a progress bar, and the
// results table (ReplayResultsModel), optionally only the problem rows. Selecting a row announces its node.
//
// Fault hunts (replay_panel_sweep.cpp): with "Sweep seeds" above 1, Run replays seeds Seed, Seed + 1, ... in the
// worker (one request) until one fails the way "until" says; with "Repeat runs" N, each seed's inputs run N more
// times and the first node whose output bits differ between runs is named and selected. The progress bar counts
// seeds, Cancel stops it, the failing seed's report fills the table, its seed in the Seed box, and "Replay seed S"
// replays it alone.
//
// Jobs go through the GUI's ReplayService (views/services): one worker per device, shared with the Stages tab and
// the Minimize dock, kept alive across runs (LibTorch starts once; a dead worker is replaced by the next run). A
// run that is superseded (setGraph, a new start) is replaced there, and its results are dropped. Node results
// arrive coalesced: at most one update is queued to the GUI thread at a time, and reportChanged() is throttled.
#include "io/graph_source.h"
#include "replay/api/replay_types.h"
#include "replay/api/seed_sweep.h"
#include "views/services/job_context.h"
#include "views/services/job_tracker.h"

#include <QWidget>

#include <memory>
#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSettings;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTimer;

namespace fxray::views {

class ReplayResultsModel;
class ReplayService;
struct ReplayRequest;

namespace detail {
struct ReplayStream;
}  // namespace detail

class ReplayPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReplayPanel(QWidget* parent = nullptr);
    ~ReplayPanel() override;  // drops a running replay (its worker's replay is killed; nothing waits for it)

    // The graph Run replays (nullptr disables Run). A different graph cancels a running replay and clears the
    // results; the same graph again keeps them.
    void setGraph(std::shared_ptr<const io::LoadedGraph> graph, const QString& address, const QString& title);
    // The fxray executable that serves `fxray worker` (default: next to this program, or its build-tree sibling).
    void setWorkerProgram(const QString& path);

    // Run. While a replay runs, starts over (the running one is cancelled and its results dropped).
    void start();
    // Stops the running replay; it ends promptly (the worker is killed) with a report marked cancelled that
    // keeps the node results so far, announced by finished().
    void cancel();
    bool isRunning() const { return m_running; }

    // The last finished report, or the running replay's partial one; null before the first run of this graph.
    std::shared_ptr<const replay::ReplayReport> report() const;
    ReplayResultsModel* resultsModel() const { return m_model; }
    QTableView* resultsView() const { return m_table; }
    // Selects that node's row (none when the problem filter hides it) without emitting nodeActivated.
    void selectNode(int nodeIndex);
    void setCudaGraphMode(bool on);  // the "CUDA graph" option, as if the user ticked it
    // "CUDA graph captured: replay 33.1 µs, …" or "CUDA graph unsafe: <the first blocking finding>".
    static QString cudaGraphText(const replay::CudaGraphReport& cg);
    // "mismatch — 11 passed, 1 mismatch, 0 errors · 12.3 ms · cpu seed 0"; "" before the first run.
    QString summaryText() const;

    // Seeds a Run sweeps (1: a plain replay) and what stops it ("nan", "mismatch", "error", several joined by ',').
    void setSweep(int seeds, const QString& until);
    // Repeat runs (0: off): each seed's inputs replayed this many more times, every node's output bits compared;
    // Run stops at the first node that is not deterministic (`fxray replay --repeat N --until diverge`).
    void setRepeatRuns(int runs);
    int repeatRuns() const;
    // The last finished sweep of this graph; null before one.
    std::shared_ptr<const replay::SweepResult> sweepResult() const { return m_sweepResult; }
    // "Replay seed S": the seed the last sweep stopped at, alone (as the button under the options does).
    void replayFailingSeed();

    void saveSettings(QSettings& settings) const;  // keys under "replay/"
    void restoreSettings(const QSettings& settings);

Q_SIGNALS:
    void nodeActivated(int nodeIndex);  // the user selected (or activated) a result row
    void reportChanged();               // new partial or final results; report() has them
    // A run ended with a report: passed, failing (mismatch, error rows, NaN, ...) or cancelled.
    void finished(const QString& summary);
    // A run ended without a complete replay (the worker crashed, hung, could not start, the device is not
    // there: report().fatal, naming the node when known), or could not start (bad options). report() is kept.
    void failed(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // The constructor's steps.
    void setUpOptions();
    void setUpResultsTable();
    void layOut();
    void connectControls();

    replay::ReplayOptions options() const;
    ReplayRequest runRequest(const replay::ReplayOptions& o, const QString& label) const;
    void showQueue();
    void probeDevices();
    void setDevices(const QString& program, int cudaDevices, const QString& why);
    void drain();
    void onFinished(std::shared_ptr<const replay::ReplayReport> report);
    bool huntsFaults() const;  // Run sweeps seeds or repeats runs
    void startSweep(replay::ReplayOptions o);
    void onSweepFinished(std::shared_ptr<const replay::SweepResult> result);
    QString sweepLineFor(const replay::SweepResult& r) const;
    replay::SweepSpec sweepSpec(const replay::ReplayOptions& o) const;
    void buildSweepOptions();
    void supersede();  // cancels the running job and drops its results
    void setRunning(bool running);
    void updateInputsChoice();
    void onCurrentRowChanged(const QModelIndex& current);

    std::shared_ptr<ReplayService> m_service;  // first: m_program is initialised from it
    std::shared_ptr<const io::LoadedGraph> m_graph;
    // The not-run rows of a graph of more than kSkeletonAsyncAbove nodes are made on the job pool (100k rows: 0.15 s).
    static constexpr std::size_t kSkeletonAsyncAbove = 5000;
    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    JobId m_skeletonJob = 0;
    QString m_address, m_title, m_program;
    QString m_probedProgram;  // the program whose CUDA devices were asked for (or are being asked)
    int m_cudaDevices = -1;   // as that program's worker reported them; -1: not known yet
    QString m_wantedDevice;   // a restored device the list does not hold yet
    bool m_preferSaved = false;

    JobId m_job = 0;          // the running replay or sweep
    JobId m_probeJob = 0;     // the device probe
    bool m_cancelling = false;
    bool m_running = false;
    bool m_sweeping = false;  // the running job is a sweep: progress counts seeds
    std::shared_ptr<const replay::SweepResult> m_sweepResult;
    replay::SweepSpec m_sweepSpec;  // of the running or last sweep
    QString m_sweepLine;      // the last sweep's line, ahead of the summary
    bool m_selecting = false;  // selectNode() at work: no nodeActivated
    bool m_reportLive = false; // the model holds a (partial) report of this graph
    mutable bool m_reportDirty = false;
    mutable std::shared_ptr<const replay::ReplayReport> m_report;
    std::shared_ptr<detail::ReplayStream> m_stream;

    ReplayResultsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTimer* m_reportTimer = nullptr;
    QLabel* m_graphLabel = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_inputs = nullptr;
    QSpinBox* m_intLow = nullptr;
    QSpinBox* m_intHigh = nullptr;
    QCheckBox* m_stopOnFirst = nullptr;
    QCheckBox* m_cudaGraph = nullptr;
    QSpinBox* m_sweepSeeds = nullptr;
    QComboBox* m_sweepUntil = nullptr;
    QSpinBox* m_repeatRuns = nullptr;
    QPushButton* m_replaySeed = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QCheckBox* m_problemsOnly = nullptr;
    QTableView* m_table = nullptr;
};

}  // namespace fxray::views
