#pragma once
// A structural diff of two graphs: a header (A vs B, counts), the list of differences (DiffModel) and the unified
// diff of their FX code with added lines green and removed lines red. Selecting a difference scrolls the code diff
// to that node's line and highlights it. Loading both graphs and diffing them runs in the GUI's job tracker; a newer
// request supersedes an older one, whose result is dropped. Failures (a graph that does not load, a
// malformed graph) show as a message in the panel.
#include "diff/graph_diff.h"
#include "io/graph_source.h"
#include "views/services/job_tracker.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QTableView;

namespace fxray::views {

class DiffModel;
class DiffHighlighter;

namespace detail {
// What the worker hands back for one request.
struct DiffJobResult {
    quint64 generation = 0;
    std::shared_ptr<const io::LoadedGraph> a, b;
    std::shared_ptr<const diff::DiffResult> result;
    QString codeDiff;  // unifiedCodeDiff; empty when the graphs are equal
    QString error;     // non-empty: the job failed
};
}  // namespace detail

class DiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiffPanel(QWidget* parent = nullptr);
    ~DiffPanel() override;

    // Diffs the graphs at two addresses (as `fxray info` prints them, or paths holding one graph); returns at once.
    void diffAddresses(const QString& addressA, const QString& addressB);
    // Diffs two graphs that are already loaded (the dump browser's); returns at once.
    void diffLoaded(std::shared_ptr<const io::LoadedGraph> a, std::shared_ptr<const io::LoadedGraph> b);

    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }  // requests made so far
    QString addressA() const { return m_addressA; }
    QString addressB() const { return m_addressB; }
    QString errorText() const { return m_error; }  // empty unless the last request failed
    int differenceCount() const;                    // -1 while busy or after a failure

    DiffModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* codeView() const { return m_code; }
    QString headerText() const;
    QString codeText() const;

    // The 0-based line of the code diff that shows the difference in `row`, -1 when it has none.
    int lineForRow(int row) const;
    // Selects a difference (as clicking its row does).
    void selectRow(int row);

Q_SIGNALS:
    void diffStarted(quint64 generation);
    void diffReady();                          // the newest request's result is shown
    void diffFailed(const QString& message);   // the newest request failed; the message is shown in the panel
    void differenceSelected(int nodeA, int nodeB);  // node indexes in A and B (-1 where absent)

private:
    void start(const QString& addressA, const QString& addressB, std::shared_ptr<const io::LoadedGraph> a,
               std::shared_ptr<const io::LoadedGraph> b);
    void finish(const detail::DiffJobResult& result);
    void showCurrentRow();
    void showMessage(const QString& title, const QString& body);

    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    DiffModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QPlainTextEdit* m_code = nullptr;
    DiffHighlighter* m_highlighter = nullptr;

    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    quint64 m_generation = 0;
    bool m_busy = false;
    QString m_addressA, m_addressB, m_error;
    std::shared_ptr<const diff::DiffResult> m_result;
};

}  // namespace fxray::views
