#include "views/panels/compile_report_panel.h"

#include "views/panels/compile_report_html.h"
#include "views/services/job_tracker.h"

#include "base/error.h"
#include "worker/rank_job_check.h"
#include "worker/rank_set.h"

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
constexpr int kDivergenceRole = Qt::UserRole + 3;  // the ranks' divergence page

struct ReportJob {
    std::shared_ptr<const io::CompileReport> report;
    QString error;
};

struct RanksCheckJob {
    std::shared_ptr<const graph::CollectiveCheck> check;
    QString why;  // when there is no check
};

// The collective check of the ranks' graphs under `path` (worker/rank_job_check.h), as the Ranks tab runs it.
RanksCheckJob checkRanks(const std::string& path)
{
    RanksCheckJob job;
    try {
        const io::Discovery d = io::discover(path);
        if (!worker::isRankJob(d)) {
            job.why = CompileReportPanel::tr("the graphs here are not one distributed job (two ranks or more, no graph "
                                             "without a rank): their collectives are not compared");
            return job;
        }
        std::vector<std::vector<io::LoadedGraph>> graphs;
        std::vector<std::vector<const io::LoadedGraph*>> perRank;
        for (const auto& [rank, entries] : worker::entriesByRank(d)) {
            auto& list = graphs.emplace_back();
            for (const io::GraphEntry* e : entries)
                list.push_back(io::loadGraph(*e));
        }
        for (const auto& list : graphs) {
            auto& ptrs = perRank.emplace_back();
            for (const io::LoadedGraph& g : list)
                ptrs.push_back(&g);
        }
        // Nothing runs here: every graph's collectives are compared, none skipped for inputs a replay could not build.
        job.check = std::make_shared<const graph::CollectiveCheck>(worker::checkRankJob(perRank, {}, false).check);
    } catch (const std::exception& e) {
        job.why = CompileReportPanel::tr("the ranks' graphs could not be checked: %1").arg(QString::fromUtf8(e.what()));
    }
    return job;
}

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
    // The ranks' collectives, checked after the report (loading every rank's graphs takes longer).
    m_check.reset();
    m_checkWhy = tr("checking the ranks' collectives …");
    m_jobs->run(this, QStringLiteral("ranks"), [file](const JobContext&) { return checkRanks(file); },
                [this](const RanksCheckJob& job) {
                    m_check = job.check;
                    m_checkWhy = job.why;
                    if (QTreeWidgetItem* item = m_tree->currentItem(); item && item->data(0, kDivergenceRole).isValid())
                        showCompile(item);
                    Q_EMIT ranksChecked();
                });
}

void CompileReportPanel::showReport(std::shared_ptr<const io::CompileReport> report)
{
    m_report = std::move(report);
    m_tree->clear();
    m_details->clear();
    m_message->setText(summary(*m_report));
    if (m_report->ranks.size() > 1) {
        auto* divergence = new QTreeWidgetItem(QStringList{tr("ranks — divergence and collectives")});
        divergence->setData(0, kDivergenceRole, true);
        m_tree->addTopLevelItem(divergence);
    }
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
    for (int i = 0; !pick && i < m_tree->topLevelItemCount(); ++i)  // the divergence page has no children
        if (m_tree->topLevelItem(i)->childCount() > 0)
            pick = m_tree->topLevelItem(i)->child(0);
    if (pick)
        m_tree->setCurrentItem(pick);
}

void CompileReportPanel::showCompile(QTreeWidgetItem* item)
{
    if (m_report && item && item->data(0, kDivergenceRole).isValid()) {
        m_details->setHtml(rankDivergenceHtml(*m_report, m_check.get(), m_checkWhy));
        return;
    }
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

bool CompileReportPanel::selectDivergence()
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        if (m_tree->topLevelItem(i)->data(0, kDivergenceRole).isValid()) {
            m_tree->setCurrentItem(m_tree->topLevelItem(i));
            return true;
        }
    return false;
}

void CompileReportPanel::onLink(const QUrl& url)
{
    const QString scheme = url.scheme();
    if (scheme == QStringLiteral("fxray-ranks")) {
        Q_EMIT ranksRequested(m_path);
        return;
    }
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
