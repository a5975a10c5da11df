// Open-to-first-paint of the GUI and how long the GUI thread is ever blocked meanwhile, against Graphviz laying
// out every node of the same graph (what a static drawing of the whole graph costs), in one run.
//   fxray_bench_gui_open PATH[#GRAPH]...   (QT_QPA_PLATFORM=offscreen works; bench/gui_bench.sh runs it)
// Per path: the main window opens the path; "first paint" is the first paint of the graph view after its first
// layout arrived. A 5 ms timer on the GUI thread measures the longest gap between its ticks from the open to one
// second after the code view is filled too (a blocked GUI thread shows as a long gap: "max blocked"), and again
// while a fold is opened and one block expanded ("blocked after"). Then a grouped graph's fold (×N) is opened and
// one block expanded (the on-demand layouts). The reference: fxray-layout (Graphviz `dot`, tuned limits and stubs
// as `fxray dot` uses) on the full graph, capped at 120 s, for graphs of at most FXRAY_BENCH_DOT_MAX nodes
// (default 8,000; `dot` does not finish larger ones in that time).
// Waiting sleeps in the event loop as an idle GUI does (a busy processEvents loop would take a core from the
// loader and layout threads on a small machine).
#include "base/subprocess.h"
#include "io/graph_source.h"
#include "render/dot_writer.h"
#include "views/graph/graph_drawing.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"
#include "views/models/dump_browser_model.h"
#include "views/panels/graph_panel.h"
#include "views/panels/graph_text_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QStandardPaths>
#include <QTimer>
#include <QPlainTextEdit>
#include <QTreeView>

#include <chrono>
#include <cstdio>

using namespace fxray;

namespace {

struct PaintSpy : QObject {
    bool painted = false;
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint)
            painted = true;
        return QObject::eventFilter(o, e);
    }
};

