#pragma once
// The Outline dock: the open graph's module scopes as a tree (render/scope_tree.h) with node counts and classes;
// runs of identical layers appear as one item ("layers.0–23 ×24") holding the instances. Clicking a scope shows it
// in the graph (as one box), double-clicking opens it; the graph's selection marks its scope here.
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace fxray::render {
struct ScopeTree;
}

namespace fxray::views {

class OutlinePanel : public QWidget {
    Q_OBJECT
public:
    explicit OutlinePanel(QWidget* parent = nullptr);

    // nullptr: no hierarchy (the graph is small, or its nodes do not know their modules); `why` says so.
    void setTree(const render::ScopeTree* tree, const QString& why = {});
    // Marks the scope's item (expanding its parents) without emitting anything.
    void selectScope(int scope);
    int selectedScope() const;
    QTreeWidget* tree() const { return m_tree; }
    QTreeWidgetItem* itemForScope(int scope) const;

Q_SIGNALS:
    void scopeActivated(int scope);  // clicked: show it
    void scopeOpened(int scope);     // double-clicked: open it

private:
    QTreeWidget* m_tree = nullptr;
    QLabel* m_message = nullptr;
    std::vector<QTreeWidgetItem*> m_items;  // per scope
    bool m_selecting = false;
};

}  // namespace fxray::views
