#include "views/panels/python_highlighter.h"

#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextDocument>

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
    m_lazyDocument = nullptr;
}

void PythonHighlighter::highlightVisible(QPlainTextEdit* editor)
{
    if (!m_lazy)
        return;
    QTextDocument* doc = editor->document();
    if (doc != m_lazyDocument) {
        m_done.clear();
        m_lazyDocument = doc;
    }
    const int rows = editor->viewport()->height() / std::max(1, editor->fontMetrics().height()) + 2;
    QTextBlock block = editor->cursorForPosition(QPoint(0, 0)).block();  // the first visible one
    for (int k = 0; k < rows && block.isValid(); ++k, block = block.next()) {
        const auto n = static_cast<std::size_t>(block.blockNumber());
        if (n >= m_done.size())
            m_done.resize(n + 1024, 0);
        if (m_done[n])
            continue;
        m_done[n] = 1;
        // As QSyntaxHighlighter applies its formats: on the block's layout, then that block marked for relayout.
        block.layout()->setFormats(formatsOf(block.text()));
        doc->markContentsDirty(block.position(), block.length());
    }
}

namespace {

enum Style { Number, Keyword, Target, String, Comment, Source, Styles };

const QTextCharFormat& styleFormat(int style)
{
    static const QTextCharFormat formats[Styles] = {
        // Colours readable on light and dark palettes alike.
        charFormat(QColor(0x0b, 0x7a, 0x8c)),
        charFormat(QColor(0x7b, 0x3f, 0xb0), true),
        charFormat(QColor(0x1f, 0x5f, 0xbf)),
        charFormat(QColor(0x2e, 0x8b, 0x57)),
        charFormat(QColor(0x80, 0x80, 0x80), false, true),
        charFormat(QColor(0xa0, 0x60, 0x10), false, true),
    };
    return formats[style];
}

}  // namespace

QList<QTextLayout::FormatRange> PythonHighlighter::formatsOf(const QString& text)
{
    static const QRegularExpression keyword(QStringLiteral(R"(\b(def|class|return|None|True|False|self|import|from|if|else|for|in|and|or|not)\b)"));
    static const QRegularExpression target(QStringLiteral(R"(\btorch\.ops\.[\w.]+|\boperator\.\w+)"));
    static const QRegularExpression number(QStringLiteral(R"(\b-?\d+(\.\d+)?(e[-+]?\d+)?\b)"));
    static const QRegularExpression string(QStringLiteral(R"("[^"]*"|'[^']*')"));
    // Per character its style; later rules win where they overlap, as successive setFormat calls would.
    std::vector<signed char> style(static_cast<std::size_t>(text.size()), -1);
    const auto apply = [&](const QRegularExpression& re, Style s) {
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            std::fill(style.begin() + m.capturedStart(), style.begin() + m.capturedEnd(), static_cast<signed char>(s));
        }
    };
    apply(number, Number);
    apply(keyword, Keyword);
    apply(target, Target);
    apply(string, String);
    // A comment runs to the end of the line, unless the '#' sits inside a string.
    int quote = 0;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('"') || c == QLatin1Char('\''))
            quote = quote == 0 ? c.unicode() : (quote == c.unicode() ? 0 : quote);
        else if (c == QLatin1Char('#') && quote == 0) {
            const Style s = text.mid(i).startsWith(QStringLiteral("# File:")) ? Source : Comment;
            std::fill(style.begin() + i, style.end(), static_cast<signed char>(s));
            break;
        }
    }
    QList<QTextLayout::FormatRange> out;
    for (int i = 0; i < text.size();) {
        int j = i + 1;
        while (j < text.size() && style[static_cast<std::size_t>(j)] == style[static_cast<std::size_t>(i)])
            ++j;
        if (style[static_cast<std::size_t>(i)] >= 0)
            out.append({i, j - i, styleFormat(style[static_cast<std::size_t>(i)])});
        i = j;
    }
    return out;
}

void PythonHighlighter::highlightBlock(const QString& text)
{
    if (m_lazy)
        return;
    for (const QTextLayout::FormatRange& r : formatsOf(text))
        setFormat(r.start, r.length, r.format);
}

}  // namespace fxray::views
