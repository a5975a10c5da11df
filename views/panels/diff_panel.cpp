#include "views/panels/diff_panel.h"

#include "diff/diff_report.h"
#include "views/models/diff_model.h"
#include "views/services/job_tracker.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QSyntaxHighlighter>
#include <QTableView>
#include <QTextBlock>
#include <QVBoxLayout>

#include <exception>

namespace fxray::views {

// Colours a unified diff: added lines green, removed lines red, hunk headers blue, file headers bold.
class DiffHighlighter : public QSyntaxHighlighter {
public:
    explicit DiffHighlighter(QTextDocument* document)
        : QSyntaxHighlighter(document)
    {
        m_added.setBackground(QColor(0xe6, 0xff, 0xec));
        m_added.setForeground(QColor(0x14, 0x5a, 0x32));
        m_removed.setBackground(QColor(0xff, 0xeb, 0xe9));
        m_removed.setForeground(QColor(0x78, 0x28, 0x1f));
        m_hunk.setForeground(QColor(0x1f, 0x4e, 0x9c));
        m_file.setFontWeight(QFont::Bold);
    }
    void setEnabled(bool on)
    {
        if (m_enabled != on) {
            m_enabled = on;
            rehighlight();
        }
    }

protected:
    void highlightBlock(const QString& text) override
    {
        if (!m_enabled || text.isEmpty())
            return;
        if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---")))
            setFormat(0, static_cast<int>(text.size()), m_file);
        else if (text.startsWith(QLatin1Char('+')))
            setFormat(0, static_cast<int>(text.size()), m_added);
        else if (text.startsWith(QLatin1Char('-')))
            setFormat(0, static_cast<int>(text.size()), m_removed);
        else if (text.startsWith(QLatin1String("@@")))
            setFormat(0, static_cast<int>(text.size()), m_hunk);
    }

private:
    QTextCharFormat m_added, m_removed, m_hunk, m_file;
    bool m_enabled = false;
};

namespace {

detail::DiffJobResult runDiff(quint64 generation, const QString& addressA, const QString& addressB,
                              std::shared_ptr<const io::LoadedGraph> a, std::shared_ptr<const io::LoadedGraph> b)
{
    detail::DiffJobResult out;
    out.generation = generation;
    try {
        if (!a)
            a = std::make_shared<const io::LoadedGraph>(io::loadAddress(addressA.toStdString()));
        if (!b)
            b = std::make_shared<const io::LoadedGraph>(io::loadAddress(addressB.toStdString()));
        auto result = std::make_shared<const diff::DiffResult>(diff::diffGraphs(a->graph, b->graph));
        diff::DiffLabels labels;
        labels.a = addressA.toStdString();
        labels.b = addressB.toStdString();
        out.codeDiff = QString::fromStdString(diff::unifiedCodeDiff(a->graph, b->graph, *result, labels));
        out.a = std::move(a);
        out.b = std::move(b);
        out.result = std::move(result);
    } catch (const std::exception& e) {  // fxray::Error (unreadable or malformed graph) or anything unexpected
        out.error = QString::fromUtf8(e.what());
        if (out.error.isEmpty())
            out.error = QStringLiteral("unknown error");
    }
    return out;
}

bool isChangeLine(const QString& line)
{
    return (line.startsWith(QLatin1Char('+')) && !line.startsWith(QLatin1String("+++"))) ||
           (line.startsWith(QLatin1Char('-')) && !line.startsWith(QLatin1String("---")));
}

// Lines of `text` showing the node of a row: the line defining it (its name first, then ':' or ' ='); inputs: the
// signature line naming the parameter; outputs: the `return` lines. Changed lines first, then context lines.
QList<int> linesFor(const QString& text, const DiffModel::Row& row)
{
    QRegularExpression re;
    if (row.kind == DiffModel::RowKind::Output)
        re.setPattern(QStringLiteral("^[-+ ]\\s*return\\b"));
    else if (row.codeName.isEmpty())
        return {};
    else if (row.kind == DiffModel::RowKind::Input)  // a parameter of the `def forward(...)` line
        re.setPattern(QStringLiteral("^[-+ ]\\s*def\\s.*[(,]\\s*") + QRegularExpression::escape(row.codeName) +
                      QStringLiteral("\\s*[:,)]"));
    else  // the node's definition at the start of its line, not a use (`...;  t = None`)
        re.setPattern(QStringLiteral("^[-+ ]\\s*") + QRegularExpression::escape(row.codeName) + QStringLiteral("(?=:|\\s=)"));
    const QStringList lines = text.split(QLatin1Char('\n'));
    QList<int> changed, context;
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (line.startsWith(QLatin1String("+++")) || line.startsWith(QLatin1String("---")) ||
            line.startsWith(QLatin1String("@@")) || !re.match(line).hasMatch())
            continue;
        (isChangeLine(line) ? changed : context) << i;
    }
    return changed.isEmpty() ? context : changed;
}

}  // namespace

