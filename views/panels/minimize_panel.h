#pragma once
// The Minimize panel: shrink the selected graph to the smallest graph that fails the same way (core/minimize),
// with candidates replayed in `fxray worker` processes. What counts as failing (mismatch, error[:REGEX], nan,
// diverge[:DEVICE], cmd:COMMAND, combinable with ','), the device, the seed and whether a NaN's statement stays
// whole; Run / Cancel; a live line (strategy, nodes left, queries, seconds) and the log of accepted steps.
// The search runs on the device's lane of the GUI's ReplayService (its worker shared with the Replay dock and the
// Stages tab); cancelling stops it at the next query (the smallest graph so far is kept).
// The result is written to a folder (seed-layout dump, repro.py, minimize.json) and announced by finished(),
// on which the main window opens it in a new tab.
#include "views/services/job_context.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace fxray::replay {
struct CancelToken;
}

namespace fxray::views {

class ReplayService;

class MinimizePanel : public QWidget {
    Q_OBJECT
public:
    explicit MinimizePanel(QWidget* parent = nullptr);
    ~MinimizePanel() override;  // cancels a running search and waits for it

    // The graph Run works on (an address as `fxray info` prints it); empty disables Run.
    void setGraph(const QString& address, const QString& title);
    QString graph() const { return m_address; }
    // The fxray executable that serves `fxray worker` (default: next to this program, or its build-tree sibling).
    void setWorkerProgram(const QString& path) { m_program = path; }
    // Where results go: <outputRoot>/<title>-<n>/ (default: the system temp folder / fxray-minimized).
    void setOutputRoot(const QString& path) { m_outputRoot = path; }

    void setUntil(const QString& spec);
    void setDevice(const QString& device);
    void start();   // Run
    void cancel();  // Cancel
    bool isRunning() const { return m_running; }
    QString liveText() const;
    QString logText() const;

Q_SIGNALS:
    void progressed(int nodesLeft, int queries);
    // The exported seed-layout folder, the original's title and the minimized node count.
    void finished(const QString& dumpFolder, const QString& title, int nodes);
    void failed(const QString& message);  // bad spec, unloadable graph, no failure, no worker

private:
    void onProgress(const QString& strategy, int nodesLeft, int queries, double seconds);
    void onDone(const QString& dump, const QString& message, int nodes, bool ok);
    void setRunning(bool running);

    std::shared_ptr<ReplayService> m_service;  // first: m_program is initialised from it
    QString m_address, m_title, m_program, m_outputRoot;
    bool m_running = false;
    JobId m_job = 0;

    QLabel* m_graphLabel = nullptr;
    QComboBox* m_until = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_seed = nullptr;
    QCheckBox* m_keepStatement = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_live = nullptr;
    QPlainTextEdit* m_log = nullptr;
};

}  // namespace fxray::views
