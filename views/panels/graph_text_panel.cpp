#include "views/panels/graph_text_panel.h"

#include "graph/printer.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace fxray::views {

namespace {
QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
}  // namespace

GraphTextPanel::GraphTextPanel(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_details(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
{
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);

    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Graph texts are long (thousands of lines for training graphs); undo history only costs memory here.
    m_text->setUndoRedoEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_details);
    layout->addWidget(m_text, 1);
}

void GraphTextPanel::showGraph(const io::LoadedGraph& loaded)
{
    const io::GraphEntry& e = loaded.entry;
    const graph::Graph& g = loaded.graph;
    m_title->setText(QString::fromStdString(e.title.empty() ? e.address : e.title));

    QStringList parts;
    parts << fromView(io::graphKindName(e.kind));
    parts << tr("%1 nodes").arg(g.nodes.size());
    parts << tr("%1 ops").arg(g.opCount());
    parts << tr("%1 inputs").arg(g.placeholders().size());
    parts << fromView(io::sourceFormatName(e.format));
    if (!e.group.empty())
        parts << QString::fromStdString(e.group);
    QString details = parts.join(QStringLiteral("  ·  "));
    details += QLatin1Char('\n') + QString::fromStdString(e.address);
    if (!loaded.warnings.empty())
        details += QLatin1Char('\n') +
                   (loaded.warnings.size() == 1 ? tr("warning: ")
                                                : tr("%1 warnings, first: ").arg(loaded.warnings.size())) +
                   QString::fromStdString(loaded.warnings.front());
    m_details->setText(details);
    m_details->setToolTip(QString::fromStdString(e.path));

    m_text->setPlainText(QString::fromStdString(graph::printReadable(g)));
}

void GraphTextPanel::showMessage(const QString& title, const QString& body)
{
    m_title->setText(title);
    m_details->clear();
    m_details->setToolTip({});
    m_text->setPlainText(body);
}

QString GraphTextPanel::headerText() const
{
    return m_title->text() + QLatin1Char('\n') + m_details->text();
}

QString GraphTextPanel::bodyText() const
{
    return m_text->toPlainText();
}

}  // namespace fxray::views
