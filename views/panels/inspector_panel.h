#pragma once
// The node inspector: op and schema (the schema as the dispatcher knows it, once a replay has run), arguments
// and users (node references are links: clicking one selects that node), recorded metadata next to what the replay
// produced with mismatches marked, output statistics (min/max/mean/NaN/Inf), time, error, and the model source
// (stack-trace comment). "Copy" puts the details on the clipboard as plain text.
#include "io/graph_source.h"

#include <QWidget>

#include <memory>

class QTextBrowser;
class QLabel;

namespace fxray::replay {
struct ReplayReport;
}

namespace fxray::views {

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(QWidget* parent = nullptr);

    void setGraph(std::shared_ptr<const io::LoadedGraph> graph);
    void setReport(std::shared_ptr<const replay::ReplayReport> report);
    void showNode(int node);
    int node() const { return m_node; }
    QString detailsText() const;  // what Copy copies
    QString detailsHtml() const;
    void copyDetails() const;

Q_SIGNALS:
    void nodeActivated(int node);  // a link to another node was clicked

private:
    void render();

    std::shared_ptr<const io::LoadedGraph> m_graph;
    std::shared_ptr<const replay::ReplayReport> m_report;
    int m_node = -1;
    QTextBrowser* m_browser = nullptr;
};

}  // namespace fxray::views