DiffPanel::DiffPanel(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_details(new QLabel(this))
    , m_model(new DiffModel(this))
    , m_table(new QTableView(this))
    , m_code(new QPlainTextEdit(this))
{
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setObjectName(QStringLiteral("diffTitle"));
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);
    m_details->setObjectName(QStringLiteral("diffDetails"));

    m_table->setObjectName(QStringLiteral("diffTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setTextElideMode(Qt::ElideRight);

    m_code->setObjectName(QStringLiteral("diffCode"));
    m_code->setReadOnly(true);
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_code->setUndoRedoEnabled(false);
    m_highlighter = new DiffHighlighter(m_code->document());

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_code);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_details);
    layout->addWidget(splitter, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &DiffPanel::showCurrentRow);
    showMessage(tr("Diff"), tr("Pick two graphs: \"Diff with…\" in the Dumps list's context menu."));
}

DiffPanel::~DiffPanel() = default;

void DiffPanel::diffAddresses(const QString& addressA, const QString& addressB)
{
    start(addressA, addressB, nullptr, nullptr);
}

void DiffPanel::diffLoaded(std::shared_ptr<const io::LoadedGraph> a, std::shared_ptr<const io::LoadedGraph> b)
{
    const QString addressA = a ? QString::fromStdString(a->entry.address) : QString();
    const QString addressB = b ? QString::fromStdString(b->entry.address) : QString();
    start(addressA, addressB, std::move(a), std::move(b));
}

void DiffPanel::start(const QString& addressA, const QString& addressB, std::shared_ptr<const io::LoadedGraph> a,
                      std::shared_ptr<const io::LoadedGraph> b)
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_addressA = addressA;
    m_addressB = addressB;
    m_error.clear();
    m_result.reset();
    m_model->clear();
    showMessage(tr("Diffing …"), tr("A: %1\nB: %2").arg(addressA, addressB));
    Q_EMIT diffStarted(generation);

    // A newer request supersedes this one in the job tracker: a stale result never arrives.
    m_jobs->run(
        this, QStringLiteral("diff"),
        [generation, addressA, addressB, a = std::move(a), b = std::move(b)](const JobContext&) {
            return runDiff(generation, addressA, addressB, a, b);
        },
        [this](detail::DiffJobResult result) { finish(result); });
}

