#pragma once
// Colours FX Python code: keywords, torch.ops targets, annotation strings ("f32[4, 8][8, 1]cuda:0"), numbers and
// comments (the model-source "# File: …" comments in their own colour, so they stand out from code).
#include <QSyntaxHighlighter>

namespace fxray::views {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;
};

}  // namespace fxray::views
