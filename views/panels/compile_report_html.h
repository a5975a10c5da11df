#pragma once
// The details view of one compile of the compile report (compile_report_panel.h), as HTML for a QTextBrowser.
// Links: "fxray-graph:<percent-encoded address>" opens a graph, "fxray-ranks:" the Ranks tab, "fxray-code:<rank>/<compile>/<artifact>" shows
// inductor output code as text, "fxray-back:<rank>/<compile>" returns to the compile.
#include "graph/collective_check.h"
#include "io/compile_report.h"

#include <QColor>
#include <QString>

namespace fxray::views {

QString compileDetailsHtml(const io::CompileEntry& c, int rank, int compile);
// The output code of artifact `artifact` as preformatted text under a link back to its compile.
QString outputCodeHtml(const io::CompileEntry& c, int rank, int compile, int artifact);
// The ranks' divergence (several ranks' logs): which ranks agree in compile ids and in cache hits/misses, and the
// collective check of their graphs, each difference with links to the graphs of the collectives it names and a
// "fxray-ranks:" link (replay the ranks together in the Ranks tab). `check` is null when the graphs could not be
// checked; `why` then says so.
QString rankDivergenceHtml(const io::CompileReport& report, const graph::CollectiveCheck* check, const QString& why);
// tlparse's status colours (green ok, lime restarted, white empty, red failed, purple missing metrics).
QColor statusColour(io::CompileStatus s);

}  // namespace fxray::views
