#include "views/panels/graph_text_panel.h"

#include "graph/printer.h"
#include "replay/api/replay_types.h"
#include "views/graph/graph_items.h"
#include "views/panels/graph_panel.h"
#include "views/panels/python_highlighter.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>
#include <QApplication>
#include <QPlainTextDocumentLayout>
#include <QTextDocument>
#include <QThread>
#include <QVBoxLayout>
#include <QTextOption>


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
    m_text->setObjectName(QStringLiteral("graphCode"));
    m_highlighter = new PythonHighlighter(this);
    m_highlighter->setDocument(m_text->document());
    connect(m_text, &QPlainTextEdit::cursorPositionChanged, this, &GraphTextPanel::onCursorMoved);
    connect(m_text, &QPlainTextEdit::updateRequest, this, [this] { m_highlighter->highlightVisible(m_text); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_details);
    layout->addWidget(m_text, 1);
}

void GraphTextPanel::showGraph(std::shared_ptr<const io::LoadedGraph> shared)
{
    const io::LoadedGraph& loaded = *shared;
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

    m_jobs->discard(m_prepareJob);  // a preparation still running is of no use any more
    m_prepareJob = 0;
    m_selected = -1;
    m_problemLines.clear();
    m_problemColors.clear();
    m_graph = shared;  // its node names (copying 100k of them cost the GUI thread ~30 ms)
    // The editor lays out every line again whenever its width changes: a long text gets its vertical scroll bar
    // before it arrives (100k lines: ~0.1 s per relayout).
    m_text->setVerticalScrollBarPolicy(g.nodes.size() <= kAsyncAboveNodes ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOn);
    if (g.nodes.size() <= kAsyncAboveNodes) {
        setCode(prepareCode(*shared));
        return;
    }
    // Thousands of nodes: printing and the line map take a second or more, so they run on a pool thread, and the
    // text goes into the editor in slices between events (the window never stalls for long).
    m_lineOfNode.clear();
    m_nodeOfLine.clear();
    m_moving = true;
    m_text->setPlainText(tr("Preparing the code of %1 nodes …").arg(g.nodes.size()));
    m_moving = false;
    m_prepareJob = m_jobs->run(this, QStringLiteral("code"), [shared](const JobContext&) { return prepareCode(*shared); },
                               [this](PreparedCode code) {
                                   m_prepareJob = 0;
                                   setCode(std::move(code));
                               });
}

GraphTextPanel::PreparedCode GraphTextPanel::prepareCode(const io::LoadedGraph& loaded)
{
    const graph::Graph& g = loaded.graph;
    PreparedCode out;
    // Which line defines which node: the printer counts them (tests/core/test_fx_parser checks that this is
    // what parsing the printed text again says). Thousands of inputs go one per line: the editor shapes a line
    // whole each time it is drawn (20,000 inputs on one line: 0.6 s per paint).
    const std::string text = graph::printReadableWithLines(g, out.lineOfNode, kWrapSignatureAbove);
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 2;
    out.nodeOfLine.assign(static_cast<std::size_t>(lines), -1);
    for (std::size_t i = 0; i < out.lineOfNode.size(); ++i) {
        const int line = out.lineOfNode[i];
        // The def line holds every placeholder: it keeps the first; clicking a name there picks the others.
        if (line > 0 && line < lines && out.nodeOfLine[static_cast<std::size_t>(line)] < 0)
            out.nodeOfLine[static_cast<std::size_t>(line)] = static_cast<int>(i);
    }
    out.text = QString::fromStdString(text);
    if (QThread::currentThread() != qApp->thread()) {
        // Filling a QTextDocument with tens of thousands of lines takes hundreds of milliseconds: do it here and
        // give the document to the GUI thread (a QObject can only be pushed to another thread from its own).
        auto* document = new QTextDocument;
        document->setDocumentLayout(new QPlainTextDocumentLayout(document));
        document->setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        document->setUndoRedoEnabled(false);
        // The editor's own option (no wrapping), set here: changing it there re-lays out every line.
        QTextOption option = document->defaultTextOption();
        option.setWrapMode(QTextOption::NoWrap);
        document->setDefaultTextOption(option);
        document->setPlainText(out.text);
        // Each line's QTextLayout is made on its first use: here rather than in the editor's relayout of every line
        // when the document is handed to it (for 100k lines a few hundred ms of the GUI thread).
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
            block.layout();
        document->moveToThread(qApp->thread());
        out.document = std::make_shared<PreparedCode::OwnedDocument>();
        out.document->document = document;
    }
    return out;
}

