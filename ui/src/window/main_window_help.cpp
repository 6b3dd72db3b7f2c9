// MainWindow's Edit menu (Copy, Copy as Markdown), View › Go to Tab and Help (the guide, the glossary, the keyboard
// shortcuts, About): main_window.h.
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTreeView>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/guide_window.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/shortcuts_dialog.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/verdict_banner.h"

namespace fp8dash::ui {

// Tab keys: the browser convention. Ctrl+1 … Ctrl+9 bring the Nth *visible* tab to the front, so the keys run in tab
// order whatever the document holds: Offline evals, Which layers (only with variants), Domain judge, Production
// timeline, Serving, Local benchmarks, Capacity, Review — Ctrl+1 … Ctrl+7 without variants, Ctrl+1 … Ctrl+8 with them,
// one less where a document has no evals. Each tab has one action, in View › Go to Tab and also in the menu of its
// subject (Timeline, Bench, Review); the action's key is set from the visible tabs whenever a document is shown, so the
// menus and Help › Keyboard Shortcuts show the key that works. Ctrl+J (the judge tab before) is dropped: a key that
// moves between tabs would clash with the numbers.
void MainWindow::buildTabActions() {
    m_goToTabMenu = new QMenu(tr("Go to &Tab"), this);
    m_goToTabMenu->setObjectName(QStringLiteral("goToTabMenu"));
    const std::pair<ComparisonView::Tab, QString> tabs[] = {
        {ComparisonView::EvalsTab, tr("Show Offline &Evals")}, {ComparisonView::LayersTab, tr("Show Which La&yers")},
        {ComparisonView::JudgeTab, tr("Show Domain &Judge")},  {ComparisonView::TimelineTab, tr("Show &Timeline")},
        {ComparisonView::ServingTab, tr("Show &Serving")},     {ComparisonView::BenchTab, tr("Show &Local Benchmarks")},
        {ComparisonView::CapacityTab, tr("Show &Capacity")},   {ComparisonView::ReviewTab, tr("Show &Review")}};
    for (const auto& [tab, text] : tabs) {
        QAction* action = m_goToTabMenu->addAction(text);
        action->setObjectName(QStringLiteral("goToTab%1").arg(static_cast<int>(tab)));
        // Benchmarks and capacity need no evals: without a document they start one for local evidence.
        if (tab == ComparisonView::BenchTab)
            connect(action, &QAction::triggered, this, &MainWindow::showBenchmarks);
        else if (tab == ComparisonView::CapacityTab)
            connect(action, &QAction::triggered, this, &MainWindow::showCapacity);
        else
            connect(action, &QAction::triggered, this, [this, t = tab] { m_view->showTab(t); });
        m_tabActions << action;
    }
    updateTabActions();
}

QAction* MainWindow::tabAction(int tab) const {
    return tab >= 0 && tab < m_tabActions.size() ? m_tabActions[tab] : nullptr;
}

void MainWindow::updateTabActions() {
    if (m_tabActions.isEmpty()) return;
    const bool haveDocument = m_doc.current().has_value();
    int position = 0;
    for (int tab = 0; tab < m_tabActions.size(); ++tab) {
        QAction* action = m_tabActions[tab];
        const bool visible = m_view->tabs()->isTabVisible(tab);
        action->setVisible(visible);
        if (visible && position < 9) {
            action->setShortcut(QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_1 + position))));
            ++position;
        } else {
            action->setShortcut(QKeySequence());
        }
        action->setEnabled(haveDocument || tab == ComparisonView::BenchTab || tab == ComparisonView::CapacityTab);
    }
}

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setToolTipsVisible(true);
    const auto copy = [this](bool asMarkdown) {
        QAbstractItemView* view = copyTarget();
        const int rows = view ? static_cast<int>(exporting::selectedRowsTsv(view).count(QLatin1Char('\n')) - 1) : 0;
        if (!exporting::copySelectedRows(view, asMarkdown)) {
            statusBar()->showMessage(tr("Nothing to copy: select one or more rows of a table first."), 5000);
            return;
        }
        statusBar()->showMessage(asMarkdown
                                     ? tr("Copied %n row(s) as a Markdown table.", nullptr, rows)
                                     : tr("Copied %n row(s), tab-separated, with the column headers.", nullptr, rows),
                                 5000);
    };
    m_copyAction = edit->addAction(tr("&Copy"), this, [copy] { copy(false); });
    m_copyAction->setObjectName(QStringLiteral("editCopy"));
    m_copyAction->setShortcut(QKeySequence(QKeySequence::Copy));
    m_copyMarkdownAction = edit->addAction(tr("Copy as &Markdown"), this, [copy] { copy(true); });
    m_copyMarkdownAction->setObjectName(QStringLiteral("editCopyMarkdown"));
    m_copyMarkdownAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    // Enabled while the table they copy from has a selected row: that table changes with the focus and the tab.
    connect(edit, &QMenu::aboutToShow, this, &MainWindow::updateCopyActions);
    connect(qApp, &QApplication::focusChanged, this, [this] { updateCopyActions(); });
    connect(m_view->tabs(), &QTabWidget::currentChanged, this, [this] { updateCopyActions(); });
    updateCopyActions();
}

