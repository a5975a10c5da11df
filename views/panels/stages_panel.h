#pragma once
// The Stages tab: one compile's graphs (dynamo, AOT forward, inductor post-grad) replayed on the same inputs side
// by side (replay/api/stage_compare.h), the first stage whose outputs diverge highlighted. Device and seed, Run /
// Cancel, progress over the stages' nodes; the stages replay in the device's `fxray worker`, through the GUI's
// ReplayService (shared with the Replay and Minimize docks): a run that is replaced has its results dropped there. Clicking a stage asks
// for its graph (openGraph), which the main window shows in the Graph tab.
#include "views/services/job_context.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace fxray::replay {
struct CancelToken;
struct StageCompareReport;
struct StageResult;
}

namespace fxray::views {

class ReplayService;
class StageCompareModel;

class StagesPanel : public QWidget {
    Q_OBJECT
public:
    explicit StagesPanel(QWidget* parent = nullptr);
    ~StagesPanel() override;  // cancels a running compare and waits for it

    // The compile ("<log>#<frame>/<compile>"); does not start a run.
    void setCompile(const QString& address);
    QString compile() const { return m_address; }
    void setWorkerProgram(const QString& path) { m_program = path; }
    void setDevice(const QString& device);
    void setSeed(int seed);
    // Whether the last stage, inductor's generated code, runs (a Python child with torch; on by default).
    void setOutputCode(bool on) { m_outputCode = on; }
    // The first divergent generated kernel as shown (its finding and code); empty when none is shown.
    QString kernelText() const;

    void start();   // Run
    void cancel();  // Cancel
    bool isRunning() const { return m_running; }
    StageCompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString summaryText() const;
    int generation() const { return m_generation; }  // runs started so far

Q_SIGNALS:
    void finished(const QString& verdict);       // "agree", "diverge", "failed"
    void failed(const QString& message);         // a bad address, no worker
    void progressed(int done, int total);
    void openGraph(const QString& address);      // a stage was clicked

private:
    void onStages(const std::vector<replay::StageResult>& stages);
    void onStageDone(int row, const replay::StageResult& result);
    void onProgress(int done, int total);
    void onDone(const replay::StageCompareReport& report);
    void onError(const QString& message);
    void setRunning(bool running);

    std::shared_ptr<ReplayService> m_service;  // first: m_program is initialised from it
    QString m_address, m_program;
    bool m_running = false;
    bool m_outputCode = true;
    int m_generation = 0;
    JobId m_job = 0;

    QLabel* m_compileLabel = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_seed = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    QPlainTextEdit* m_kernel = nullptr;  // the first divergent generated kernel: the finding and its code
    QTableView* m_table = nullptr;
    StageCompareModel* m_model = nullptr;
};

}  // namespace fxray::views
