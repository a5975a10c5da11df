#include "views/panels/compile_report_panel.h"

#include "views/panels/compile_report_html.h"
#include "views/services/job_tracker.h"

#include "base/error.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fxray::views {

namespace {

constexpr int kRankRole = Qt::UserRole + 1;
constexpr int kCompileRole = Qt::UserRole + 2;

struct ReportJob {
    std::shared_ptr<const io::CompileReport> report;
    QString error;
};

QString rankTitle(const io::RankReport& r)
{
    const QString name = QString::fromStdString(r.path).section(QLatin1Char('/'), -1);
    return r.rank >= 0 ? QStringLiteral("rank %1 — %2").arg(r.rank).arg(name) : name;
}

QString compileTime(const io::CompileEntry& c)
{
    const io::CompileMetrics* m = c.lastMetrics();
    return m && m->entireFrameS ? QString::number(*m->entireFrameS, 'f', 3) + QStringLiteral(" s") : QString();
}

QTreeWidgetItem* compileItem(const io::CompileEntry& c, int rank, int compile)
{
    auto* item = new QTreeWidgetItem(QStringList{QString::fromStdString(c.compileId), QString::fromStdString(c.function),
                                                 c.unknown() ? QString() : QString::fromLatin1(io::compileStatusName(c.status).data()),
                                                 c.graphBreaks.empty() ? QString() : QString::number(c.graphBreaks.size()),
                                                 c.recompileReasons.empty() ? QString() : QStringLiteral("yes"), compileTime(c)});
    item->setData(0, kRankRole, rank);
    item->setData(0, kCompileRole, compile);
    if (!c.unknown()) {
        item->setBackground(2, statusColour(c.status));
        item->setForeground(2, c.status == io::CompileStatus::Empty || c.status == io::CompileStatus::Restarted ? Qt::black : Qt::white);
    }
    const QString why = !c.recompileReasons.empty() ? QString::fromStdString(c.recompileReasons.front())
                      : c.failure                   ? QString::fromStdString(c.failure->type + ": " + c.failure->reason)
                                                    : QString::fromStdString(c.resumeOf());
    item->setToolTip(1, why);
    return item;
}

QString summary(const io::CompileReport& report)
{
    std::size_t compiles = 0, failed = 0, breaks = 0, recompiles = 0;
    for (const io::RankReport& r : report.ranks) {
        for (const io::CompileEntry& c : r.compiles)
            compiles += c.unknown() ? 0 : 1;
        failed += r.countStatus(io::CompileStatus::Failed);
        breaks += r.graphBreakCount();
        recompiles += r.recompileCount();
    }
    QString s = QObject::tr("%1 log(s), %2 compile(s): %3 failed, %4 graph break(s), %5 recompile(s)")
                    .arg(report.ranks.size()).arg(compiles).arg(failed).arg(breaks).arg(recompiles);
    if (report.ranks.size() > 1 && report.groups.byCompileIds.size() > 1)
        s += QObject::tr("; ranks diverge in compile ids");
    return s;
}

}  // namespace

CompileReportPanel::CompileReportPanel(QWidget* parent)
    : QWidget(parent), m_message(new QLabel(this)), m_tree(new QTreeWidget(this)), m_details(new QTextBrowser(this))
{
    m_message->setObjectName(QStringLiteral("reportMessage"));
    m_message->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("reportTree"));
    m_tree->setHeaderLabels({tr("Compile"), tr("Function"), tr("Status"), tr("Breaks"), tr("Recompile"), tr("Time")});
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    m_tree->header()->setStretchLastSection(false);
    m_details->setObjectName(QStringLiteral("reportDetails"));
    m_details->setOpenLinks(false);  // every link is ours to route (graphs, output code, back)
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tree);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { showCompile(item); });
    connect(m_details, &QTextBrowser::anchorClicked, this, &CompileReportPanel::onLink);
    m_message->setText(tr("Open a TORCH_TRACE log (or a folder of them) to see its compile report."));
}

QString CompileReportPanel::messageText() const { return m_message->text(); }