QAbstractItemView* MainWindow::copyTarget() const {
    if (!m_doc.current() || !m_view) return nullptr;
    QWidget* page = m_view->tabs()->currentWidget();
    if (!page) return nullptr;
    // The table with the keyboard focus, when it is on the current tab.
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        auto* view = qobject_cast<QAbstractItemView*>(w);
        if (view && page->isAncestorOf(view) && view->isVisible()) return view;
    }
    if (m_view->tabs()->currentIndex() == ComparisonView::EvalsTab) return m_view->taskTable()->treeView();
    // Else the tab's first table with a selection, else its first table (in the order the tab built them).
    QAbstractItemView* first = nullptr;
    for (QAbstractItemView* view : page->findChildren<QAbstractItemView*>()) {
        if (!view->isVisible()) continue;
        if (exporting::hasSelectedRows(view)) return view;
        if (!first) first = view;
    }
    return first;
}

void MainWindow::updateCopyActions() {
    if (!m_copyAction) return;
    QAbstractItemView* view = copyTarget();
    if (view != m_copyView || !m_copySelection) {
        disconnect(m_copySelection);
        m_copyView = view;
        if (view && view->selectionModel())
            m_copySelection = connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                                      [this] { updateCopyActions(); });
    }
    const bool any = exporting::hasSelectedRows(view);
    const QString why = !m_doc.current() ? tr("Nothing to copy: no comparison is open")
                                         : tr("Nothing to copy: select one or more rows of a table first");
    m_copyAction->setEnabled(any);
    m_copyMarkdownAction->setEnabled(any);
    m_copyAction->setStatusTip(any ? tr("The selected rows as tab-separated text, with the visible columns' headers")
                                   : why);
    m_copyMarkdownAction->setStatusTip(any ? tr("The selected rows as a Markdown table") : why);
    m_copyAction->setToolTip(m_copyAction->statusTip());
    m_copyMarkdownAction->setToolTip(m_copyMarkdownAction->statusTip());
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("fp8dash &Guide"), this, [this] { openGuide(); });
    guide->setShortcut(QKeySequence(QStringLiteral("F1")));
    guide->setStatusTip(tr("The documentation, offline: every tab, the verdict's rules, files, the command line"));
    QAction* glossary = help->addAction(tr("G&lossary"), this, [this] { openGlossary(); });
    glossary->setShortcut(QKeySequence(QStringLiteral("Shift+F1")));
    glossary->setStatusTip(tr("What GO, MONITOR, INVESTIGATE, significant, settled, σ, recovery and equivalence mean"));
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showKeyboardShortcuts(); });
    keys->setShortcut(QKeySequence(QStringLiteral("Ctrl+/")));
    keys->setStatusTip(tr("Every menu action with a key"));
    help->addSeparator();
    QAction* about = help->addAction(tr("&About fp8dash"), this, &MainWindow::showAbout);
    about->setShortcut(QKeySequence(QStringLiteral("Ctrl+F1")));
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+F1")));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    // The banner's "What does … mean?" links.
    connect(m_view->verdictBanner(), &VerdictBanner::glossaryRequested, this,
            [this](const QString& term) { openGlossary(term); });
}

GuideWindow* MainWindow::openGuide(const QString& page, const QString& anchor) {
    if (!m_guide) m_guide = new GuideWindow(m_guideRoot.isEmpty() ? GuideWindow::builtInRoot() : m_guideRoot, this);
    m_guide->openPage(page, anchor);
    return m_guide;
}

GuideWindow* MainWindow::openGlossary(const QString& term) {
    return openGuide(QStringLiteral("glossary.md"), term);
}

GuideWindow* MainWindow::guideWindow() const {
    return m_guide;
}

void MainWindow::setGuideRoot(const QUrl& root) {
    m_guideRoot = root;
    delete m_guide;  // the next openGuide reads the new root's pages
}

KeyboardShortcutsDialog* MainWindow::showKeyboardShortcuts() {
    auto* dialog = new KeyboardShortcutsDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

}  // namespace fp8dash::ui
