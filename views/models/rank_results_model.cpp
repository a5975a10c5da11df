#include "views/models/rank_results_model.h"

#include "worker/dtensor_reference.h"

#include "worker/distributed_job.h"

#include <QBrush>
#include <QColor>

namespace fxray::views {

RankResultsModel::RankResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankResultsModel::setRanks(QStringList rows, std::vector<RankColumn> ranks)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_ranks = std::move(ranks);
    endResetModel();
}

void RankResultsModel::clear() { setRanks({}, {}); }

int RankResultsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(m_rows.size()); }

int RankResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_ranks.size());
}

const replay::ReplayReport* RankResultsModel::report(const QModelIndex& index) const
{
    if (!index.isValid() || index.column() < 1)
        return nullptr;
    const RankColumn& c = m_ranks[static_cast<std::size_t>(index.column() - 1)];
    const auto row = static_cast<std::size_t>(index.row());
    return row < c.reports.size() ? &c.reports[row] : nullptr;
}

std::pair<int, int> RankResultsModel::collectivesRun(const replay::ReplayReport& r)
{
    int run = 0, total = 0;
    for (const auto& n : r.nodes) {
        if (!worker::isCollectiveTarget(n.target) || n.target.find(".wait_tensor") != std::string::npos)
            continue;
        ++total;
        run += n.status == replay::NodeStatus::Passed ? 1 : 0;
    }
    return {run, total};
}

QString RankResultsModel::cellText(const replay::ReplayReport& r)
{
    if (r.fatal.starts_with("skipped on every rank"))  // worker/rank_job_check.h; the tooltip says why
        return tr("skipped");
    if (!r.fatal.empty() && r.nodes.empty())
        return tr("not run");
    const auto [run, total] = collectivesRun(r);
    QString s = QStringLiteral("%1 %2/%3").arg(QString::fromStdString(r.verdict())).arg(r.count(replay::NodeStatus::Passed)).arg(r.nodes.size());
    if (total)
        s += QStringLiteral(" c%1/%2").arg(run).arg(total);
    // Against the single-rank reference (worker/dtensor_reference.h): "=ref" / "!=ref", as the CLI prints it.
    if (const std::string mark = worker::referenceMark(r); !mark.empty())
        s += QLatin1Char(' ') + QString::fromStdString(mark);
    return s;
}

QVariant RankResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    if (index.column() == 0)
        return role == Qt::DisplayRole || role == Qt::ToolTipRole ? QVariant(m_rows[index.row()]) : QVariant();
    const RankColumn& c = m_ranks[static_cast<std::size_t>(index.column() - 1)];
    const auto row = static_cast<std::size_t>(index.row());
    const QString address = row < c.addresses.size() ? c.addresses[row] : QString();
    const replay::ReplayReport* r = report(index);
    switch (role) {
    case Qt::DisplayRole:
        return r ? cellText(*r) : address.isEmpty() ? tr("—") : tr("queued");
    case AddressRole: return address;
    case VerdictRole: return r ? QString::fromStdString(r->verdict()) : QString();
    case Qt::ToolTipRole: {
        QString tip = address;
        if (r && !r->fatal.empty())
            tip += QStringLiteral("\n") + QString::fromStdString(r->fatal).section(QLatin1Char('\n'), 0, 2);
        if (r && !r->firstNanNode.empty())
            tip += tr("\nNaN/Inf from %1").arg(QString::fromStdString(r->firstNanNode));
        if (r && r->fatal.empty())
            for (const auto& n : r->nodes)
                if (n.status == replay::NodeStatus::Error || n.status == replay::NodeStatus::Mismatch) {
                    tip += tr("\nfirst problem: %1 (%2) %3")
                               .arg(QString::fromStdString(n.name), QString::fromStdString(n.target),
                                    QString::fromStdString(n.error.empty() ? std::string(replay::nodeStatusName(n.status)) : n.error.substr(0, 200)));
                    break;
                }
        if (!c.pending.isEmpty())
            tip += tr("\nrank %1 when the job stopped: %2").arg(c.rank).arg(c.pending);
        return tip;
    }
    case Qt::BackgroundRole: {
        if (!r)
            return {};
        const std::string v = r->verdict();
        if (v == "pass")
            return QBrush(QColor(0xd7, 0xf0, 0xd0));
        if (v == "mismatch" || v == "nan")
            return QBrush(QColor(0xfb, 0xe0, 0xb8));
        if (v == "unsupported")
            return QBrush(QColor(0xe8, 0xe8, 0xe8));
        return QBrush(QColor(0xf6, 0xc8, 0xc8));
    }
    default: return {};
    }
}

QVariant RankResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("graph");
    if (section - 1 < static_cast<int>(m_ranks.size()))
        return tr("rank %1").arg(m_ranks[static_cast<std::size_t>(section - 1)].rank);
    return {};
}

}  // namespace fxray::views
