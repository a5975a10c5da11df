// DiffModel and DiffPanel over the bundled samples: the model's consistency (QAbstractItemModelTester) for a real
// diff, no rows for a graph against itself, the panel's asynchronous diff (QSignalSpy), coloured +/- lines, rows
// selecting their node's line, a newer request winning over an older one, failures shown without crashing. Also the
// main window's diff tab.
#include "diff/graph_diff.h"
#include "io/graph_source.h"
#include "views/main_window.h"
#include "views/models/diff_model.h"
#include "views/panels/diff_panel.h"

#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QtTest/QtTest>

using fxray::views::DiffModel;
using fxray::views::DiffPanel;

namespace {

const QString kMlpH100 = QStringLiteral(FXRAY_SAMPLES_DIR "/h100/dumps/mlp/mlp_forward_0");
const QString kMlpCpu = QStringLiteral(FXRAY_SAMPLES_DIR "/cpu/dumps/mlp/mlp_forward_0");
constexpr int kTimeoutMs = 60000;

bool waitForDiff(DiffPanel& panel)
{
    if (!panel.isBusy())
        return true;
    QSignalSpy ready(&panel, &DiffPanel::diffReady);
    QSignalSpy failed(&panel, &DiffPanel::diffFailed);
    return ready.wait(kTimeoutMs) || failed.count() > 0;
}

int findRow(const DiffModel& model, const QString& node)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, DiffModel::NodeColumn).data().toString() == node)
            return r;
    return -1;
}

}  // namespace

class TestDiffPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelOfRealDiff()
    {
        const auto a = fxray::io::loadAddress(kMlpH100.toStdString());
        const auto b = fxray::io::loadAddress(kMlpCpu.toStdString());
        const auto r = fxray::diff::diffGraphs(a.graph, b.graph);

        DiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiff(a.graph, b.graph, r);
        QCOMPARE(model.rowCount(), r.differenceCount());
        QCOMPARE(model.columnCount(), int(DiffModel::ColumnCount));
        QVERIFY(model.rowCount() > 0);

        // Every row has a status mark and says what changed; op rows point at a node of A and of B.
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString mark = model.index(row, DiffModel::StatusColumn).data().toString();
            QVERIFY2(QStringList({QStringLiteral("~"), QStringLiteral("+"), QStringLiteral("-"), QStringLiteral("!")})
                         .contains(mark),
                     qPrintable(mark));
            QVERIFY(!model.index(row, DiffModel::ChangeColumn).data().toString().isEmpty());
        }
        const int relu = findRow(model, QStringLiteral("relu"));
        QVERIFY(relu >= 0);
        const QModelIndex reluIndex = model.index(relu, DiffModel::NodeColumn);
        QCOMPARE(reluIndex.data(DiffModel::StatusRole).toInt(), int(fxray::diff::Status::Changed));
        const int ia = reluIndex.data(DiffModel::NodeARole).toInt();
        const int ib = reluIndex.data(DiffModel::NodeBRole).toInt();
        QVERIFY(ia >= 0 && ib >= 0);
        QCOMPARE(QString::fromStdString(a.graph.nodes[std::size_t(ia)].name), QStringLiteral("relu"));
        QCOMPARE(QString::fromStdString(b.graph.nodes[std::size_t(ib)].name), QStringLiteral("relu"));
        QVERIFY(model.index(relu, DiffModel::ChangeColumn).data().toString().contains(QStringLiteral("device")));

        // The added SymInt input: absent in A, present in B, found in the code diff under its aligned name.
        bool sawAddedInput = false;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex i = model.index(row, 0);
            if (i.data(DiffModel::RowKindRole).toInt() == int(DiffModel::RowKind::Input) &&
                i.data(DiffModel::StatusRole).toInt() == int(fxray::diff::Status::Added)) {
                sawAddedInput = true;
                QCOMPARE(i.data(DiffModel::NodeARole).toInt(), -1);
                QVERIFY(i.data(DiffModel::NodeBRole).toInt() >= 0);
                QCOMPARE(i.data(DiffModel::CodeNameRole).toString(), QStringLiteral("primals_3_new"));
                QCOMPARE(model.index(row, DiffModel::NodeColumn).data().toString(),
                         QString::fromUtf8("input \u2014 / primals_3"));
            }
        }
        QVERIFY(sawAddedInput);

        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void graphAgainstItselfHasNoRows()
    {
        const auto a = fxray::io::loadAddress(kMlpH100.toStdString());
        const auto r = fxray::diff::diffGraphs(a.graph, a.graph);
        DiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiff(a.graph, a.graph, r);
        QCOMPARE(model.rowCount(), 0);
    }

    void panelDiffsAsynchronously()
    {
        DiffPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy started(&panel, &DiffPanel::diffStarted);
        QSignalSpy ready(&panel, &DiffPanel::diffReady);
        QSignalSpy failed(&panel, &DiffPanel::diffFailed);
        panel.diffAddresses(kMlpH100, kMlpCpu);
        QCOMPARE(started.count(), 1);
        QVERIFY(panel.isBusy());
        QCOMPARE(ready.count(), 0);  // returned at once: the work runs on a worker
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(failed.count(), 0);
        QVERIFY(!panel.isBusy());
        QVERIFY(panel.errorText().isEmpty());
        QCOMPARE(panel.differenceCount(), 13);
        QCOMPARE(panel.model()->rowCount(), 13);
        QVERIFY2(panel.headerText().contains(QStringLiteral("13 difference(s)")), qPrintable(panel.headerText()));
        QVERIFY(panel.headerText().contains(kMlpH100));
        QVERIFY(panel.headerText().contains(kMlpCpu));

        const QStringList lines = panel.codeText().split(QLatin1Char('\n'));
        bool plus = false, minus = false;
        for (const QString& line : lines) {
            plus = plus || (line.startsWith(QLatin1Char('+')) && !line.startsWith(QLatin1String("+++")));
            minus = minus || (line.startsWith(QLatin1Char('-')) && !line.startsWith(QLatin1String("---")));
        }
        QVERIFY(plus);
        QVERIFY(minus);

        // Added lines are drawn green, removed red (the highlighter's formats on the document's blocks).
        const QTextDocument* doc = panel.codeView()->document();
        for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
            const QString text = block.text();
            if (text.startsWith(QLatin1String("+ ")) || text.startsWith(QLatin1String("- "))) {
                const auto formats = block.layout()->formats();
                QVERIFY(!formats.isEmpty());
                const QColor bg = formats.front().format.background().color();
                if (text.startsWith(QLatin1Char('+')))
                    QVERIFY2(bg.green() > bg.red(), qPrintable(text));
                else
                    QVERIFY2(bg.red() > bg.green(), qPrintable(text));
            }
        }
    }

    void selectingRowMovesToNodeLine()
    {
        DiffPanel panel;
        panel.resize(900, 700);
        QSignalSpy selected(&panel, &DiffPanel::differenceSelected);
        panel.diffAddresses(kMlpH100, kMlpCpu);
        QVERIFY(waitForDiff(panel));
        QVERIFY(panel.errorText().isEmpty());

        const int addmm1 = findRow(*panel.model(), QStringLiteral("addmm_1"));
        QVERIFY(addmm1 >= 0);
        const int line = panel.lineForRow(addmm1);
        QVERIFY(line >= 0);
        const QString lineText = panel.codeText().split(QLatin1Char('\n')).at(line);
        QVERIFY2(lineText.contains(QStringLiteral("addmm_1:")), qPrintable(lineText));
        QVERIFY(lineText.startsWith(QLatin1Char('-')) || lineText.startsWith(QLatin1Char('+')));

        QCOMPARE(panel.table()->currentIndex().row(), 0);  // the first difference is selected when ready
        QCOMPARE(selected.count(), 1);
        selected.clear();
        panel.selectRow(addmm1);
        QCOMPARE(panel.codeView()->textCursor().blockNumber(), line);
        QVERIFY(!panel.codeView()->extraSelections().isEmpty());  // the - and + lines are highlighted
        QCOMPARE(selected.count(), 1);
        QVERIFY(selected.front().at(0).toInt() >= 0);
        QVERIFY(selected.front().at(1).toInt() >= 0);

        // Only the lines defining the node are highlighted, not lines that use it (`addmm: ... t);  ... t = None`).
        const int t = findRow(*panel.model(), QStringLiteral("t"));
        QVERIFY(t >= 0);
        panel.selectRow(t);
        const auto highlighted = panel.codeView()->extraSelections();
        QCOMPARE(highlighted.size(), 2);  // the - and the + line
        for (const auto& s : highlighted)
            QVERIFY2(s.cursor.block().text().mid(1).trimmed().startsWith(QStringLiteral("t:")),
                     qPrintable(s.cursor.block().text()));

        // An input row goes to the signature line; an output row to the `return` line.
        for (int row = 0; row < panel.model()->rowCount(); ++row) {
            const auto kind = DiffModel::RowKind(panel.model()->index(row, 0).data(DiffModel::RowKindRole).toInt());
            const int l = panel.lineForRow(row);
            QVERIFY2(l >= 0, qPrintable(panel.model()->index(row, DiffModel::NodeColumn).data().toString()));
            const QString text = panel.codeText().split(QLatin1Char('\n')).at(l);
            if (kind == DiffModel::RowKind::Input)
                QVERIFY2(text.contains(QStringLiteral("def forward")), qPrintable(text));
            else if (kind == DiffModel::RowKind::Output)
                QVERIFY2(text.contains(QStringLiteral("return")), qPrintable(text));
            panel.selectRow(row);
            QCOMPARE(panel.codeView()->textCursor().blockNumber(), l);
        }
    }

    void sameGraphShowsEqual()
    {
        DiffPanel panel;
        panel.diffAddresses(kMlpH100, kMlpH100);
        QVERIFY(waitForDiff(panel));
        QCOMPARE(panel.differenceCount(), 0);
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(panel.headerText().contains(QStringLiteral("equal")));
    }

    void newerRequestWins()
    {
        DiffPanel panel;
        QSignalSpy ready(&panel, &DiffPanel::diffReady);
        QSignalSpy failed(&panel, &DiffPanel::diffFailed);
        panel.diffAddresses(kMlpH100, QStringLiteral("/nonexistent/graph"));  // would fail
        panel.diffAddresses(kMlpH100, kMlpCpu);
        QCOMPARE(panel.generation(), quint64(2));
        QVERIFY(ready.wait(kTimeoutMs));
        QTest::qWait(200);  // let the stale job's result arrive too: it must be dropped
        QCOMPARE(failed.count(), 0);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(panel.differenceCount(), 13);
    }

    void missingAddressShowsError()
    {
        DiffPanel panel;
        QSignalSpy failed(&panel, &DiffPanel::diffFailed);
        panel.diffAddresses(kMlpH100, QStringLiteral("/nonexistent/graph"));
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY(!panel.isBusy());
        QVERIFY(!panel.errorText().isEmpty());
        QCOMPARE(panel.differenceCount(), -1);
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(panel.headerText().contains(QStringLiteral("Could not diff")));
        QVERIFY2(panel.codeText().contains(QStringLiteral("/nonexistent/graph")), qPrintable(panel.codeText()));
        panel.selectRow(0);  // nothing to select: no crash
        QCOMPARE(panel.lineForRow(0), -1);
    }

    void mainWindowOpensDiffTab()
    {
        fxray::views::MainWindow window;
        QTabWidget* tabs = window.centralTabs();
        QCOMPARE(tabs->count(), 1);
        DiffPanel* panel = window.openDiff(kMlpH100, kMlpCpu);
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->currentWidget(), panel);
        QVERIFY(waitForDiff(*panel));
        QCOMPARE(panel->differenceCount(), 13);
        // Closing the diff tab removes it; the graph tab cannot be closed.
        Q_EMIT tabs->tabCloseRequested(1);
        QCOMPARE(tabs->count(), 1);
        Q_EMIT tabs->tabCloseRequested(0);
        QCOMPARE(tabs->count(), 1);
    }
};

QTEST_MAIN(TestDiffPanel)
#include "test_diff_panel.moc"
