// fxray-gui [path]: opens the main window on `path`, or on the bundled samples when none is given.
// fxray-gui --diff <graph A> <graph B> [path]: also opens a diff tab for two graph addresses (as `fxray info`
// prints them, or folders/files holding one graph), the same view as "Diff with…" in the Dumps list.
// fxray-gui --minimize <graph> [--until SPEC] [path]: also starts the Minimize dock on that graph (SPEC as for
// `fxray minimize --until`; default mismatch,error,nan).
// --select NODE selects a node of the first graph shown; --replay replays that graph once it is shown (with the
// replay options kept from the last run; --cuda-graph turns on the replay dock's CUDA graph option).
// --sweep N sets the replay dock's "Sweep seeds" (N seeds from Seed; --until says what stops it: nan, mismatch,
// error, diverge:DEVICE) and --repeat N its "Repeat runs"; with --replay the first graph shown is swept.
// --ranks opens a Ranks tab on the path (a folder of per-rank logs or dumps) and replays its ranks together.
// --show-report shows the Compile report dock; --report ID also selects that compile ("[0/1]").
// --stages <log>#<frame>/<compile> opens a Stages tab comparing that compile's stages and runs it (its log is the
// path for the Dumps list when none is given).
// --open-scope PATH opens that module scope ("model.layers.5": the folded layers and layer 5) of the first graph shown
// with a module hierarchy, then fits the drawing (the README's screenshots).
#include "render/scope_tree.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"
#include "views/panels/graph_panel.h"
#include "views/panels/compile_report_panel.h"
#include "views/panels/minimize_panel.h"
#include "views/panels/replay_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <memory>

namespace {

// First start without an argument shows the samples: $FXRAY_SAMPLES, else the installed ones (<prefix>/share/fxray/
// samples beside <prefix>/bin: cmake/FxrayInstall.cmake), else the source tree's samples/.
QString defaultPath()
{
    const QString fromEnv = qEnvironmentVariable("FXRAY_SAMPLES");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/fxray/samples");
    if (QFileInfo::exists(installed))
        return QFileInfo(installed).canonicalFilePath();
    const QString bundled = QStringLiteral(FXRAY_SAMPLES_DIR);
    if (QFileInfo::exists(bundled))
        return bundled;
    return {};
}

// The command line's options, in the order --help lists them.
struct GuiOptions {
    QCommandLineOption diff{QStringLiteral("diff"), QStringLiteral("open a diff of the first two arguments (graph A, graph B); "
                                                                   "a third argument is the path for the Dumps list")};
    QCommandLineOption minimize{QStringLiteral("minimize"), QStringLiteral("start minimizing this graph in the Minimize dock"),
                                QStringLiteral("graph")};
    QCommandLineOption until{QStringLiteral("until"),
                             QStringLiteral("with --minimize: what counts as failing (as for fxray minimize); "
                                            "with --sweep: what stops the sweep (nan, mismatch, error, diverge:DEVICE)"),
                             QStringLiteral("spec"), QStringLiteral("mismatch,error,nan")};
    QCommandLineOption select{QStringLiteral("select"), QStringLiteral("select this node of the first graph shown"),
                              QStringLiteral("node")};
    QCommandLineOption replay{QStringLiteral("replay"), QStringLiteral("replay the first graph shown")};
    QCommandLineOption cudaGraph{QStringLiteral("cuda-graph"), QStringLiteral("replays also analyse, capture and replay a CUDA graph")};
    QCommandLineOption sweep{QStringLiteral("sweep"), QStringLiteral("replays sweep this many seeds (the Replay dock's Sweep seeds)"),
                             QStringLiteral("seeds")};
    QCommandLineOption repeat{QStringLiteral("repeat"),
                              QStringLiteral("replays run each seed's inputs this many more times and compare the runs node by node"),
                              QStringLiteral("runs")};
    QCommandLineOption ranks{QStringLiteral("ranks"),
                             QStringLiteral("replay the path's ranks together as one distributed job (a Ranks tab)")};
    QCommandLineOption report{QStringLiteral("report"),
                              QStringLiteral("show the Compile report dock (TORCH_TRACE logs), on this compile id if given"),
                              QStringLiteral("compile id")};
    QCommandLineOption reportDock{QStringLiteral("show-report"), QStringLiteral("show the Compile report dock")};
    QCommandLineOption stages{QStringLiteral("stages"),
                              QStringLiteral("compare the stages of this compile (<trace log>#<frame>/<compile>)"),
                              QStringLiteral("compile")};
    QCommandLineOption openScope{QStringLiteral("open-scope"),
                                 QStringLiteral("open this module scope (e.g. model.layers.5) of the first graph shown"),
                                 QStringLiteral("path")};

