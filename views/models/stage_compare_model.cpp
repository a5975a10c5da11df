#include "views/models/stage_compare_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace fxray::views {

StageCompareModel::StageCompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void StageCompareModel::setStages(const std::vector<replay::StageResult>& stages)
{
    beginResetModel();
    m_stages = stages;
    m_firstDivergent = -1;
    endResetModel();
}

void StageCompareModel::setResult(int row, const replay::StageResult& result)
{
    if (row < 0 || row >= rowCount())
        return;
    m_stages[static_cast<std::size_t>(row)] = result;
    // The first divergent stage is the first row (pipeline order) whose verdict says so, as far as known.
    int first = -1;
    for (std::size_t k = 0; k < m_stages.size() && first < 0; ++k)
        if (m_stages[k].verdict() == "diverge")
            first = static_cast<int>(k);
    const int before = m_firstDivergent;
    m_firstDivergent = first;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    if (before != first && before >= 0)
        Q_EMIT dataChanged(index(before, 0), index(before, ColumnCount - 1));
}

void StageCompareModel::setReport(const replay::StageCompareReport& report)
{
    beginResetModel();
    m_stages = report.stages;
    m_firstDivergent = report.firstDivergentStage;
    endResetModel();
}

void StageCompareModel::clear()
{
    setStages({});
}

const replay::StageResult* StageCompareModel::stage(int row) const
{
    return row >= 0 && row < rowCount() ? &m_stages[static_cast<std::size_t>(row)] : nullptr;
}

int StageCompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_stages.size());
}

int StageCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StageCompareModel::data(const QModelIndex& index, int role) const
{
    const replay::StageResult* s = index.isValid() ? stage(index.row()) : nullptr;
    if (!s)
        return {};
    const bool firstDivergent = index.row() == m_firstDivergent;
    const QString verdict = QString::fromStdString(s->verdict());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StageColumn: return QString::fromStdString(s->stage);
        case GraphColumn: return QString::fromStdString(s->record);
        case NodesColumn: return s->nodes;
        case StatusColumn: return QString::fromStdString(s->status);
        case MaxDiffColumn:
            if (!s->replayed() || s->reference || s->compared == 0)
                return QStringLiteral("–");
            return QStringLiteral("%1 (rel %2)").arg(s->maxAbs, 0, 'g', 3).arg(s->maxRel, 0, 'g', 3);
        case VerdictColumn: return firstDivergent ? tr("first divergence") : verdict;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(s->address);
        if (!s->detail.empty())
            tip += QStringLiteral("\n") + QString::fromStdString(s->detail);
        if (!s->divergence.empty())
            tip += QStringLiteral("\n") + QString::fromStdString(s->divergence);
        for (const auto& n : s->notes)
            tip += QStringLiteral("\n") + QString::fromStdString(n);
        return tip;
    }
    case Qt::BackgroundRole:
        if (firstDivergent)
            return QBrush(QColor(0xf4, 0xb6, 0xb6));
        if (verdict == QLatin1String("diverge") || verdict == QLatin1String("failed") || verdict == QLatin1String("unmappable"))
            return QBrush(QColor(0xfb, 0xe3, 0xc8));
        if (verdict == QLatin1String("agree") || verdict == QLatin1String("reference"))
            return QBrush(QColor(0xd9, 0xf2, 0xd9));
        return {};
    case Qt::FontRole:
        if (firstDivergent) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == NodesColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case AddressRole: return QString::fromStdString(s->address);
    case VerdictRole: return verdict;
    case FirstDivergentRole: return firstDivergent;
    }
    return {};
}

QVariant StageCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StageColumn: return tr("Stage");
    case GraphColumn: return tr("Graph");
    case NodesColumn: return tr("Nodes");
    case StatusColumn: return tr("Status");
    case MaxDiffColumn: return tr("Max diff");
    case VerdictColumn: return tr("Verdict");
    }
    return {};
}

}  // namespace fxray::views
