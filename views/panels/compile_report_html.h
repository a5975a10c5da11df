#pragma once
// The details view of one compile of the compile report (compile_report_panel.h), as HTML for a QTextBrowser.
// Links: "fxray-graph:<percent-encoded address>" opens a graph, "fxray-code:<rank>/<compile>/<artifact>" shows
// inductor output code as text, "fxray-back:<rank>/<compile>" returns to the compile.
#include "io/compile_report.h"

#include <QColor>
#include <QString>

namespace fxray::views {

QString compileDetailsHtml(const io::CompileEntry& c, int rank, int compile);
// The output code of artifact `artifact` as preformatted text under a link back to its compile.
QString outputCodeHtml(const io::CompileEntry& c, int rank, int compile, int artifact);
// tlparse's status colours (green ok, lime restarted, white empty, red failed, purple missing metrics).
QColor statusColour(io::CompileStatus s);

}  // namespace fxray::views
