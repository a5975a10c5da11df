#pragma once
// Colours FX Python code: keywords, torch.ops targets, annotation strings ("f32[4, 8][8, 1]cuda:0"), numbers and
// comments (the model-source "# File: …" comments in their own colour, so they stand out from code).
#include <QSyntaxHighlighter>
#include <QTextLayout>

#include <vector>

namespace fxray::views {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    // Owned by `parent`, not by a document: the code panel swaps documents (large texts are built off the GUI
    // thread), and a highlighter owned by the old document would die with it.
    explicit PythonHighlighter(QObject* parent);

    // Lazy: only blocks highlightVisible() asks for are coloured, by setting their layout's formats directly. The
    // highlighter is then attached to no document: QSyntaxHighlighter::setDocument queues a pass over every block
    // (1.5 s on the GUI thread for 100k lines, even when each block returns at once).
    void setLazy(bool lazy);
    bool isLazy() const { return m_lazy; }
    void highlightVisible(class QPlainTextEdit* editor);

    // The colours of one line, as non-overlapping ranges (what highlightBlock sets).
    static QList<QTextLayout::FormatRange> formatsOf(const QString& text);

protected:
    void highlightBlock(const QString& text) override;

private:
    bool m_lazy = false;
    std::vector<char> m_done;  // lazy mode: per block number, already highlighted
    const class QTextDocument* m_lazyDocument = nullptr;  // what m_done is about
};

}  // namespace fxray::views
