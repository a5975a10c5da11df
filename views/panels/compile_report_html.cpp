#include "views/panels/compile_report_html.h"

#include <QUrl>

namespace fxray::views {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString pre(const std::string& s) { return QStringLiteral("<pre>%1</pre>").arg(esc(s)); }

QString seconds(const std::optional<double>& s) { return s ? QString::number(*s, 'f', 3) + QStringLiteral(" s") : QStringLiteral("–"); }

QString count(const std::optional<std::int64_t>& n) { return n ? QString::number(*n) : QStringLiteral("–"); }

QString section(const QString& title) { return QStringLiteral("<h3>%1</h3>").arg(title); }

QString problemsHtml(const io::CompileEntry& c)
{
    QString h;
    if (c.failure) {
        h += section(QStringLiteral("Compilation failure"));
        h += QStringLiteral("<p><b>%1</b>: %2").arg(esc(c.failure->type), esc(c.failure->reason));
        if (!c.failure->userFrame.empty())
            h += QStringLiteral("<br>in %1").arg(esc(c.failure->userFrame));
        h += QStringLiteral("</p>") + pre(c.failure->stack);
    }
    if (!c.recompileReasons.empty()) {
        h += section(QStringLiteral("Recompiled because (guard failed)"));
        for (const std::string& r : c.recompileReasons)
            h += QStringLiteral("<p><code>%1</code></p>").arg(esc(r));
    }
    for (const io::GraphBreak& b : c.graphBreaks) {
        h += section(QStringLiteral("Graph break at %1").arg(esc(b.location)));
        h += pre(b.reason) + QStringLiteral("<p>User code:</p>") + pre(b.userStack);
    }
    if (!c.restartReasons.empty()) {
        h += section(QStringLiteral("Restarts"));
        for (const std::string& r : c.restartReasons)
            h += pre(r);
    }
    for (const std::string& issue : c.exportIssues)
        h += QStringLiteral("<p>export: %1</p>").arg(esc(issue));
    return h;
}

QString metricsHtml(const io::CompileEntry& c)
{
    const io::CompileMetrics* m = c.lastMetrics();
    if (!m)
        return c.unknown() ? QString() : section(QStringLiteral("No compilation metrics")) + QStringLiteral("<p>the compile crashed or never finished</p>");
    return section(QStringLiteral("Compile time and graph")) +
           QStringLiteral("<table cellspacing=4><tr><td>entire frame</td><td>%1</td><td>backend</td><td>%2</td></tr>"
                          "<tr><td>inductor</td><td>%3</td><td>code gen</td><td>%4</td></tr>"
                          "<tr><td>ops / nodes / inputs</td><td>%5 / %6 / %7</td><td>guards (shape env)</td><td>%8 (%9)</td></tr></table>")
               .arg(seconds(m->entireFrameS), seconds(m->backendS), seconds(m->inductorS), seconds(m->codeGenS),
                    count(m->graphOpCount), count(m->graphNodeCount), count(m->graphInputCount), count(m->guardCount),
                    count(m->shapeEnvGuardCount));
}

QString artifactsHtml(const io::CompileEntry& c, int rank, int compile)
{
    QString h = section(QStringLiteral("Graphs and output"));
    h += QStringLiteral("<ul>");
    for (std::size_t i = 0; i < c.artifacts.size(); ++i) {
        const io::CompileArtifact& a = c.artifacts[i];
        using K = io::CompileArtifact::Kind;
        if (a.kind == K::Graph && !a.address.empty())
            h += QStringLiteral("<li><a href=\"fxray-graph:%1\">%2</a> <small>(line %3)</small></li>")
                     // One arg() call: a chained .arg(line) would fill the encoded address's "%2F" ('/') first.
                     .arg(QString::fromLatin1(QUrl::toPercentEncoding(QString::fromStdString(a.address))), esc(a.name),
                          QString::number(a.line));
        else if (a.kind == K::OutputCode)
            h += QStringLiteral("<li><a href=\"fxray-code:%1/%2/%3\">output code %4</a> <small>(%5 chars)</small></li>")
                     .arg(rank).arg(compile).arg(i).arg(esc(a.name)).arg(a.text.size());
        else if (a.kind == K::Link)
            h += QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(esc(a.url), esc(a.name));
    }
    for (const io::CacheEvent& e : c.cache)
        h += QStringLiteral("<li>cache: %1 <b>%2</b> %3</li>").arg(esc(e.cache), esc(e.state), esc(e.reason.substr(0, e.reason.find('\n'))));
    return h + QStringLiteral("</ul>");
}

QString guardsHtml(const io::CompileEntry& c)
{
    if (c.guards.empty() && c.shapeGuards.empty() && c.cppGuards.empty())
        return {};
    QString h = section(QStringLiteral("Guards"));
    for (const std::string& g : c.shapeGuards)
        h += QStringLiteral("<code>%1</code><br>").arg(esc(g));
    for (const std::string& g : c.guards)
        h += QStringLiteral("<code>%1</code><br>").arg(esc(g));
    if (c.guards.empty() && !c.cppGuards.empty())
        h += pre(c.cppGuards);
    return h;
}

QString stackHtml(const io::CompileEntry& c)
{
    if (c.stack.empty())
        return {};
    QString h = section(QStringLiteral("Stack (most recent call last)"));
    for (const io::StackFrame& f : c.stack)
        h += QStringLiteral("%1:%2 in <b>%3</b>%4<br>")
                 .arg(esc(f.file)).arg(f.line).arg(esc(f.function), f.code.empty() ? QString() : QStringLiteral("<br>&nbsp;&nbsp;<code>%1</code>").arg(esc(f.code)));
    return h;
}

}  // namespace

