// fxray-gui [path]: opens the main window on `path`, or on the bundled samples when none is given.
#include "views/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace {

// First start without an argument shows the samples: $FXRAY_SAMPLES, else the source tree's samples/.
QString defaultPath()
{
    const QString fromEnv = qEnvironmentVariable("FXRAY_SAMPLES");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString bundled = QStringLiteral(FXRAY_SAMPLES_DIR);
    if (QFileInfo::exists(bundled))
        return bundled;
    return {};
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
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    const QString path = positional.isEmpty() ? defaultPath() : QDir::cleanPath(positional.front());

    fxray::views::MainWindow window;
    window.show();
    if (!path.isEmpty())
        window.openPath(path);
    return QApplication::exec();
}
