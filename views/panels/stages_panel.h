#pragma once
// The Stages tab: one compile's graphs (dynamo, AOT forward, inductor post-grad) replayed on the same inputs side
// by side (replay/stage_compare.h), the first stage whose outputs diverge highlighted. Device and seed, Run /
// Cancel, progress over the stages' nodes; each stage replays in an `fxray worker` process from a pool thread.
// Each run has a generation: results of a run that was cancelled or replaced are dropped. Clicking a stage asks
// for its graph (openGraph), which the main window shows in the Graph tab.
#include <QWidget>

#include <QFuture>
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
    int generation() const { return m_generation; }

Q_SIGNALS:
    void finished(const QString& verdict);       // "agree", "diverge", "failed"
    void failed(const QString& message);         // a bad address, no worker
    void progressed(int done, int total);
    void openGraph(const QString& address);      // a stage was clicked

private:
    void onStages(int generation, const std::vector<replay::StageResult>& stages);
    void onStageDone(int generation, int row, const replay::StageResult& result);
    void onProgress(int generation, int done, int total);
    void onDone(int generation, const replay::StageCompareReport& report);
    void onError(int generation, const QString& message);
    void setRunning(bool running);

    QString m_address, m_program;
    bool m_running = false;
    bool m_outputCode = true;
    int m_generation = 0;
    std::shared_ptr<replay::CancelToken> m_cancel;
    QFuture<void> m_job;

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
