#include "views/panels/outline_panel.h"

#include "render/scope_tree.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace fxray::views {

namespace {
constexpr int kScopeRole = Qt::UserRole + 1;  // scope id; -1 for a fold item
}

OutlinePanel::OutlinePanel(QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_message(new QLabel(this))
{
    m_tree->setObjectName(QStringLiteral("outlineTree"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Scope"), tr("Nodes"), tr("Module")});
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->setColumnWidth(0, 190);
    m_tree->setColumnWidth(1, 56);
    m_message->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("outlineMessage"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_message);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const int scope = item->data(0, kScopeRole).toInt();
        if (!m_selecting && scope >= 0)
            Q_EMIT scopeActivated(scope);
    });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int scope = item->data(0, kScopeRole).toInt();
        if (!m_selecting && scope >= 0)
            Q_EMIT scopeOpened(scope);
    });
    setTree(nullptr);
}

void OutlinePanel::setTree(const render::ScopeTree* tree, const QString& why)
{
    m_tree->clear();
    m_items.clear();
    const bool have = tree && tree->useful();
    m_message->setVisible(!have);
    m_message->setText(why.isEmpty() ? tr("No module hierarchy for this graph.") : why);
    if (!have)
        return;
    m_items.assign(tree->scopes.size(), nullptr);
    const auto makeItem = [&](QTreeWidgetItem* parent, int s) {
        const render::Scope& scope = tree->scopes[static_cast<std::size_t>(s)];
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        item->setText(0, QString::fromStdString(scope.name));
        item->setText(1, QString::number(scope.nodes.size()));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(2, QString::fromStdString(scope.type));
        item->setData(0, kScopeRole, s);
        item->setToolTip(0, QString::fromStdString(scope.path.empty() ? scope.name : scope.path));
        m_items[static_cast<std::size_t>(s)] = item;
        return item;
    };
    std::function<void(QTreeWidgetItem*, int)> fill = [&](QTreeWidgetItem* item, int s) {
        for (int c : tree->scopes[static_cast<std::size_t>(s)].children) {
            const int fold = tree->scopes[static_cast<std::size_t>(c)].fold;
            QTreeWidgetItem* parent = item;
            if (fold >= 0) {
                const render::Fold& f = tree->folds[static_cast<std::size_t>(fold)];
                if (f.scopes.front() != c)
                    continue;
                auto* foldItem = new QTreeWidgetItem(item);
                foldItem->setText(0, QString::fromStdString(f.title));
                foldItem->setText(1, QString::number(f.nodes.size()));
                foldItem->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
                foldItem->setText(2, QString::fromStdString(tree->scopes[static_cast<std::size_t>(c)].type));
                foldItem->setData(0, kScopeRole, -1);
                foldItem->setToolTip(0, tr("%1 structurally identical scopes (same ops and shapes)").arg(f.scopes.size()));
                for (int member : f.scopes)
                    fill(makeItem(foldItem, member), member);
                continue;
            }
            fill(makeItem(parent, c), c);
        }
    };
    QTreeWidgetItem* root = makeItem(nullptr, 0);
    fill(root, 0);
    root->setExpanded(true);
    for (int i = 0; i < root->childCount(); ++i)
        if (root->child(i)->childCount() > 0 && root->childCount() <= 4)
            root->child(i)->setExpanded(true);
}

QTreeWidgetItem* OutlinePanel::itemForScope(int scope) const
{
    return scope >= 0 && static_cast<std::size_t>(scope) < m_items.size() ? m_items[static_cast<std::size_t>(scope)] : nullptr;
}

void OutlinePanel::selectScope(int scope)
{
    QTreeWidgetItem* item = itemForScope(scope);
    if (!item)
        return;
    m_selecting = true;
    for (QTreeWidgetItem* p = item->parent(); p; p = p->parent())
        p->setExpanded(true);
    m_tree->setCurrentItem(item);
    m_tree->scrollToItem(item);
    m_selecting = false;
}

int OutlinePanel::selectedScope() const
{
    QTreeWidgetItem* item = m_tree->currentItem();
    return item ? item->data(0, kScopeRole).toInt() : -1;
}

}  // namespace fxray::views