    void addTo(QCommandLineParser& parser) const
    {
        for (const QCommandLineOption* o : {&diff, &minimize, &until, &select, &replay, &cudaGraph, &sweep, &repeat, &ranks,
                                            &report, &reportDock, &stages, &openScope})
            parser.addOption(*o);
    }
};

// The Replay dock's options that the command line sets (before anything runs).
void setReplayOptions(fxray::views::MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o)
{
    window.setStartupActions(parser.value(o.select), parser.isSet(o.replay));
    if (parser.isSet(o.cudaGraph))
        window.replayPanel()->setCudaGraphMode(true);
    if (parser.isSet(o.sweep))
        window.replayPanel()->setSweep(parser.value(o.sweep).toInt(),
                                       parser.isSet(o.until) ? parser.value(o.until) : QStringLiteral("nan,mismatch,error"));
    if (parser.isSet(o.repeat))
        window.replayPanel()->setRepeatRuns(parser.value(o.repeat).toInt());
}

void showCompileReport(fxray::views::MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o)
{
    if (!parser.isSet(o.report) && !parser.isSet(o.reportDock))
        return;
    window.showCompileReport();
    if (parser.isSet(o.report)) {
        const QString id = parser.value(o.report);
        QObject::connect(window.compileReportPanel(), &fxray::views::CompileReportPanel::reportReady, &window,
                         [&window, id] { window.compileReportPanel()->selectCompile(id); });
    }
}

// --open-scope: the first drawing opens the scope; the drawing after that is fitted.
void openScopeOnFirstDrawing(fxray::views::GraphPanel* panel, const std::string& scopePath)
{
    auto step = std::make_shared<int>(0);
    QObject::connect(panel, &fxray::views::GraphPanel::drawingReady, panel, [panel, step, scopePath] {
        const fxray::render::ScopeTree* tree = panel->scopeTree();
        if (*step == 0 && tree) {
            for (std::size_t s = 0; s < tree->scopes.size(); ++s)
                if (tree->scopes[s].path == scopePath) {
                    *step = 1;
                    panel->openScope(static_cast<int>(s));
                    return;
                }
            *step = 2;
        } else if (*step == 1) {
            *step = 2;
            panel->view()->fitAll();
        }
    });
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("fxray"));
    QApplication::setApplicationVersion(QStringLiteral(FXRAY_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("fxray: look at torch.compile graphs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("dump folder, TORCH_TRACE log or TORCH_COMPILE_DEBUG directory"));
    const GuiOptions options;
    options.addTo(parser);
    parser.process(app);

    QStringList positional = parser.positionalArguments();
    QStringList diffPair;
    if (parser.isSet(options.diff)) {
        if (positional.size() < 2)
            parser.showHelp(2);
        diffPair = positional.mid(0, 2);
        positional = positional.mid(2);
    }
    const QString stages = parser.value(options.stages);
    const QString path = !positional.isEmpty()  ? QDir::cleanPath(positional.front())
                         : !stages.isEmpty()    ? stages.section(QLatin1Char('#'), 0, -2)
                                                : defaultPath();

    fxray::views::MainWindow window;
    setReplayOptions(window, parser, options);
    window.show();
    showCompileReport(window, parser, options);
    if (parser.isSet(options.openScope))
        openScopeOnFirstDrawing(window.graphPanel(), parser.value(options.openScope).toStdString());
    if (!path.isEmpty())
        window.openPath(path);
    if (!diffPair.isEmpty())
        window.openDiff(diffPair[0], diffPair[1]);
    if (!stages.isEmpty())
        window.openStages(stages);
    if (parser.isSet(options.ranks) && !path.isEmpty())
        window.openRanks(path);
    if (parser.isSet(options.minimize)) {
        const QString graph = QDir::cleanPath(parser.value(options.minimize));
        window.showMinimize(graph, QFileInfo(graph).fileName());
        window.minimizePanel()->setUntil(parser.value(options.until));
        window.minimizePanel()->start();
    }
    return QApplication::exec();
}
