#pragma once
// The differences of a graph diff as a table: one row per changed / added / removed op, input or output (and one
// per graph-level note), with columns status (~ + - !), node (A's name, "A / B" when the match renamed it) and what
// changed. Rows carry the node indexes in A and B so that a view can select those nodes.
#include "diff/graph_diff.h"
#include "graph/graph.h"

#include <QAbstractTableModel>

#include <vector>

namespace fxray::views {

class DiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StatusColumn, NodeColumn, ChangeColumn, ColumnCount };
    enum class RowKind { Op, Input, Output, Note };
    enum Role {
        NodeARole = Qt::UserRole + 1,  // node index in A (int), -1 when absent there (added) or for notes
        NodeBRole,                     // node index in B (int), -1 when absent there (removed) or for notes
        StatusRole,                    // diff::Status as int
        RowKindRole,                   // RowKind as int
        CodeNameRole,                  // the node's name in the unified code diff (B is renamed to A's names), QString
    };

    struct Row {
        RowKind kind = RowKind::Op;
        diff::Status status = diff::Status::Changed;
        int a = -1, b = -1;
        QString node;      // display name
        QString codeName;  // name in the unified code diff; empty for outputs without a node and notes
        QString what;
    };

    explicit DiffModel(QObject* parent = nullptr);

    // Replaces the rows with the differences of `r` (a diff of `a` against `b`).
    void setDiff(const graph::Graph& a, const graph::Graph& b, const diff::DiffResult& r);
    void clear();
    // The rows setDiff would show (plain function: usable off the GUI thread).
    static std::vector<Row> rowsFor(const graph::Graph& a, const graph::Graph& b, const diff::DiffResult& r);
    void setRows(std::vector<Row> rows);

    const Row* row(int r) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
};

}  // namespace fxray::views
