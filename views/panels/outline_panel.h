#pragma once
// The Outline dock: the open graph's module scopes as a tree (render/scope_tree.h) with node counts and classes;
// runs of identical layers appear as one item ("layers.0–23 ×24") holding the instances. Clicking a scope shows it
// in the graph (as one box), double-clicking opens it; the graph's selection marks its scope here.
// A fold of many instances (×9,999) lists them kInstancesListed at a time, below a "… N more" item that lists the
// next ones when clicked (or when one of them is selected): thousands of items at once would stall the window.
#include <QWidget>

#include <memory>
#include <vector>

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

    // nullptr: no hierarchy (the graph is small, or its nodes do not know their modules); `why` says so. The panel
    // keeps the tree (instances of large folds are listed from it later).
    void setTree(std::shared_ptr<const render::ScopeTree> tree, const QString& why = {});
    void setTree(const render::ScopeTree* tree, const QString& why = {});  // a copy of it
    // Marks the scope's item (expanding its parents, listing its fold's instances up to it) without emitting anything.
    void selectScope(int scope);
    int selectedScope() const;
    QTreeWidget* tree() const { return m_tree; }
    QTreeWidgetItem* itemForScope(int scope);  // lists it first if it is a fold instance not listed yet

    static constexpr int kInstancesListed = 200;

Q_SIGNALS:
    void scopeActivated(int scope);  // clicked: show it
    void scopeOpened(int scope);     // double-clicked: open it

private:
    QTreeWidgetItem* makeItem(QTreeWidgetItem* parent, int scope);
    void fill(QTreeWidgetItem* item, int scope);       // the scope's children (folds as one item each)
    void listMore(int fold, std::size_t upTo);          // lists the fold's instances up to index upTo (at least a page)

    QTreeWidget* m_tree = nullptr;
    QLabel* m_message = nullptr;
    std::shared_ptr<const render::ScopeTree> m_scopes;
    std::vector<QTreeWidgetItem*> m_items;      // per scope (null: not listed yet)
    std::vector<QTreeWidgetItem*> m_foldItems;  // per fold
    std::vector<std::size_t> m_listed;          // per fold: instances listed
    std::vector<QTreeWidgetItem*> m_moreItems;  // per fold: its "… N more" item, or null
    bool m_selecting = false;
};

}  // namespace fxray::views
