#pragma once
// Colours FX Python code: keywords, torch.ops targets, annotation strings ("f32[4, 8][8, 1]cuda:0"), numbers and
// comments (the model-source "# File: …" comments in their own colour, so they stand out from code).
#include <QSyntaxHighlighter>

#include <vector>

namespace fxray::views {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    // Owned by `parent`, not by a document: the code panel swaps documents (large texts are built off the GUI
    // thread), and a highlighter owned by the old document would die with it.
    explicit PythonHighlighter(QObject* parent);

    // Lazy: only blocks highlightVisible() asks for are coloured (tens of thousands of lines would otherwise be
    // highlighted in one go on the GUI thread: ~0.5 s for a 20k-node graph).
    void setLazy(bool lazy);
    void highlightVisible(class QPlainTextEdit* editor);

protected:
    void highlightBlock(const QString& text) override;

private:
    bool m_lazy = false;
    bool m_forced = false;
    std::vector<char> m_done;  // lazy mode: per block number, already highlighted
};

}  // namespace fxray::views