void CompileReportPanel::setPath(const QString& path)
{
    m_path = path;
    m_busy = true;
    m_message->setText(tr("Building the compile report of %1 …").arg(path));
    const std::string file = path.toStdString();
    // A newer path supersedes this request in the job tracker: its report never arrives.
    m_jobs->run(this, QStringLiteral("report"), [file](const JobContext&) {
        ReportJob job;
        try {
            job.report = std::make_shared<const io::CompileReport>(io::buildCompileReport(file));
        } catch (const std::exception& e) {
            job.error = tr("No compile report: %1").arg(QString::fromUtf8(e.what()));
        }
        return job;
    }, [this](const ReportJob& job) {
        m_busy = false;
        if (job.report) {
            showReport(job.report);
        } else {
            m_report.reset();
            m_tree->clear();
            m_details->clear();
            m_message->setText(job.error);
        }
        Q_EMIT reportReady();
    });
}

void CompileReportPanel::showReport(std::shared_ptr<const io::CompileReport> report)
{
    m_report = std::move(report);
    m_tree->clear();
    m_details->clear();
    m_message->setText(summary(*m_report));
    for (std::size_t r = 0; r < m_report->ranks.size(); ++r) {
        const io::RankReport& rank = m_report->ranks[r];
        auto* top = new QTreeWidgetItem(QStringList{rankTitle(rank)});
        top->setToolTip(0, QString::fromStdString(rank.path));
        top->setFirstColumnSpanned(false);
        for (std::size_t c = 0; c < rank.compiles.size(); ++c)
            top->addChild(compileItem(rank.compiles[c], static_cast<int>(r), static_cast<int>(c)));
        m_tree->addTopLevelItem(top);
    }
    m_tree->expandAll();
    for (int c = 0; c < m_tree->columnCount(); ++c)
        m_tree->resizeColumnToContents(c);
    // Open on the first compile that needs attention (failed, broke, recompiled), else the first one.
    QTreeWidgetItem* pick = nullptr;
    for (QTreeWidgetItemIterator it(m_tree); *it && !pick; ++it)
        if (!(*it)->text(2).isEmpty() && ((*it)->text(2) != QStringLiteral("ok") || !(*it)->text(3).isEmpty()))
            pick = *it;
    if (!pick && m_tree->topLevelItemCount() > 0 && m_tree->topLevelItem(0)->childCount() > 0)
        pick = m_tree->topLevelItem(0)->child(0);
    if (pick)
        m_tree->setCurrentItem(pick);
}

void CompileReportPanel::showCompile(QTreeWidgetItem* item)
{
    if (!m_report || !item || !item->data(0, kRankRole).isValid()) {
        m_details->clear();
        return;
    }
    const int rank = item->data(0, kRankRole).toInt(), compile = item->data(0, kCompileRole).toInt();
    const io::CompileEntry& c = m_report->ranks.at(static_cast<std::size_t>(rank)).compiles.at(static_cast<std::size_t>(compile));
    m_details->setHtml(compileDetailsHtml(c, rank, compile));
}

bool CompileReportPanel::selectCompile(const QString& compileId)
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if ((*it)->data(0, kRankRole).isValid() && (*it)->text(0) == compileId) {
            m_tree->setCurrentItem(*it);
            return true;
        }
    return false;
}

void CompileReportPanel::onLink(const QUrl& url)
{
    const QString scheme = url.scheme();
    if (scheme == QStringLiteral("fxray-graph")) {
        Q_EMIT graphActivated(QUrl::fromPercentEncoding(url.path(QUrl::FullyEncoded).toLatin1()));
        return;
    }
    const QStringList parts = url.path().split(QLatin1Char('/'));
    if (!m_report || parts.size() < 2)
        return;
    const std::size_t rank = parts[0].toULong(), compile = parts[1].toULong();
    if (rank >= m_report->ranks.size() || compile >= m_report->ranks[rank].compiles.size())
        return;
    const io::CompileEntry& c = m_report->ranks[rank].compiles[compile];
    if (scheme == QStringLiteral("fxray-code") && parts.size() == 3 && parts[2].toULong() < c.artifacts.size())
        m_details->setHtml(outputCodeHtml(c, int(rank), int(compile), parts[2].toInt()));
    else if (scheme == QStringLiteral("fxray-back"))
        m_details->setHtml(compileDetailsHtml(c, int(rank), int(compile)));
}

}  // namespace fxray::views
