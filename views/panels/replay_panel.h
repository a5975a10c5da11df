#pragma once
// The Replay panel: replay the selected graph in a `fxray worker` child process (a crash, a device-side assert or
// a hang costs one replay, not the GUI) with every node's dtype/size/stride checked, and show the node results
// as they arrive. Options: device (CPU and the CUDA devices the worker reports), seed, random or saved inputs,
// the range of unconstrained int inputs, stop at the first failing node; Run / Cancel, a progress bar, and the
// results table (ReplayResultsModel), optionally only the problem rows. Selecting a row announces its node.
//
// Sweep (replay_panel_sweep.cpp): with "Sweep seeds" above 1, Run replays seeds Seed, Seed + 1, ... in the worker
// (one request) until one fails the way "Until" says; the progress bar counts seeds, Cancel stops it, and the
// failing seed's report fills the table, its seed in the Seed box: Run again reproduces it.
//
// Jobs run on the panel's own one-thread pool, which owns the worker (kept alive across runs: LibTorch starts
// once; a dead worker is respawned by the next run). Each run has a generation id: results of a run that was
// superseded (setGraph, a new start) are dropped. Node results arrive coalesced: at most one update is queued
// to the GUI thread at a time, and reportChanged() is throttled.
#include "io/graph_source.h"
#include "replay/replay_types.h"
#include "replay/seed_sweep.h"

#include <QThreadPool>
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

namespace detail {
struct ReplayEngine;
struct ReplayStream;
}  // namespace detail

class ReplayPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReplayPanel(QWidget* parent = nullptr);
    ~ReplayPanel() override;  // cancels a running replay and waits for its job

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
    // The last finished sweep of this graph; null before one.
    std::shared_ptr<const replay::SweepResult> sweepResult() const { return m_sweepResult; }

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
    replay::ReplayOptions options() const;
    void probeDevices();
    void setDevices(const QString& program, int cudaDevices, const QString& why);
    void drain(quint64 generation);
    void onFinished(quint64 generation, std::shared_ptr<const replay::ReplayReport> report);
    void startSweep(const replay::ReplayOptions& o, quint64 generation);
    void onSweepFinished(quint64 generation, std::shared_ptr<const replay::SweepResult> result);
    replay::SweepSpec sweepSpec(const replay::ReplayOptions& o) const;
    void buildSweepOptions();
    void supersede();  // cancels the running job and drops its results
    void setRunning(bool running);
    void updateInputsChoice();
    void onCurrentRowChanged(const QModelIndex& current);

    std::shared_ptr<const io::LoadedGraph> m_graph;
    QString m_address, m_title, m_program;
    QString m_probedProgram;  // the program whose CUDA devices were asked for (or are being asked)
    int m_cudaDevices = -1;   // as that program's worker reported them; -1: not known yet
    QString m_wantedDevice;   // a restored device the list does not hold yet
    bool m_preferSaved = false;

    quint64 m_generation = 0;
    bool m_running = false;
    bool m_sweeping = false;  // the running job is a sweep: progress counts seeds
    std::shared_ptr<const replay::SweepResult> m_sweepResult;
    QString m_sweepLine;      // the last sweep's line, ahead of the summary
    bool m_selecting = false;  // selectNode() at work: no nodeActivated
    bool m_reportLive = false; // the model holds a (partial) report of this graph
    mutable bool m_reportDirty = false;
    mutable std::shared_ptr<const replay::ReplayReport> m_report;
    std::shared_ptr<replay::CancelToken> m_cancel, m_probeCancel;
    std::shared_ptr<detail::ReplayStream> m_stream;
    std::shared_ptr<detail::ReplayEngine> m_engine;
    QThreadPool m_pool;  // one thread: one job at a time uses the worker

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
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QCheckBox* m_problemsOnly = nullptr;
    QTableView* m_table = nullptr;
};

}  // namespace fxray::views