void GraphTextPanel::setCode(PreparedCode code)
{
    m_lineOfNode = std::move(code.lineOfNode);
    m_nodeOfLine = std::move(code.nodeOfLine);
    const bool lazy = m_lineOfNode.size() > kAsyncAboveNodes;
    m_highlighter->setLazy(lazy);
    m_moving = true;
    // Lazy highlighting colours visible lines itself: the highlighter stays off such documents (see its header).
    m_highlighter->setDocument(nullptr);  // setDocument below repaints: no highlighting of the old document then
    if (QTextDocument* document = code.document ? code.document->take() : nullptr) {
        // Built on the pool thread and handed to this one.
        // Parented to the editor, the document is the editor's: the next setDocument deletes it.
        document->setParent(m_text);
        m_text->setDocument(document);
    } else {
        m_text->setPlainText(code.text);
    }
    if (!lazy)
        m_highlighter->setDocument(m_text->document());
    m_moving = false;
    m_highlighter->highlightVisible(m_text);
    if (m_selected >= 0)
        selectNode(m_selected);
    updateSelections();
    Q_EMIT codeReady();
}

bool GraphTextPanel::isPreparing() const
{
    return m_graph && !m_graph->graph.nodes.empty() && m_lineOfNode.empty();
}

int GraphTextPanel::lineOfNode(int node) const
{
    return node >= 0 && static_cast<std::size_t>(node) < m_lineOfNode.size() ? m_lineOfNode[static_cast<std::size_t>(node)] : 0;
}

void GraphTextPanel::selectNode(int node)
{
    m_selected = node;
    const int line = lineOfNode(node);
    if (line > 0) {
        m_moving = true;
        QTextCursor cursor(m_text->document()->findBlockByNumber(line - 1));
        // On the def line, put the cursor on the placeholder's own name.
        const QString name = QString::fromStdString(m_graph->graph.nodes[static_cast<std::size_t>(node)].name);
        const QString lineText = cursor.block().text();
        const auto match = QRegularExpression(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name))).match(lineText);
        if (match.hasMatch())
            cursor.setPosition(cursor.block().position() + static_cast<int>(match.capturedStart()));
        m_text->setTextCursor(cursor);
        m_text->centerCursor();
        m_moving = false;
    }
    updateSelections();
}

void GraphTextPanel::onCursorMoved()
{
    if (m_moving || !m_graph)
        return;
    QTextCursor cursor = m_text->textCursor();
    cursor.select(QTextCursor::WordUnderCursor);
    const std::string word = cursor.selectedText().toStdString();
    int node = -1;
    if (!word.empty())
        for (std::size_t i = 0; i < m_graph->graph.nodes.size(); ++i)
            if (m_graph->graph.nodes[i].name == word) {
                node = static_cast<int>(i);
                break;
            }
    const int line = m_text->textCursor().blockNumber() + 1;
    if (node < 0 && line < static_cast<int>(m_nodeOfLine.size()))
        node = m_nodeOfLine[static_cast<std::size_t>(line)];
    if (node < 0 || node == m_selected)
        return;
    m_selected = node;
    updateSelections();
    Q_EMIT nodeSelected(node);
}

void GraphTextPanel::setReport(const replay::ReplayReport* report)
{
    m_problemLines.clear();
    m_problemColors.clear();
    const std::vector<NodeMark> marks = marksFromReport(report, m_lineOfNode.size());
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (marks[i] == NodeMark::None || marks[i] == NodeMark::Passed || marks[i] == NodeMark::NotRun)
            continue;
        if (const int line = m_lineOfNode[i]; line > 0) {
            m_problemLines.push_back(line);
            m_problemColors.push_back(markColor(marks[i]));
        }
    }
    updateSelections();
}

void GraphTextPanel::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    for (std::size_t k = 0; k < m_problemLines.size(); ++k) {
        QTextEdit::ExtraSelection s;
        QColor c = m_problemColors[k];
        c.setAlpha(60);
        s.format.setBackground(c);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(m_text->document()->findBlockByNumber(m_problemLines[k] - 1));
        selections << s;
    }
    if (const int line = lineOfNode(m_selected); line > 0) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(QColor(0x15, 0x65, 0xc0, 55));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(m_text->document()->findBlockByNumber(line - 1));
        selections << s;
    }
    m_text->setExtraSelections(selections);
}

void GraphTextPanel::showMessage(const QString& title, const QString& body)
{
    m_jobs->discard(m_prepareJob);  // a preparation still running is of no use any more
    m_prepareJob = 0;
    m_title->setText(title);
    m_details->clear();
    m_details->setToolTip({});
    m_lineOfNode.clear();
    m_nodeOfLine.clear();
    m_graph.reset();
    m_selected = -1;
    m_problemLines.clear();
    m_problemColors.clear();
    m_moving = true;
    m_text->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_text->setPlainText(body);
    m_moving = false;
    m_text->setExtraSelections({});
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
