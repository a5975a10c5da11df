#include "views/panels/outline_panel.h"

#include "render/scope_tree.h"

#include <QHeaderView>
#include <QLabel>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace fxray::views {

namespace {
constexpr int kScopeRole = Qt::UserRole + 1;  // scope id; -1 for a fold item; -2 - fold for a fold's "more" item
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
        if (scope <= -2) {
            // After the click is handled: listing replaces the clicked item.
            const int fold = -2 - scope;
            QTimer::singleShot(0, this, [this, fold, tree = m_scopes] {
                if (tree == m_scopes)
                    listMore(fold, m_listed[static_cast<std::size_t>(fold)] + kInstancesListed - 1);
            });
            return;
        }
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
    setTree(tree ? std::make_shared<const render::ScopeTree>(*tree) : nullptr, why);
}

void OutlinePanel::setTree(std::shared_ptr<const render::ScopeTree> tree, const QString& why)
{
    m_tree->clear();
    m_items.clear();
    m_foldItems.clear();
    m_listed.clear();
    m_moreItems.clear();
    m_scopes = std::move(tree);
    const bool have = m_scopes && m_scopes->useful();
    m_message->setVisible(!have);
    m_message->setText(why.isEmpty() ? tr("No module hierarchy for this graph.") : why);
    if (!have) {
        m_scopes.reset();
        return;
    }
    m_items.assign(m_scopes->scopes.size(), nullptr);
    m_foldItems.assign(m_scopes->folds.size(), nullptr);
    m_listed.assign(m_scopes->folds.size(), 0);
    m_moreItems.assign(m_scopes->folds.size(), nullptr);
    QTreeWidgetItem* root = makeItem(nullptr, 0);
    fill(root, 0);
    root->setExpanded(true);
    for (int i = 0; i < root->childCount(); ++i)
        if (root->child(i)->childCount() > 0 && root->childCount() <= 4)
            root->child(i)->setExpanded(true);
}

QTreeWidgetItem* OutlinePanel::makeItem(QTreeWidgetItem* parent, int s)
{
    const render::Scope& scope = m_scopes->scopes[static_cast<std::size_t>(s)];
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    item->setText(0, QString::fromStdString(scope.name));
    item->setText(1, QString::number(scope.nodes.size()));
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(2, QString::fromStdString(scope.type));
    item->setData(0, kScopeRole, s);
    item->setToolTip(0, QString::fromStdString(scope.path.empty() ? scope.name : scope.path));
    m_items[static_cast<std::size_t>(s)] = item;
    return item;
}

void OutlinePanel::fill(QTreeWidgetItem* item, int s)
{
    const render::ScopeTree& tree = *m_scopes;
    for (int c : tree.scopes[static_cast<std::size_t>(s)].children) {
        const int fold = tree.scopes[static_cast<std::size_t>(c)].fold;
        if (fold < 0) {
            fill(makeItem(item, c), c);
            continue;
        }
        const render::Fold& f = tree.folds[static_cast<std::size_t>(fold)];
        if (f.scopes.front() != c)
            continue;
        auto* foldItem = new QTreeWidgetItem(item);
        foldItem->setText(0, QString::fromStdString(f.title));
        foldItem->setText(1, QString::number(f.nodes.size()));
        foldItem->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        foldItem->setText(2, QString::fromStdString(tree.scopes[static_cast<std::size_t>(c)].type));
        foldItem->setData(0, kScopeRole, -1);
        foldItem->setToolTip(0, tr("%1 structurally identical scopes (same ops and shapes)").arg(f.scopes.size()));
        m_foldItems[static_cast<std::size_t>(fold)] = foldItem;
        listMore(fold, 0);
    }
}

void OutlinePanel::listMore(int fold, std::size_t upTo)
{
    const render::Fold& f = m_scopes->folds[static_cast<std::size_t>(fold)];
    QTreeWidgetItem* foldItem = m_foldItems[static_cast<std::size_t>(fold)];
    std::size_t& listed = m_listed[static_cast<std::size_t>(fold)];
    const std::size_t end = std::min(f.scopes.size(), std::max(upTo + 1, listed + kInstancesListed));
    if (QTreeWidgetItem*& more = m_moreItems[static_cast<std::size_t>(fold)]) {
        delete more;
        more = nullptr;
    }
    for (; listed < end; ++listed) {
        const int member = f.scopes[listed];
        fill(makeItem(foldItem, member), member);
    }
    if (listed < f.scopes.size()) {
        auto* more = new QTreeWidgetItem(foldItem);
        more->setText(0, tr("… %1 more (click to list)").arg(f.scopes.size() - listed));
        more->setData(0, kScopeRole, -2 - fold);
        more->setForeground(0, palette().color(QPalette::PlaceholderText));
        m_moreItems[static_cast<std::size_t>(fold)] = more;
    }
}

QTreeWidgetItem* OutlinePanel::itemForScope(int scope)
{
    if (scope < 0 || static_cast<std::size_t>(scope) >= m_items.size())
        return nullptr;
    if (!m_items[static_cast<std::size_t>(scope)]) {
        // An instance of a large fold not listed yet (or inside one): list its fold's instances up to it, outermost
        // first.
        for (int s : m_scopes->ancestry(scope)) {
            const int fold = m_scopes->scopes[static_cast<std::size_t>(s)].fold;
            if (fold < 0 || m_items[static_cast<std::size_t>(s)])
                continue;
            const std::vector<int>& members = m_scopes->folds[static_cast<std::size_t>(fold)].scopes;
            listMore(fold, static_cast<std::size_t>(std::find(members.begin(), members.end(), s) - members.begin()));
        }
    }
    return m_items[static_cast<std::size_t>(scope)];
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
