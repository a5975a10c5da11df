#pragma once
// The stages of one compile as a table (the Stages tab): stage, graph, nodes, status, max diff, verdict. Rows come
// before the replays (setStages) and fill in as each stage's result arrives (setResult); the first divergent stage
// is highlighted, the reference stage marked.
#include "replay/api/stage_compare.h"

#include <QAbstractTableModel>

#include <vector>

namespace fxray::views {

class StageCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StageColumn, GraphColumn, NodesColumn, StatusColumn, MaxDiffColumn, VerdictColumn, ColumnCount };
    enum Role {
        AddressRole = Qt::UserRole + 1,  // the stage's graph address (QString)
        VerdictRole,                     // StageResult::verdict() (QString)
        FirstDivergentRole,              // bool: this row is the first divergent stage
    };

    explicit StageCompareModel(QObject* parent = nullptr);

    // Rows for the stages about to run (status "not run"); clears what was there.
    void setStages(const std::vector<replay::StageResult>& stages);
    void setResult(int row, const replay::StageResult& result);
    // The whole report: every row, and which one is the first divergent stage.
    void setReport(const replay::StageCompareReport& report);
    void clear();

    int firstDivergentRow() const { return m_firstDivergent; }
    const replay::StageResult* stage(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<replay::StageResult> m_stages;
    int m_firstDivergent = -1;
};

}  // namespace fxray::views
