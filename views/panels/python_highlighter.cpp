#include "views/panels/python_highlighter.h"

#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>

#include <algorithm>

namespace fxray::views {

namespace {

QTextCharFormat charFormat(const QColor& color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    f.setFontWeight(bold ? QFont::Bold : QFont::Normal);
    f.setFontItalic(italic);
    return f;
}

}  // namespace

PythonHighlighter::PythonHighlighter(QObject* parent)
    : QSyntaxHighlighter(parent)
{
}

void PythonHighlighter::setLazy(bool lazy)
{
    m_lazy = lazy;
    m_done.clear();
}

void PythonHighlighter::highlightVisible(QPlainTextEdit* editor)
{
    if (!m_lazy || document() != editor->document())
        return;
    const int rows = editor->viewport()->height() / std::max(1, editor->fontMetrics().height()) + 2;
    QTextBlock block = editor->cursorForPosition(QPoint(0, 0)).block();  // the first visible one
    for (int k = 0; k < rows && block.isValid(); ++k, block = block.next()) {
        const auto n = static_cast<std::size_t>(block.blockNumber());
        if (n >= m_done.size())
            m_done.resize(n + 1024, 0);
        if (m_done[n])
            continue;
        m_done[n] = 1;
        // The block state is never set, so rehighlighting one block does not cascade to the next ones.
        m_forced = true;
        rehighlightBlock(block);
        m_forced = false;
    }
}

void PythonHighlighter::highlightBlock(const QString& text)
{
    if (m_lazy && !m_forced)
        return;
    // Colours readable on light and dark palettes alike.
    static const QRegularExpression keyword(QStringLiteral(R"(\b(def|class|return|None|True|False|self|import|from|if|else|for|in|and|or|not)\b)"));
    static const QRegularExpression target(QStringLiteral(R"(\btorch\.ops\.[\w.]+|\boperator\.\w+)"));
    static const QRegularExpression number(QStringLiteral(R"(\b-?\d+(\.\d+)?(e[-+]?\d+)?\b)"));
    static const QRegularExpression string(QStringLiteral(R"("[^"]*"|'[^']*')"));
    const auto apply = [&](const QRegularExpression& re, const QTextCharFormat& f) {
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), f);
        }
    };
    apply(number, charFormat(QColor(0x0b, 0x7a, 0x8c)));
    apply(keyword, charFormat(QColor(0x7b, 0x3f, 0xb0), true));
    apply(target, charFormat(QColor(0x1f, 0x5f, 0xbf)));
    apply(string, charFormat(QColor(0x2e, 0x8b, 0x57)));
    // A comment runs to the end of the line, unless the '#' sits inside a string.
    int quote = 0;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('"') || c == QLatin1Char('\''))
            quote = quote == 0 ? c.unicode() : (quote == c.unicode() ? 0 : quote);
        else if (c == QLatin1Char('#') && quote == 0) {
            const bool source = text.mid(i).startsWith(QStringLiteral("# File:"));
            setFormat(i, static_cast<int>(text.size()) - i,
                      source ? charFormat(QColor(0xa0, 0x60, 0x10), false, true) : charFormat(QColor(0x80, 0x80, 0x80), false, true));
            break;
        }
    }
}

}  // namespace fxray::views
