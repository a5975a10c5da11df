#include "views/models/replay_results_model.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace fxray::views {

namespace {

using replay::NodeStatus;

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString number(double v, int decimals) { return QString::number(v, 'f', decimals); }

QColor statusColor(const replay::NodeResult& n)
{
    switch (n.status) {
    case NodeStatus::Passed: return n.nanOrigin ? QColor(0xb7, 0x95, 0x0b) : QColor(0x1e, 0x84, 0x49);
    case NodeStatus::Mismatch: return QColor(0xd3, 0x54, 0x00);
    case NodeStatus::Error: return QColor(0xc0, 0x39, 0x2b);
    case NodeStatus::Skipped: return QColor(0x7f, 0x8c, 0x8d);
    case NodeStatus::Unsupported: return QColor(0x8e, 0x44, 0xad);
    case NodeStatus::NotRun: return QColor(0xbd, 0xc3, 0xc7);
    }
    return {};
}

QString firstLine(const QString& s)
{
    const qsizetype nl = s.indexOf(QLatin1Char('\n'));
    return nl < 0 ? s : s.left(nl) + QStringLiteral(" …");
}

}  // namespace

ReplayResultsModel::ReplayResultsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ReplayResultsModel::setReport(replay::ReplayReport report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

void ReplayResultsModel::replaceReport(replay::ReplayReport report)
{
    if (report.nodes.empty() || report.nodes.size() != m_report.nodes.size()) {
        setReport(std::move(report));
        return;
    }
    m_report = std::move(report);
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ReplayResultsModel::clear()
{
    setReport({});
}

void ReplayResultsModel::updateNodes(std::vector<std::pair<std::size_t, replay::NodeResult>> results)
{
    std::vector<int> rows;
    rows.reserve(results.size());
    for (auto& [index, result] : results) {
        if (index >= m_report.nodes.size())
            continue;
        m_report.nodes[index] = std::move(result);
        rows.push_back(static_cast<int>(index));
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    // One dataChanged per run of consecutive rows: the worker sends nodes in order, so usually one in all.
    for (std::size_t k = 0; k < rows.size();) {
        std::size_t end = k + 1;
        while (end < rows.size() && rows[end] == rows[end - 1] + 1)
            ++end;
        Q_EMIT dataChanged(index(rows[k], 0), index(rows[end - 1], ColumnCount - 1));
        k = end;
    }
}

const replay::NodeResult* ReplayResultsModel::node(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_report.nodes.size() ? &m_report.nodes[static_cast<std::size_t>(row)]
                                                                             : nullptr;
}

QString ReplayResultsModel::detailsText(const replay::NodeResult& n)
{
    QStringList parts;
    for (const replay::Mismatch& m : n.mismatches) {
        QString kind = qs(std::string(replay::mismatchKindName(m.kind)));
        if (m.output > 0)
            kind += QStringLiteral("[%1]").arg(m.output);
        parts << QStringLiteral("%1: expected %2 actual %3").arg(kind, qs(m.expected), qs(m.actual));
    }
    if (!n.error.empty())
        parts << qs(n.error);
    if (n.nanOrigin)
        parts << QStringLiteral("NaN/Inf originates here");
    if (n.nonFiniteConstant)
        parts << QStringLiteral("NaN/Inf from a constant or fill (intended)");
    return parts.join(QStringLiteral("; "));
}

QString ReplayResultsModel::outputText(const replay::NodeResult& n)
{
    QStringList parts;
    for (const replay::OutputStats& s : n.outputs)
        parts << qs(s.meta);
    return parts.join(QStringLiteral(", "));
}

QString ReplayResultsModel::detailsWithCudaGraph(const replay::NodeResult& n) const
{
    QString text = detailsText(n);
    if (!m_report.cudaGraph)
        return text;
    for (const replay::CudaGraphFinding* f : m_report.cudaGraph->findingsAt(n.name))
        text += (text.isEmpty() ? QString() : QStringLiteral("; ")) + QStringLiteral("CUDA graph: ") + qs(f->message);
    return text;
}

bool ReplayResultsModel::isProblem(const replay::NodeResult& n)
{
    return n.nanOrigin || (n.status != NodeStatus::Passed && n.status != NodeStatus::NotRun);
}

int ReplayResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_report.nodes.size());
}

int ReplayResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayResultsModel::data(const QModelIndex& index, int role) const
{
    const replay::NodeResult* n = index.isValid() ? node(index.row()) : nullptr;
    if (!n)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NodeColumn: return qs(n->name);
        case OpColumn: return qs(n->target);
        case StatusColumn: {
            QString s = qs(std::string(replay::nodeStatusName(n->status)));
            if (n->nanOrigin)
                s += QStringLiteral(" · NaN");
            return s;
        }
        case DetailsColumn: return firstLine(detailsWithCudaGraph(*n));
        case TimeColumn: return n->status == NodeStatus::NotRun ? QString() : number(n->timeUs, 1);
        case OutputColumn: return outputText(*n);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (column == DetailsColumn)
            return detailsWithCudaGraph(*n);
        if (column == OutputColumn) {
            QStringList lines;
            for (const replay::OutputStats& s : n->outputs)
                lines << (s.hasValues ? QStringLiteral("%1  min %2 max %3 mean %4 nan %5 inf %6")
                                            .arg(qs(s.meta), number(s.min, 4), number(s.max, 4), number(s.mean, 4))
                                            .arg(s.nanCount)
                                            .arg(s.infCount)
                                      : qs(s.meta));
            return lines.join(QLatin1Char('\n'));
        }
        return {};
    case Qt::DecorationRole:
        return column == StatusColumn ? QVariant(statusColor(*n)) : QVariant();
    case Qt::ForegroundRole:
        if (column == StatusColumn || (column == DetailsColumn && isProblem(*n)))
            return QBrush(statusColor(*n));
        return {};
    case Qt::TextAlignmentRole:
        return column == TimeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case NodeIndexRole: return index.row();
    case StatusRole: return static_cast<int>(n->status);
    case ProblemRole: return isProblem(*n);
    default: return {};
    }
}

QVariant ReplayResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NodeColumn: return tr("Node");
    case OpColumn: return tr("Op");
    case StatusColumn: return tr("Status");
    case DetailsColumn: return tr("Details");
    case TimeColumn: return tr("Time (µs)");
    case OutputColumn: return tr("Output");
    default: return {};
    }
}

}  // namespace fxray::views
