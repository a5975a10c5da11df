#pragma once
// A distributed replay side by side (the GUI's Ranks tab): one row per graph, labelled without its rank, one column
// per rank. A cell is that rank's replay of that graph: verdict, nodes passed / total and collectives run / called
// ("pass 36/36 c1/1", as `fxray replay DIR` prints), its background the verdict's colour, its tooltip the first
// problem and, where the job stopped, the rank's pending node. Plain data in, no work done here.
#include "replay/api/replay_types.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace fxray::views {

struct RankColumn {
    int rank = 0;
    std::vector<QString> addresses;             // per row: that rank's graph ("" where it has none)
    std::vector<replay::ReplayReport> reports;  // per row, once run (empty before)
    QString pending;                            // where the rank was when the job stopped early
};

class RankResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { AddressRole = Qt::UserRole + 1, VerdictRole };
    explicit RankResultsModel(QObject* parent = nullptr);

    void setRanks(QStringList rows, std::vector<RankColumn> ranks);  // a reset
    void clear();
    const std::vector<RankColumn>& ranks() const { return m_ranks; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "pass 36/36 c1/1"; "not run" for a report with no nodes.
    static QString cellText(const replay::ReplayReport& r);
    // Collectives run / called in a report (waits not counted).
    static std::pair<int, int> collectivesRun(const replay::ReplayReport& r);

private:
    const replay::ReplayReport* report(const QModelIndex& index) const;

    QStringList m_rows;
    std::vector<RankColumn> m_ranks;
};

}  // namespace fxray::views