QColor statusColour(io::CompileStatus s)
{
    switch (s) {
    case io::CompileStatus::Ok: return QColor(0x2e, 0x9e, 0x44);
    case io::CompileStatus::Restarted: return QColor(0x9c, 0xe0, 0x4a);
    case io::CompileStatus::Empty: return QColor(0xdd, 0xdd, 0xdd);
    case io::CompileStatus::Failed: return QColor(0xd9, 0x30, 0x25);
    case io::CompileStatus::Missing: return QColor(0x80, 0x30, 0xa0);
    }
    return {};
}

QString compileDetailsHtml(const io::CompileEntry& c, int rank, int compile)
{
    QString h = QStringLiteral("<h2>%1 %2</h2>").arg(esc(c.compileId), esc(c.function));
    if (!c.unknown())
        h += QStringLiteral("<p><span style=\"background:%1\">&nbsp;%2&nbsp;</span> %3 attempt(s) &nbsp; %4</p>")
                 .arg(statusColour(c.status).name(), QString::fromLatin1(io::compileStatusName(c.status).data()))
                 .arg(c.attempts).arg(esc(c.sourceLocation));
    if (const std::string resume = c.resumeOf(); !resume.empty())
        h += QStringLiteral("<p><i>%1</i></p>").arg(esc(resume));
    return h + problemsHtml(c) + metricsHtml(c) + artifactsHtml(c, rank, compile) + guardsHtml(c) + stackHtml(c);
}

QString outputCodeHtml(const io::CompileEntry& c, int rank, int compile, int artifact)
{
    const io::CompileArtifact& a = c.artifacts.at(static_cast<std::size_t>(artifact));
    return QStringLiteral("<p><a href=\"fxray-back:%1/%2\">← %3</a> &nbsp; <b>%4</b></p>")
               .arg(rank).arg(compile).arg(esc(c.compileId), esc(a.name)) + pre(a.text);
}

namespace {

QString rankSets(const std::vector<std::vector<int>>& groups)
{
    QStringList sets;
    for (const auto& g : groups) {
        QStringList ranks;
        for (int r : g)
            ranks << QString::number(r);
        sets << QStringLiteral("{%1}").arg(ranks.join(QStringLiteral(", ")));
    }
    return sets.join(QStringLiteral(" "));
}

}  // namespace

QString rankDivergenceHtml(const io::CompileReport& report, const graph::CollectiveCheck* check, const QString& why)
{
    QString h = QStringLiteral("<h3>%1 ranks</h3><ul>").arg(report.ranks.size());
    h += QStringLiteral("<li>compile ids: %1</li>")
             .arg(report.groups.byCompileIds.size() <= 1 ? QStringLiteral("the same on every rank")
                                                         : QStringLiteral("<b>diverge</b>: ") + rankSets(report.groups.byCompileIds));
    h += QStringLiteral("<li>cache hits/misses: %1</li></ul>")
             .arg(report.groups.byCacheSequence.size() <= 1 ? QStringLiteral("the same on every rank")
                                                            : QStringLiteral("<b>diverge</b>: ") + rankSets(report.groups.byCacheSequence));
    h += QStringLiteral("<h3>Collectives</h3>");
    if (!check)
        return h + QStringLiteral("<p>%1</p>").arg(esc(why.toStdString()));
    if (check->ok()) {
        h += QStringLiteral("<p>Every rank of every group calls the same collectives in the same order.</p>");
    } else {
        h += QStringLiteral("<p><b>The ranks would hang or pair wrong buffers</b>; the first difference per group:</p><ul>");
        for (std::size_t k = 0; k < check->mismatches.size(); ++k) {
            h += QStringLiteral("<li>%1<ul>").arg(esc(check->mismatches[k]));
            if (k < check->mismatchCalls.size())
                for (const auto& [rank, call] : check->mismatchCalls[k])
                    h += QStringLiteral("<li>rank %1: <a href=\"fxray-graph:%2\">%3</a> in %4</li>")
                             .arg(rank)
                             .arg(QString::fromLatin1(QUrl::toPercentEncoding(QString::fromStdString(call.graph))),
                                  esc(call.describe()), esc(call.graph.substr(call.graph.rfind('#') == std::string::npos ? 0 : call.graph.rfind('#'))));
            h += QStringLiteral("</ul></li>");
        }
        h += QStringLiteral("</ul>");
    }
    for (const auto& n : check->notes)
        h += QStringLiteral("<p><small>%1</small></p>").arg(esc(n));
    return h + QStringLiteral("<p><a href=\"fxray-ranks:\">Replay the ranks together…</a> (the Ranks tab)</p>");
}

}  // namespace fxray::views
