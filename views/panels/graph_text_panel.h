#pragma once
// The selected graph as code (print_readable with annotations and the model-source comments, highlighted), under a
// header line with its title, kind, node count and address. Read-only. Synced with the graph selection both ways:
// selectNode() marks the node's line and scrolls to it; moving the cursor onto a node name (or onto a line that
// defines one) emits nodeSelected. Lines of nodes a replay found fault with are tinted.
#include "io/graph_source.h"
#include "views/services/job_tracker.h"

#include <QTextDocument>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QTextDocument;

namespace fxray::replay {
struct ReplayReport;
}

namespace fxray::views {

class GraphTextPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphTextPanel(QWidget* parent = nullptr);

    // Graphs of more than kAsyncAboveNodes nodes are printed, and their text document built, on a pool thread;
    // codeReady() says when the text is there (at once for smaller graphs).
    void showGraph(std::shared_ptr<const io::LoadedGraph> loaded);
    bool isPreparing() const;
    static constexpr std::size_t kAsyncAboveNodes = 1500;
    // A signature longer than this many characters is shown one parameter per line.
    static constexpr std::size_t kWrapSignatureAbove = 10000;
    // A title line and a body text instead of a graph (loading, load error, nothing selected).
    void showMessage(const QString& title, const QString& body);

    QString headerText() const;
    QString bodyText() const;
    QPlainTextEdit* editor() const { return m_text; }

    void selectNode(int node);  // no nodeSelected
    int selectedNode() const { return m_selected; }
    int lineOfNode(int node) const;  // 1-based line in bodyText(), 0 when unknown
    void setReport(const replay::ReplayReport* report);

Q_SIGNALS:
    void nodeSelected(int node);
    void codeReady();

private:
    struct PreparedCode {
        QString text;
        std::vector<int> lineOfNode, nodeOfLine;
        // Made off the GUI thread for large graphs (else null); setCode takes it, a dropped result deletes it.
        struct OwnedDocument {
            QTextDocument* document = nullptr;
            ~OwnedDocument() { delete document; }
            QTextDocument* take() { return std::exchange(document, nullptr); }
        };
        std::shared_ptr<OwnedDocument> document;
    };
    static PreparedCode prepareCode(const io::LoadedGraph& loaded);
    void setCode(PreparedCode code);
    void onCursorMoved();
    void updateSelections();

    std::shared_ptr<JobTracker> m_jobs = JobTracker::shared();
    JobId m_prepareJob = 0;
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    QPlainTextEdit* m_text = nullptr;
    std::vector<int> m_lineOfNode;  // per node, 1-based
    std::vector<int> m_nodeOfLine;  // per line (1-based index), the node it defines or -1
    std::shared_ptr<const io::LoadedGraph> m_graph;  // the graph shown (null: a message)
    std::vector<int> m_problemLines;  // lines of nodes with replay findings, and their colour
    std::vector<QColor> m_problemColors;
    int m_selected = -1;
    bool m_moving = false;  // selectNode moves the cursor: no signal
    class PythonHighlighter* m_highlighter = nullptr;
};

}  // namespace fxray::views
