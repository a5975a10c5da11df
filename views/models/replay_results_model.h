#pragma once
// A replay's node results as a table: one row per graph node in program order (row == node index), with columns
// node, op, status, details (mismatches, the error, NaN origin), time and the actual output meta. Rows fill in
// while the replay runs: setReport() starts from a skeleton of not-run rows, updateNodes() replaces the rows the
// worker has sent so far.
#include "replay/api/replay_types.h"

#include <QAbstractTableModel>

#include <utility>
#include <vector>

namespace fxray::views {

class ReplayResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NodeColumn, OpColumn, StatusColumn, DetailsColumn, TimeColumn, OutputColumn, ColumnCount };
    enum Role {
        NodeIndexRole = Qt::UserRole + 1,  // index into the graph's nodes (int)
        StatusRole,                        // replay::NodeStatus as int
        ProblemRole,                       // bool: mismatch, error, skipped, unsupported or NaN origin
    };

    explicit ReplayResultsModel(QObject* parent = nullptr);

    // Replaces every row (a reset).
    void setReport(replay::ReplayReport report);
    // The same for a report of the graph shown (as many nodes): the rows change in place, so a view keeps its
    // selection; a reset otherwise.
    void replaceReport(replay::ReplayReport report);
    void clear();
    // Replaces the rows of these nodes (while a replay runs); indexes past the rows are ignored.
    void updateNodes(std::vector<std::pair<std::size_t, replay::NodeResult>> results);
    const replay::ReplayReport& report() const { return m_report; }
    const replay::NodeResult* node(int row) const;

    // What a row says, usable without a model (tool tips, the summary, the inspector).
    static QString detailsText(const replay::NodeResult& n);
    static QString outputText(const replay::NodeResult& n);
    static bool isProblem(const replay::NodeResult& n);
    // detailsText plus what the CUDA-graph analysis says of this node.
    QString detailsWithCudaGraph(const replay::NodeResult& n) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    replay::ReplayReport m_report;
};

}  // namespace fxray::views
