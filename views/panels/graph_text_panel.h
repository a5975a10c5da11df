#pragma once
// The selected graph as text (print_readable with annotations and stack comments), under a header line with
// its title, kind, node count and address. Read-only; a placeholder message when nothing is selected.
#include "io/graph_source.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace fxray::views {

class GraphTextPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphTextPanel(QWidget* parent = nullptr);

    void showGraph(const io::LoadedGraph& loaded);
    // A title line and a body text instead of a graph (loading, load error, nothing selected).
    void showMessage(const QString& title, const QString& body);

    QString headerText() const;
    QString bodyText() const;

private:
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    QPlainTextEdit* m_text = nullptr;
};

}  // namespace fxray::views