// Runs the event loop until `done` or `seconds`; returns whether done. Sleeps between events; a 10 ms timer wakes
// it to check.
template <class F>
bool spin(F done, double seconds)
{
    QElapsedTimer t;
    t.start();
    QTimer wake;
    wake.start(10);
    while (!done()) {
        if (t.elapsed() > seconds * 1000)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

double referenceLayout(const std::string& address, double& nodes)
{
    const io::LoadedGraph g = io::loadAddress(address);
    nodes = static_cast<double>(g.graph.nodes.size());
    const std::string dot = render::writeDot(g.graph);
    const auto start = std::chrono::steady_clock::now();
    Subprocess child({views::locateLayoutProgram().toStdString(), "dot"});
    child.write(dot);
    child.closeStdin();
    std::string line;
    const auto deadline = start + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline) {
        if (child.readLine(line, std::chrono::milliseconds(100)) == Subprocess::Read::Eof)
            break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
        child.kill();
        return -1;
    }
    child.wait(std::chrono::milliseconds(2000));
    if (!child.exitCode() || *child.exitCode() != 0)
        return -2;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// FXRAY_BENCH_SLOW_EVENTS=ms: prints every event whose delivery took longer (receiver class, event type), to
// find what blocks the GUI thread. FXRAY_BENCH_PAINTS=1: after each first paint, times one synchronous repaint of
// the graph view, its overview, the code view and the whole window.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    qint64 threshold = qEnvironmentVariableIntValue("FXRAY_BENCH_SLOW_EVENTS");
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (threshold <= 0)
            return QApplication::notify(receiver, event);
        QElapsedTimer t;
        t.start();
        const int type = event->type();
        const bool result = QApplication::notify(receiver, event);
        if (t.elapsed() > threshold)
        {
            QString chain;
            for (QObject* o = receiver; o; o = o->parent())
                chain += QStringLiteral(" < %1(%2)").arg(QString::fromLatin1(o->metaObject()->className()), o->objectName());
            std::fprintf(stderr, "slow event: %lld ms, type %d%s\n", static_cast<long long>(t.elapsed()), type, qPrintable(chain));
        }
        return result;
    }
};

}  // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true);  // no saved window layout, no recent paths
    TimedApplication app(argc, argv);
    std::printf("%-48s %7s %7s %11s %10s %12s %11s %11s %14s %14s %8s\n", "graph", "nodes", "blocks", "first paint", "code",
                "max blocked", "open fold", "expand one", "blocked after", "dot, all nodes", "ratio");
    const double dotMax = qEnvironmentVariableIsSet("FXRAY_BENCH_DOT_MAX") ? qEnvironmentVariableIntValue("FXRAY_BENCH_DOT_MAX") : 8000;
    for (int a = 1; a < argc; ++a) {
        const QString path = QString::fromLocal8Bit(argv[a]);
        views::MainWindow window;
        window.resize(1400, 900);
        window.show();
        PaintSpy spy;
        window.graphPanel()->view()->viewport()->installEventFilter(&spy);
        bool ready = false;
        QObject::connect(window.graphPanel(), &views::GraphPanel::drawingReady, &window, [&] {
            ready = true;
            spy.painted = false;
        });
        // The window's own first show (style, fonts, docks) is start-up, not opening a graph: let it settle first.
        spin([] { return false; }, 1.5);
        QElapsedTimer clock;
        qint64 lastTick = 0, maxGap = 0;
        QTimer ticker;
        ticker.setInterval(5);
        QObject::connect(&ticker, &QTimer::timeout, [&] {
            const qint64 now = clock.elapsed();
            maxGap = std::max(maxGap, now - lastTick);
            lastTick = now;
        });
        clock.start();
        ticker.start();
        // "log#1/0/aot_joint_graph": open the file, then pick that graph in the Dumps list as a user would.
        const QString file = path.section(QLatin1Char('#'), 0, 0);
        window.openPath(file);
        if (file != path) {
            if (!spin([&] { return !window.dumpBrowserModel()->isLoading() && window.dumpBrowserModel()->graphCount() > 0; }, 120))
                continue;
            for (int e = 0; e < window.dumpBrowserModel()->graphCount(); ++e) {
                const QModelIndex i = window.dumpBrowserModel()->indexForEntry(e);
                if (i.data(views::DumpBrowserModel::AddressRole).toString().endsWith(path.section(QLatin1Char('#'), 1)))
                    window.dumpTree()->setCurrentIndex(i);
            }
        }
        const bool ok = spin([&] { return ready && spy.painted && window.currentGraph() &&
                                          (file == path || QString::fromStdString(window.currentGraph()->entry.address).endsWith(path.section(QLatin1Char('#'), 1))); },
                             120);
        const double firstPaint = clock.elapsed() / 1000.0;
        // Keep measuring stalls until the code view is filled too, and a second more.
        spin([&] { return !window.graphTextPanel()->isPreparing(); }, 120);
        const double codeReady = clock.elapsed() / 1000.0;
        spin([] { return false; }, 1.0);
        const qint64 openGap = maxGap;
        if (!ok) {
            std::printf("%-48s no drawing within 120 s (%s)\n", argv[a], qPrintable(window.graphPanel()->statusText()));
            continue;
        }
        if (qEnvironmentVariableIsSet("FXRAY_BENCH_PAINTS")) {
            // What one synchronous repaint of each part of the window costs, now that everything is shown.
            const auto timeRepaint = [](const char* what, QWidget* w) {
                QElapsedTimer t;
                t.start();
                w->repaint();
                std::fprintf(stderr, "repaint %-12s %lld ms\n", what, static_cast<long long>(t.elapsed()));
            };
            timeRepaint("graph", window.graphPanel()->view()->viewport());
            timeRepaint("overview", reinterpret_cast<QWidget*>(window.graphPanel()->view()->overview()->viewport()));
            timeRepaint("code", window.graphTextPanel()->editor()->viewport());
            timeRepaint("window", &window);
        }
        maxGap = 0;  // from here: stalls while opening the fold and expanding
        const auto& drawing = window.graphPanel()->scene()->drawing();
        const int blocks = drawing && drawing->grouping ? static_cast<int>(drawing->grouping->blocks.size()) : 0;
        double expand = 0, foldOpen = -1;
        if (blocks > 0) {
            int target = blocks / 2;
            if (window.graphPanel()->scopeTree()) {
                // Module hierarchy: open the folded layers (×N), then expand one layer.
                int fold = -1;
                for (std::size_t b = 0; b < drawing->grouping->blocks.size(); ++b)
                    if (drawing->grouping->blocks[b].fold >= 0 && fold < 0)
                        fold = static_cast<int>(b);
                if (fold >= 0) {
                    const int layer = drawing->grouping->blocks[static_cast<std::size_t>(fold)].scope;
                    ready = false;
                    QElapsedTimer t;
                    t.start();
                    window.graphPanel()->expandBlock(fold);
                    spin([&] { return ready && spy.painted; }, 60);
                    foldOpen = t.elapsed() / 1000.0;
                    const auto& opened = window.graphPanel()->scene()->drawing();
                    for (std::size_t b = 0; opened && opened->grouping && b < opened->grouping->blocks.size(); ++b)
                        if (opened->grouping->blocks[b].scope == layer && opened->grouping->blocks[b].fold < 0)
                            target = static_cast<int>(b);
                }
            }
            ready = false;
            QElapsedTimer t;
            t.start();
            window.graphPanel()->expandBlock(target);
            spin([&] { return ready && spy.painted; }, 60);
            expand = t.elapsed() / 1000.0;
        }
        ticker.stop();
        const qint64 afterGap = maxGap;
        double nodes = window.currentGraph() ? static_cast<double>(window.currentGraph()->graph.nodes.size()) : 0;
        const std::string address = window.currentGraph() ? window.currentGraph()->entry.address : path.toStdString();
        const double reference = nodes > dotMax ? -3 : referenceLayout(address, nodes);
        char ref[32], ratio[32], exp[32], fold[32];
        std::snprintf(fold, sizeof fold, foldOpen >= 0 ? "%.2f s" : "-", foldOpen);
        if (reference == -3)
            std::snprintf(ref, sizeof ref, "not run");
        else if (reference < 0)
            std::snprintf(ref, sizeof ref, reference == -1 ? "> 120 s" : "crashed");
        else
            std::snprintf(ref, sizeof ref, "%.2f s", reference);
        if (reference > 0)
            std::snprintf(ratio, sizeof ratio, "%.1fx", reference / firstPaint);
        else
            std::snprintf(ratio, sizeof ratio, reference == -1 ? "> %.0fx" : "-", 120 / firstPaint);
        std::snprintf(exp, sizeof exp, blocks ? "%.2f s" : "-", expand);
        std::printf("%-48s %7.0f %7d %9.2f s %8.2f s %9lld ms %11s %11s %11lld ms %14s %8s\n", argv[a], nodes, blocks, firstPaint,
                    codeReady, static_cast<long long>(openGap), fold, exp, static_cast<long long>(afterGap), ref, ratio);
        std::fflush(stdout);
    }
    return 0;
}
