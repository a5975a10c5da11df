#pragma once
// The Ranks tab (issue 22): a folder of per-rank logs or dumps replayed as one distributed job, the ranks side by
// side (RankResultsModel). Run first compares the ranks' collectives (graph/collective_check: a rank that would call
// another collective than its peers is named, and nothing runs), then starts worker/distributed_job: one
// `fxray worker` per rank over c10d process groups (Gloo on the CPU, NCCL on CUDA), so the collectives run for
// real. These workers are the job's own (each joins the rendezvous with its rank's environment), not the replay
// service's per-device ones; the job runs in the GUI's JobTracker and Cancel stops every rank. Clicking a cell asks
// for that rank's graph (openGraph).
#include "views/services/job_tracker.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace fxray::views {

class RankResultsModel;
struct RanksRun;

class RanksPanel : public QWidget {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget* parent = nullptr);
    ~RanksPanel() override;  // stops a running job (its workers are killed); nothing waits for it

    void setPath(const QString& path);  // the folder (or log) of the job; does not start it
    QString path() const { return m_path; }
    void setWorkerProgram(const QString& path) { m_program = path; }
    void setDevice(const QString& device);
    void setCollectiveTimeout(int seconds);

    void start();
    void cancel();
    bool isRunning() const { return m_running; }
    RankResultsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString summaryText() const;

Q_SIGNALS:
    // "pass" (every rank's every graph), "fail" (a graph failed, or the job stopped early), "refused" (the collective
    // check found a difference), "cancelled", "error" (no job here, nothing loads).
    void finished(const QString& outcome);
    void openGraph(const QString& address);

private:
    void onDone(const RanksRun& run);
    void setRunning(bool running);

    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    JobId m_job = 0;
    QString m_path, m_program;
    bool m_running = false;

    QLabel* m_pathLabel = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_timeout = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    RankResultsModel* m_model = nullptr;
};

}  // namespace fxray::views
