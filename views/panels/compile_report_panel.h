#pragma once
// The "Compile report" dock: io::buildCompileReport for the open path (a TORCH_TRACE log or a folder of them),
// built in the GUI's job tracker (a newer path supersedes an older one, whose result is dropped). Above, a tree:
// ranks, then their compiles with status (tlparse's colours), graph breaks, recompiles and compile time. Below,
// the selected compile in full: why it restarted, broke or recompiled, its failure and stack, metrics, cache
// events, guards; its graphs are links (graphActivated opens them in the app) and inductor's output code opens
// as text in the same view.
#include "graph/collective_check.h"
#include "io/compile_report.h"
#include "views/services/job_tracker.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace fxray::views {

class CompileReportPanel : public QWidget {
    Q_OBJECT
public:
    explicit CompileReportPanel(QWidget* parent = nullptr);

    // Builds the report of `path` in the background; a path without trace logs shows a message.
    void setPath(const QString& path);
    QString path() const { return m_path; }
    bool isBusy() const { return m_busy; }
    std::shared_ptr<const io::CompileReport> report() const { return m_report; }
    QString messageText() const;  // the line above the tree ("2 ranks, 8 compiles, ...", or why there is none)
    QTreeWidget* tree() const { return m_tree; }
    QTextBrowser* details() const { return m_details; }

    // Selects the compile with this id ("[0/1]") of the first rank that has it; false when none does.
    bool selectCompile(const QString& compileId);
    // The collective check of the ranks' graphs (several ranks' logs), once ranksChecked; null with its reason.
    std::shared_ptr<const graph::CollectiveCheck> rankCheck() const { return m_check; }
    // Selects the ranks' divergence page (first item when the report has several ranks); false when there is none.
    bool selectDivergence();

Q_SIGNALS:
    void graphActivated(const QString& address);  // a graph link was clicked
    void reportReady();                           // the newest request finished (report() or messageText())
    void ranksChecked();                          // the ranks' collective check finished (rankCheck())
    void ranksRequested(const QString& path);     // "replay the ranks together" was clicked

private:
    void showReport(std::shared_ptr<const io::CompileReport> report);
    void showCompile(QTreeWidgetItem* item);
    void onLink(const QUrl& url);

    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    QString m_path;
    bool m_busy = false;
    std::shared_ptr<const io::CompileReport> m_report;
    std::shared_ptr<const graph::CollectiveCheck> m_check;
    QString m_checkWhy;
    QLabel* m_message = nullptr;
    QTreeWidget* m_tree = nullptr;
    QTextBrowser* m_details = nullptr;
};

}  // namespace fxray::views
