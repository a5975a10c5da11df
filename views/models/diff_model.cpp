#include "views/models/diff_model.h"

#include "diff/diff_report.h"

#include <QBrush>
#include <QColor>

#include <string>
#include <unordered_set>

namespace fxray::views {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

const graph::Node* nodeAt(const graph::Graph& g, int i)
{
    return i >= 0 && static_cast<std::size_t>(i) < g.nodes.size() ? &g.nodes[static_cast<std::size_t>(i)] : nullptr;
}

QString joinChanges(const std::vector<diff::Change>& changes)
{
    QStringList parts;
    for (const diff::Change& c : changes)
        parts << qs(c.str());
    return parts.join(QStringLiteral("; "));
}

// "name" when both sides call it that, else "nameA / nameB", with "—" for the side it is missing from.
QString pairName(const graph::Graph& a, const graph::Graph& b, int i, int j)
{
    const graph::Node* na = nodeAt(a, i);
    const graph::Node* nb = nodeAt(b, j);
    if (na && nb && na->name == nb->name)
        return qs(na->name);
    if (!na && !nb)
        return {};
    const QString none = QStringLiteral("—");
    return (na ? qs(na->name) : none) + QStringLiteral(" / ") + (nb ? qs(nb->name) : none);
}

}  // namespace

DiffModel::DiffModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

std::vector<DiffModel::Row> DiffModel::rowsFor(const graph::Graph& a, const graph::Graph& b, const diff::DiffResult& r)
{
    // The unified code diff renames B's matched nodes to A's names; an added node keeps its own name unless a
    // matched node took it, then it gets "_new" (diff::alignToA's rule), so that rows can find their line.
    std::unordered_set<std::string> taken;
    for (std::size_t j = 0; j < r.bToA.size() && j < b.nodes.size(); ++j)
        if (const graph::Node* na = nodeAt(a, r.bToA[j]))
            taken.insert(na->name);
    std::vector<QString> addedName(b.nodes.size());
    for (std::size_t j = 0; j < b.nodes.size() && j < r.bToA.size(); ++j) {
        if (r.bToA[j] >= 0 || b.nodes[j].kind == graph::NodeKind::Output)
            continue;
        std::string name = b.nodes[j].name;
        for (int suffix = 1; !taken.insert(name).second; ++suffix)
            name = b.nodes[j].name + "_new" + (suffix > 1 ? std::to_string(suffix) : "");
        addedName[j] = qs(name);
    }
    const auto codeName = [&](int i, int j) -> QString {
        if (const graph::Node* na = nodeAt(a, i))
            return qs(na->name);
        if (j >= 0 && static_cast<std::size_t>(j) < addedName.size())
            return addedName[static_cast<std::size_t>(j)];
        return {};
    };

    std::vector<Row> rows;
    for (const diff::NodeDiff& d : r.nodes) {
        if (!diff::isOpDifference(d, a, b))
            continue;
        Row row;
        row.kind = RowKind::Op;
        row.status = d.status;
        row.a = d.a;
        row.b = d.b;
        row.node = pairName(a, b, d.a, d.b);
        row.codeName = codeName(d.a, d.b);
        if (d.status == diff::Status::Added)
            row.what = QStringLiteral("added: ") + qs(diff::describeNode(b, d.b));
        else if (d.status == diff::Status::Removed)
            row.what = QStringLiteral("removed: ") + qs(diff::describeNode(a, d.a));
        else
            row.what = joinChanges(d.changes);
        rows.push_back(std::move(row));
    }
    const auto ports = [&](const std::vector<diff::PortDiff>& list, RowKind kind) {
        const QString what = kind == RowKind::Input ? QStringLiteral("input %1") : QStringLiteral("output %1");
        for (const diff::PortDiff& p : list) {
            if (p.status == diff::Status::Same)
                continue;
            Row row;
            row.kind = kind;
            row.status = p.status;
            row.a = p.a;
            row.b = p.b;
            row.node = pairName(a, b, p.a, p.b);
            // Outputs are found on the `return` line, not by name.
            row.codeName = kind == RowKind::Input ? codeName(p.a, p.b) : QString();
            const int position = p.status == diff::Status::Removed ? p.aPosition : p.bPosition;
            QString text = what.arg(position);
            if (p.status == diff::Status::Removed)
                text += QStringLiteral(" of A removed");
            else if (p.status == diff::Status::Added)
                text += QStringLiteral(" added");
            const QString changes = joinChanges(p.changes);
            if (!changes.isEmpty())
                text += QStringLiteral(": ") + changes;
            row.what = text;
            rows.push_back(std::move(row));
        }
    };
    ports(r.inputs, RowKind::Input);
    ports(r.outputs, RowKind::Output);
    for (const std::string& note : r.notes) {
        Row row;
        row.kind = RowKind::Note;
        row.status = diff::Status::Changed;
        row.what = qs(note);
        rows.push_back(std::move(row));
    }
    return rows;
}

void DiffModel::setDiff(const graph::Graph& a, const graph::Graph& b, const diff::DiffResult& r)
{
    setRows(rowsFor(a, b, r));
}

void DiffModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void DiffModel::clear()
{
    setRows({});
}

const DiffModel::Row* DiffModel::row(int r) const
{
    return r >= 0 && static_cast<std::size_t>(r) < m_rows.size() ? &m_rows[static_cast<std::size_t>(r)] : nullptr;
}

int DiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn:
            if (r.kind == RowKind::Note)
                return QStringLiteral("!");
            switch (r.status) {
            case diff::Status::Added: return QStringLiteral("+");
            case diff::Status::Removed: return QStringLiteral("-");
            case diff::Status::Changed: return QStringLiteral("~");
            case diff::Status::Same: return QStringLiteral(" ");
            }
            return {};
        case NodeColumn:
            if (r.kind == RowKind::Input)
                return QStringLiteral("input ") + r.node;
            if (r.kind == RowKind::Output)
                return QStringLiteral("output ") + r.node;
            return r.node;
        case ChangeColumn: return r.what;
        }
        return {};
    case Qt::ToolTipRole:
        return index.column() == ChangeColumn ? r.what : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == StatusColumn ? QVariant(Qt::AlignCenter) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() != StatusColumn)
            return {};
        switch (r.status) {
        case diff::Status::Added: return QBrush(QColor(0x1e, 0x84, 0x49));
        case diff::Status::Removed: return QBrush(QColor(0xc0, 0x39, 0x2b));
        case diff::Status::Changed: return QBrush(QColor(0xd3, 0x54, 0x00));
        case diff::Status::Same: return {};
        }
        return {};
    case NodeARole: return r.a;
    case NodeBRole: return r.b;
    case StatusRole: return static_cast<int>(r.status);
    case RowKindRole: return static_cast<int>(r.kind);
    case CodeNameRole: return r.codeName;
    default: return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StatusColumn: return QString();
    case NodeColumn: return tr("Node (A / B)");
    case ChangeColumn: return tr("What changed");
    }
    return {};
}

}  // namespace fxray::views