void DiffPanel::finish(const detail::DiffJobResult& job)
{
    m_busy = false;
    if (!job.error.isEmpty()) {
        m_error = job.error;
        showMessage(tr("Could not diff"), tr("A: %1\nB: %2\n\n%3").arg(m_addressA, m_addressB, job.error));
        Q_EMIT diffFailed(job.error);
        return;
    }
    m_result = job.result;
    const diff::DiffResult& r = *job.result;
    const QString titleA = QString::fromStdString(job.a->entry.title.empty() ? job.a->entry.address : job.a->entry.title);
    const QString titleB = QString::fromStdString(job.b->entry.title.empty() ? job.b->entry.address : job.b->entry.title);
    m_title->setText(tr("%1  vs  %2").arg(titleA, titleB));

    const auto counts = [](const QString& what, const diff::StatusCounts& c) {
        QString s = QStringLiteral("%1: %2 same").arg(what).arg(c.same);
        if (c.changed)
            s += QStringLiteral(", %1 changed").arg(c.changed);
        if (c.added)
            s += QStringLiteral(", %1 added").arg(c.added);
        if (c.removed)
            s += QStringLiteral(", %1 removed").arg(c.removed);
        return s;
    };
    const int n = r.differenceCount();
    QString details = n == 0 ? tr("equal (up to renaming and reordering)") : tr("%n difference(s)", nullptr, n);
    details += QStringLiteral("  ·  ") + counts(tr("ops"), r.ops) + QStringLiteral("  ·  ") +
               counts(tr("inputs"), r.inputCounts) + QStringLiteral("  ·  ") + counts(tr("outputs"), r.outputCounts);
    details += QStringLiteral("\nA: ") + m_addressA + QStringLiteral("\nB: ") + m_addressB;
    m_details->setText(details);

    m_model->setDiff(job.a->graph, job.b->graph, r);
    m_table->resizeColumnToContents(DiffModel::StatusColumn);
    m_table->resizeColumnToContents(DiffModel::NodeColumn);
    m_table->setColumnWidth(DiffModel::NodeColumn, std::min(m_table->columnWidth(DiffModel::NodeColumn), 320));

    m_highlighter->setEnabled(!job.codeDiff.isEmpty());
    m_code->setPlainText(job.codeDiff.isEmpty() ? tr("The FX code of the two graphs is the same once B's nodes are "
                                                     "renamed and ordered like A's.")
                                                : job.codeDiff);
    m_code->setExtraSelections({});
    if (m_model->rowCount() > 0)
        selectRow(0);  // start at the first difference
    Q_EMIT diffReady();
}

void DiffPanel::showMessage(const QString& title, const QString& body)
{
    m_title->setText(title);
    m_details->clear();
    m_highlighter->setEnabled(false);
    m_code->setExtraSelections({});
    m_code->setPlainText(body);
}

int DiffPanel::differenceCount() const
{
    return m_result ? m_result->differenceCount() : -1;
}

QString DiffPanel::headerText() const
{
    return m_title->text() + QLatin1Char('\n') + m_details->text();
}

QString DiffPanel::codeText() const
{
    return m_code->toPlainText();
}

int DiffPanel::lineForRow(int row) const
{
    const DiffModel::Row* r = m_model->row(row);
    if (!r || !m_result)
        return -1;
    const QList<int> lines = linesFor(m_code->toPlainText(), *r);
    return lines.isEmpty() ? -1 : lines.front();
}

void DiffPanel::selectRow(int row)
{
    m_table->setCurrentIndex(m_model->index(row, DiffModel::NodeColumn));
}

void DiffPanel::showCurrentRow()
{
    const int row = m_table->currentIndex().row();
    const DiffModel::Row* r = m_model->row(row);
    if (!r || !m_result)
        return;
    Q_EMIT differenceSelected(r->a, r->b);

    const QList<int> lines = linesFor(m_code->toPlainText(), *r);
    QList<QTextEdit::ExtraSelection> selections;
    for (const int line : lines) {
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(m_code->document()->findBlockByNumber(line));
        s.format.setBackground(QColor(0xff, 0xe0, 0x82));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections << s;
    }
    m_code->setExtraSelections(selections);
    if (lines.isEmpty())
        return;
    QTextCursor cursor(m_code->document()->findBlockByNumber(lines.front()));
    m_code->setTextCursor(cursor);
    m_code->centerCursor();
}

}  // namespace fxray::views
