// Issue 29, "Finding help": Help › Keyboard Shortcuts read from the menus, Ctrl+1 … Ctrl+N on the visible tabs in tab
// order, Edit › Copy and Copy as Markdown of the selected rows, and the guide (pages, links, headings' anchors, Back,
// a page it does not have, the glossary from the banner).
#include <gtest/gtest.h>

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFragment>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include <functional>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/json_text.h"
#include "fp8dash/core/markdown_text.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/export_actions.h"
#include "fp8dash/ui/guide_window.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/shortcuts_dialog.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/theme.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"
#include "hostile_comparison.h"

namespace fp8dash::ui {
namespace {

class HelpMenuTest : public test::GuiTest {};

// The menu bar walked here, on its own: each visible action with a key, once (an action in two menus counts once),
// as "text=keys".
QStringList walkedShortcuts(const QMenuBar* bar) {
    QStringList found;
    QSet<const QAction*> seen;
    std::function<void(const QMenu*)> walk = [&](const QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->isSeparator() || !a->isVisible()) continue;
            if (a->menu()) {
                walk(a->menu());
                continue;
            }
            if (a->shortcuts().isEmpty() || seen.contains(a)) continue;
            seen.insert(a);
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
            found << a->text().remove(QLatin1Char('&')) + QLatin1Char('=') + keys.join(QStringLiteral(", "));
        }
    };
    for (QAction* top : bar->actions())
        if (top->menu()) walk(top->menu());
    return found;
}

TEST_F(HelpMenuTest, KeyboardShortcutsListsEveryMenuActionWithAKey) {
    MainWindow window;
    window.openDemo();
    QStringList expected = walkedShortcuts(window.menuBar());
    KeyboardShortcutsDialog* dialog = window.showKeyboardShortcuts();
    ASSERT_NE(dialog, nullptr);
    QStringList listed;
    QStringList groups;
    for (int g = 0; g < dialog->tree()->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = dialog->tree()->topLevelItem(g);
        groups << group->text(0);
        for (int i = 0; i < group->childCount(); ++i) {
            const QTreeWidgetItem* item = group->child(i);
            // The path starts with its group; the action's text is its last step.
            EXPECT_TRUE(item->text(0).startsWith(group->text(0) + QStringLiteral(" › ")))
                << item->text(0).toStdString();
            listed << item->text(0).section(QStringLiteral(" › "), -1) + QLatin1Char('=') + item->text(1);
        }
    }
    EXPECT_EQ(listed.size(), expected.size());
    QStringList sortedListed = listed, sortedExpected = expected;
    sortedListed.sort();
    sortedExpected.sort();
    EXPECT_EQ(sortedListed, sortedExpected) << listed.join(u' ').toStdString();
    // Grouped by menu, in the menu bar's order.
    EXPECT_EQ(groups.first(), QStringLiteral("File"));
    EXPECT_EQ(groups.at(1), QStringLiteral("Edit"));
    EXPECT_EQ(groups.last(), QStringLiteral("Help"));
    // The new actions are among them, each key once.
    for (const QString& s : {QStringLiteral("Copy=Ctrl+C"), QStringLiteral("Copy as Markdown=Ctrl+Shift+C"),
                             QStringLiteral("fp8dash Guide=F1"), QStringLiteral("Glossary=Shift+F1"),
                             QStringLiteral("Keyboard Shortcuts=Ctrl+/"), QStringLiteral("Show Offline Evals=Ctrl+1"),
                             QStringLiteral("About fp8dash=Ctrl+F1")})
        EXPECT_TRUE(listed.contains(s)) << s.toStdString() << " in " << listed.join(u' ').toStdString();
    QStringList keys;
    for (const QString& s : listed) keys << s.section(QLatin1Char('='), 1).split(QStringLiteral(", "));
    EXPECT_EQ(QSet<QString>(keys.begin(), keys.end()).size(), keys.size()) << keys.join(u' ').toStdString();
    // The filter: by key or by text.
    dialog->setFilter(QStringLiteral("Ctrl+Shift+C"));
    EXPECT_EQ(dialog->visibleCount(), 1);
    dialog->setFilter(QStringLiteral("show"));
    EXPECT_EQ(dialog->visibleCount(),
              static_cast<int>(std::count_if(listed.begin(), listed.end(), [](const QString& s) {
                  return s.contains(QStringLiteral("show"), Qt::CaseInsensitive);
              })));
    dialog->setFilter(QString());
    EXPECT_EQ(dialog->visibleCount(), listed.size());
    dialog->close();
}

LoadedComparison ladderWithVariants() {
    const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
    NewComparisonRequest r;
    r.baselinePath = ladder + QStringLiteral("/bf16");
    r.candidatePath = ladder + QStringLiteral("/w8a8");
    r.moreCandidatePaths = {ladder + QStringLiteral("/w8a8-kv"), ladder + QStringLiteral("/w8a8-kv-cal")};
    r.moreCandidateLabels = {QString(), QString()};
    r.recommendation.accept = Verdict::Monitor;
    auto built = buildNewComparison(r);
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    return built.ok() ? std::move(built).value() : LoadedComparison{};
}

// Ctrl+1 … Ctrl+N, pressed on the window, bring the Nth visible tab to the front: N counted here from the tab bar.
void expectNumberKeysFollowVisibleTabs(MainWindow& window, int expectedVisible) {
    QTabWidget* tabs = window.comparisonView()->tabs();
    QList<int> visible;
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->isTabVisible(i)) visible << i;
    ASSERT_EQ(visible.size(), expectedVisible);
    for (int n = visible.size(); n >= 1; --n) {  // backwards: each press moves the tab
        QTest::keyClick(&window, Qt::Key(Qt::Key_0 + n), Qt::ControlModifier);
        EXPECT_EQ(tabs->currentIndex(), visible[n - 1]) << "Ctrl+" << n;
        // View › Go to Tab names that key for that tab.
        EXPECT_EQ(window.tabAction(visible[n - 1])->shortcut(),
                  QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_0 + n))));
    }
    // The key after the last is no tab's.
    for (QAction* a : window.findChildren<QAction*>())
        EXPECT_NE(a->shortcut(), QKeySequence(QKeyCombination(Qt::ControlModifier,
                                                              Qt::Key(Qt::Key_1 + static_cast<int>(visible.size())))))
            << a->text().toStdString();
}

TEST_F(HelpMenuTest, CtrlNumberGoesToTheNthVisibleTabWithAndWithoutVariants) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.openDemo();  // two runs: no Which layers tab
    ASSERT_FALSE(window.comparisonView()->tabs()->isTabVisible(ComparisonView::LayersTab));
    EXPECT_FALSE(window.tabAction(ComparisonView::LayersTab)->isVisible());
    expectNumberKeysFollowVisibleTabs(window, 7);  // evals, judge, timeline, serving, benchmarks, capacity, review
    EXPECT_EQ(window.tabAction(ComparisonView::ReviewTab)->shortcut(), QKeySequence(QStringLiteral("Ctrl+7")));

    window.showDocument(ladderWithVariants().document, {}, QStringLiteral("ladder"));
    ASSERT_TRUE(window.comparisonView()->tabs()->isTabVisible(ComparisonView::LayersTab));
    EXPECT_TRUE(window.tabAction(ComparisonView::LayersTab)->isVisible());
    expectNumberKeysFollowVisibleTabs(window, 8);
    EXPECT_EQ(window.tabAction(ComparisonView::LayersTab)->shortcut(), QKeySequence(QStringLiteral("Ctrl+2")));
    // The Go to Tab menu lists the visible tabs in tab order.
    QStringList menu;
    for (QAction* a : window.goToTabMenu()->actions())
        if (a->isVisible()) menu << a->shortcut().toString(QKeySequence::PortableText);
    EXPECT_EQ(menu, (QStringList{QStringLiteral("Ctrl+1"), QStringLiteral("Ctrl+2"), QStringLiteral("Ctrl+3"),
                                 QStringLiteral("Ctrl+4"), QStringLiteral("Ctrl+5"), QStringLiteral("Ctrl+6"),
                                 QStringLiteral("Ctrl+7"), QStringLiteral("Ctrl+8")}));
}

// The columns the user sees, in the header's order.
// The columns a copy holds: those shown, and those the table hid only for lack of room (docs/desktop-app.md "On a
// small screen": a copy keeps them), in visual order.
QList<int> shownColumns(const QTreeView* view) {
    QList<int> columns;
    const QHeaderView* header = view->header();
    const QVariantList forRoom = view->property("fp8dashHiddenForRoom").toList();
    for (int v = 0; v < header->count(); ++v) {
        const int logical = header->logicalIndex(v);
        if (!header->isSectionHidden(logical) || forRoom.contains(logical)) columns << logical;
    }
    return columns;
}

// The rows as the copy should give them, from the model here: the header, then each row's DisplayRole texts.
QList<QStringList> expectedRows(const QTreeView* view, const QList<QModelIndex>& rows) {
    QList<QStringList> out;
    QStringList head;
    for (int c : shownColumns(view)) head << view->model()->headerData(c, Qt::Horizontal).toString();
    out << head;
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c : shownColumns(view)) cells << r.sibling(r.row(), c).data(Qt::DisplayRole).toString();
        out << cells;
    }
    return out;
}

// A Markdown table row's cells: split on the '|' that no backslash escapes.
QStringList markdownCells(const QString& line) {
    QStringList cells;
    QString cell;
    for (int i = 1; i < line.size() - 1; ++i) {  // inside the outer pipes
        if (line[i] == QLatin1Char('|') && line[i - 1] != QLatin1Char('\\')) {
            cells << cell.trimmed();
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    cells << cell.trimmed();
    return cells;
}

TEST_F(HelpMenuTest, CopyAndCopyAsMarkdownGiveTheSelectedRowsWithAHostileNameInOneCell) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    auto doc = parseComparisonJson(fp8dash::test::hostileComparison(test::demoJson()), "hostile.fp8cmp");
    ASSERT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message);
    window.showDocument(*doc, {}, QStringLiteral("hostile"));
    window.comparisonView()->showTab(ComparisonView::EvalsTab);
    QTreeView* tree = window.comparisonView()->taskTable()->treeView();
    const QAbstractItemModel* model = tree->model();

    // Nothing selected: both disabled, saying why.
    tree->setFocus();
    tree->selectionModel()->clearSelection();
    QApplication::processEvents();
    EXPECT_FALSE(window.copyAction()->isEnabled());
    EXPECT_FALSE(window.copyMarkdownAction()->isEnabled());
    EXPECT_TRUE(window.copyAction()->statusTip().contains(QStringLiteral("select")))
        << window.copyAction()->statusTip().toStdString();

    // Two rows: the hostile hellaswag (a Markdown takeover with line breaks in its name) and the last top-level row.
    const std::string hostileName = fp8dash::test::hostileTaskNames().front().second;
    QModelIndex hostile;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data(Qt::DisplayRole).toString().startsWith(QStringLiteral("hellaswag ")))
            hostile = model->index(r, 0);
    ASSERT_TRUE(hostile.isValid());
    ASSERT_TRUE(hostile.data(Qt::DisplayRole).toString().contains(QLatin1Char('\n')) ||
                hostile.data(Qt::DisplayRole).toString().contains(QStringLiteral("===")));
    QModelIndex last = model->index(model->rowCount() - 1, 0);
    if (last == hostile) last = model->index(0, 0);
    const QList<QModelIndex> rows =
        hostile.row() < last.row() ? QList<QModelIndex>{hostile, last} : QList<QModelIndex>{last, hostile};
    tree->selectionModel()->select(last, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    tree->selectionModel()->select(hostile, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    EXPECT_TRUE(window.copyAction()->isEnabled());
    EXPECT_EQ(window.copyTarget(), tree);

    const QList<QStringList> expected = expectedRows(tree, rows);
    // TSV, by the key in the table.
    QApplication::clipboard()->clear();
    QTest::keyClick(tree, Qt::Key_C, Qt::ControlModifier);
    const QString tsv = QApplication::clipboard()->text();
    QStringList lines = tsv.split(QLatin1Char('\n'));
    ASSERT_EQ(lines.size(), 4) << tsv.toStdString();  // header, two rows, the final newline
    EXPECT_TRUE(lines.last().isEmpty());
    for (int i = 0; i < 3; ++i) {
        const QStringList cells = lines[i].split(QLatin1Char('\t'));
        ASSERT_EQ(cells.size(), expected[i].size()) << lines[i].toStdString();
        for (int c = 0; c < cells.size(); ++c) {
            QString want = expected[i][c];
            want.replace(QRegularExpression(QStringLiteral("[\\t\\n\\r\\x{2028}\\x{2029}]")), QStringLiteral(" "));
            EXPECT_EQ(cells[c], want);
        }
    }
    EXPECT_TRUE(lines[1 + rows.indexOf(hostile)].startsWith(QStringLiteral("hellaswag ")));

    // Markdown, by the key: a pipe table whose every row has the header's cells, the hostile name in its one.
    QApplication::clipboard()->clear();
    QTest::keyClick(tree, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    const QString md = QApplication::clipboard()->text();
    lines = md.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4) << md.toStdString();  // header, rule, two rows
    std::vector<std::vector<std::string>> body;
    std::vector<std::string> head;
    for (const QString& h : expected[0]) head.push_back(h.toStdString());
    for (int i = 1; i < 3; ++i) {
        auto& cells = body.emplace_back();
        for (const QString& c : expected[i])
            cells.push_back(markdown::escape(c.toStdString(), markdown::Where::TableCell));
        EXPECT_EQ(markdownCells(lines[1 + i]).size(), expected[i].size()) << lines[1 + i].toStdString();
    }
    std::vector<markdown::Align> align;
    for (int c : shownColumns(tree)) {
        const int a = rows.front().sibling(rows.front().row(), c).data(Qt::TextAlignmentRole).toInt();
        align.push_back((a & Qt::AlignRight) ? markdown::Align::Right : markdown::Align::Left);
    }
    EXPECT_EQ(md.toStdString(), markdown::table(head, align, body));
    EXPECT_FALSE(md.contains(QStringLiteral("\n===")));
    EXPECT_FALSE(md.contains(QStringLiteral("\n~~~")));

    // The table's context menu offers both.
    std::unique_ptr<QMenu> menu(exporting::createTableExportMenu(tree, {}));
    ASSERT_NE(menu->findChild<QAction*>(QStringLiteral("copyRows")), nullptr);
    EXPECT_TRUE(menu->findChild<QAction*>(QStringLiteral("copyRowsMarkdown"))->isEnabled());
}

// A guide of the test's own: a glossary long enough that its headings can be scrolled to the top, a second page with
// links, and an image-free page list.
QString writeGuide(const QTemporaryDir& dir) {
    QString glossary = QStringLiteral("# Glossary\n\nWords of the verdict.\n\n");
    for (const char* term : {"GO", "MONITOR", "INVESTIGATE", "Significant", "Settled", "Unsettled", "Equivalence",
                             "Sigma (σ)", "Recovery", "95 % interval", "Degradation"}) {
        glossary += QStringLiteral("## %1\n\n").arg(QString::fromUtf8(term));
        for (int p = 0; p < 12; ++p)
            glossary +=
                QStringLiteral("About %1, paragraph %2 of the explanation.\n\n").arg(QString::fromUtf8(term)).arg(p);
    }
    const QString judge = QStringLiteral(
        "# The domain judge\n\nSee [inconclusive](glossary.md#inconclusive) and [σ](glossary.md#sigma-σ), "
        "[a missing page](nowhere.md), [the web](https://example.org/).\n\n## Scores\n\nfindme here.\n");
    for (const auto& [name, text] :
         {std::pair{QStringLiteral("glossary.md"), glossary}, std::pair{QStringLiteral("judge.md"), judge}}) {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
    }
    return dir.path();
}

TEST_F(HelpMenuTest, TheGuideOpensTheGlossaryAtATermFollowsLinksAndGoesBack) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    writeGuide(dir);
    MainWindow window;
    window.setGuideRoot(QUrl::fromLocalFile(dir.path() + QLatin1Char('/')));
    window.openDemo();

    // Help › Glossary at "Unsettled": the heading is the first thing in view.
    GuideWindow* guide = window.openGlossary(QStringLiteral("Unsettled"));
    ASSERT_NE(guide, nullptr);
    guide->resize(900, 500);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(guide));
    guide->openPage(QStringLiteral("glossary.md"), QStringLiteral("Unsettled"));  // now that it has its size
    EXPECT_EQ(guide->currentPage(), QStringLiteral("glossary.md"));
    EXPECT_EQ(guide->browser()->firstVisibleBlockText(), QStringLiteral("Unsettled"));
    // The pages are listed by their first heading, the judge before the glossary (the README's order).
    EXPECT_EQ(guide->pageTitles(), (QStringList{QStringLiteral("The domain judge"), QStringLiteral("Glossary")}));
    // One window: Help › fp8dash Guide again brings the same one.
    EXPECT_EQ(window.openGuide(QStringLiteral("judge.md")), guide);
    EXPECT_EQ(guide->currentPage(), QStringLiteral("judge.md"));
    EXPECT_EQ(guide->pageList()->currentItem()->text(), QStringLiteral("The domain judge"));

    // A link to another page's heading (GitHub's anchor, with a non-ASCII letter), then Back and Forward.
    guide->browser()->setSource(guide->browser()->source().resolved(QUrl(QStringLiteral("glossary.md#sigma-σ"))));
    EXPECT_EQ(guide->currentPage(), QStringLiteral("glossary.md"));
    EXPECT_EQ(guide->browser()->firstVisibleBlockText(), QStringLiteral("Sigma (σ)"));
    EXPECT_TRUE(guide->backButton()->isEnabled());
    guide->backButton()->click();
    EXPECT_EQ(guide->currentPage(), QStringLiteral("judge.md"));
    EXPECT_TRUE(guide->forwardButton()->isEnabled());
    guide->forwardButton()->click();
    EXPECT_EQ(guide->currentPage(), QStringLiteral("glossary.md"));
    // A link within the page ("#95--interval": "95 % interval" by GitHub's rules).
    guide->browser()->setSource(guide->browser()->source().resolved(QUrl(QStringLiteral("#95--interval"))));
    EXPECT_EQ(guide->browser()->firstVisibleBlockText(), QStringLiteral("95 % interval"));

    // A page the guide does not have: a message naming it, not a blank view.
    guide->browser()->setSource(guide->browser()->source().resolved(QUrl(QStringLiteral("nowhere.md"))));
    const QString missing = guide->browser()->toPlainText();
    EXPECT_TRUE(missing.contains(QStringLiteral("Page not found"))) << missing.toStdString();
    EXPECT_TRUE(missing.contains(QStringLiteral("nowhere.md")));
    // The README (pages link back to it) is not in the guide: its link leads to the guide's first page (its home).
    guide->browser()->setSource(guide->browser()->source().resolved(QUrl(QStringLiteral("../README.md"))));
    EXPECT_EQ(guide->currentPage(), QStringLiteral("judge.md")) << guide->browser()->toPlainText().toStdString();
    // A file of the folder above the pages that the guide does not hold: where it is, not "Page not found".
    guide->browser()->setSource(guide->browser()->source().resolved(QUrl(QStringLiteral("../tests/README.md"))));
    EXPECT_TRUE(guide->browser()->toPlainText().startsWith(QStringLiteral("In the source folder")))
        << guide->browser()->toPlainText().toStdString();
    EXPECT_TRUE(guide->browser()->toPlainText().contains(QStringLiteral("tests/README.md")));

    // Find in page, wrapping around; and what it cannot find.
    guide->openPage(QStringLiteral("judge.md"));
    EXPECT_TRUE(guide->findInPage(QStringLiteral("findme")));
    EXPECT_EQ(guide->browser()->textCursor().selectedText(), QStringLiteral("findme"));
    EXPECT_TRUE(guide->findInPage(QStringLiteral("findme")));  // wraps to the same one
    EXPECT_FALSE(guide->findInPage(QStringLiteral("no such words")));

    // The banner's "What does … mean?" link opens the glossary at the verdict's word.
    guide->openPage(QStringLiteral("judge.md"));
    auto* reasons = window.comparisonView()->verdictBanner()->findChild<QLabel*>(QStringLiteral("bannerReasons"));
    ASSERT_NE(reasons, nullptr);
    const QString verdict = window.comparisonView()->verdictBanner()->verdictText();
    EXPECT_TRUE(reasons->text().contains(glossaryLink(verdict, QStringLiteral("color:white;"))))
        << reasons->text().toStdString();
    emit reasons->linkActivated(QStringLiteral("glossary:") + verdict);
    EXPECT_EQ(guide->currentPage(), QStringLiteral("glossary.md"));
    EXPECT_EQ(guide->browser()->firstVisibleBlockText(), verdict);
}

TEST_F(HelpMenuTest, GithubHeadingSlugs) {
    EXPECT_EQ(GuideWindow::headingSlug(QStringLiteral("Sigma (σ)")), QStringLiteral("sigma-σ"));
    EXPECT_EQ(GuideWindow::headingSlug(QStringLiteral("95 % interval")), QStringLiteral("95--interval"));
    EXPECT_EQ(GuideWindow::headingSlug(QStringLiteral("GO")), QStringLiteral("go"));
    EXPECT_EQ(GuideWindow::headingSlug(QStringLiteral("Files & reports: the .fp8cmp file")),
              QStringLiteral("files--reports-the-fp8cmp-file"));
    EXPECT_EQ(GuideWindow::headingSlug(QStringLiteral("snake_case-ok")), QStringLiteral("snake_case-ok"));
}

TEST_F(HelpMenuTest, AGuideWithoutPagesSaysSo) {
    QTemporaryDir dir;
    GuideWindow guide(QUrl::fromLocalFile(dir.path() + QLatin1Char('/')));
    guide.openPage(QStringLiteral("glossary.md"), QStringLiteral("GO"));  // what Help › Glossary asks for
    EXPECT_TRUE(guide.pageFiles().isEmpty());
    EXPECT_TRUE(guide.browser()->toPlainText().contains(QStringLiteral("without its documentation pages")))
        << guide.browser()->toPlainText().toStdString();
}

// The guide built into the application holds every page of docs/ (none, before there are any) but the screenshots'
// gallery, and the glossary has an entry for each word the app links to it.
TEST_F(HelpMenuTest, TheBuiltInGuideHoldsEveryDocsPage) {
    const QDir docs(QStringLiteral(FP8DASH_SOURCE_DIR "/docs"));
    QStringList pages = docs.entryList({QStringLiteral("*.md")}, QDir::Files);
    pages.removeAll(QStringLiteral("screenshots.md"));  // ~7 MB of pictures: left out of the app (resources/)
    GuideWindow guide;
    QStringList built = guide.pageFiles();
    pages.sort();
    built.sort();
    EXPECT_EQ(built, pages);
    if (!pages.contains(QStringLiteral("glossary.md"))) GTEST_SKIP() << "no docs/glossary.md in this tree";
    guide.openPage(QStringLiteral("glossary.md"));
    QStringList headings;
    for (QTextBlock b = guide.browser()->document()->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().headingLevel() > 0) headings << b.text();
    for (const char* term : {"GO", "MONITOR", "INVESTIGATE", "Significant", "Settled", "Unsettled", "Equivalence",
                             "Sigma (σ)", "Recovery", "95 % interval", "Degradation"})
        EXPECT_TRUE(headings.contains(QString::fromUtf8(term))) << term;
}

// The anchors (links) of the page a browser shows: each href with its text, in page order.
QList<std::pair<QString, QString>> linksIn(const QTextBrowser* browser) {
    QList<std::pair<QString, QString>> links;
    for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next()) {
        QString previous;  // the href of the fragment before, in this block
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            const QString href = f.charFormat().isAnchor() ? f.charFormat().anchorHref() : QString();
            if (!href.isEmpty() && href == previous)
                links.back().second += f.text();  // one link split in fragments by its formats (code, bold)
            else if (!href.isEmpty())
                links.append({href, f.text()});
            previous = href;
        }
    }
    return links;
}

// Issue 39: every link of every page built into the app, resolved as a click resolves it (against the page, then the
// guide's own resolver, GuideBrowser::resolvedLink and loadResource), opens a page: a page of the guide (at its
// heading, for a link to one), or a page saying where a file of the source folder is; never "Page not found". The
// pages' files on disk are checked by tools/check_docs_links.py; this checks what the app shows. Each page is opened
// once (its links and its headings' anchors read from the browser's document); a few links are also clicked through.
TEST_F(HelpMenuTest, EveryLinkOfTheBuiltInGuideOpensAPage) {
    GuideWindow guide;
    guide.resize(1000, 700);
    const QStringList pages = guide.pageFiles();
    if (pages.isEmpty()) GTEST_SKIP() << "a build without the guide's pages";
    GuideBrowser* browser = guide.browser();
    QHash<QString, QSet<QString>> anchorsOf;  // page -> its headings' anchors
    QHash<QString, QList<std::pair<QString, QString>>> linksOf;
    for (const QString& page : pages) {
        guide.openPage(page);
        ASSERT_EQ(guide.currentPage(), page);
        for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                for (const QString& name : it.fragment().charFormat().anchorNames()) anchorsOf[page].insert(name);
        linksOf[page] = linksIn(browser);
        // Inside the app the link back says where it goes.
        EXPECT_FALSE(browser->toPlainText().contains(QStringLiteral("Back to the README"))) << page.toStdString();
    }
    const QUrl root = GuideWindow::builtInRoot();
    const QString home = pages.front();
    EXPECT_EQ(home, QStringLiteral("getting-started.md"));
    int followed = 0, toHeadings = 0, backHome = 0, outside = 0;
    for (const QString& page : pages) {
        const QUrl from = root.resolved(QUrl(page));
        for (const auto& [href, label] : linksOf[page]) {
            const QUrl target = browser->resolvedLink(from.resolved(QUrl(href)));
            if (target.scheme() == QStringLiteral("http") || target.scheme() == QStringLiteral("https") ||
                target.scheme() == QStringLiteral("mailto"))
                continue;  // the desktop's browser opens those
            const std::string where =
                page.toStdString() + ": [" + label.toStdString() + "](" + href.toStdString() + ")";
            ++followed;
            const QString name = QFileInfo(target.path()).fileName();
            const bool inGuide = QFileInfo(target.path()).path() == QStringLiteral("/guide");
            if (inGuide && pages.contains(name)) {
                // A page of the guide, and the heading the link names is one of its anchors.
                if (!target.fragment().isEmpty()) {
                    ++toHeadings;
                    EXPECT_TRUE(anchorsOf[name].contains(target.fragment()))
                        << where << ": no heading #" << target.fragment().toStdString();
                }
                if (name == home && label == QStringLiteral("Back to Getting started")) ++backHome;
                continue;
            }
            // Not a page of the guide: what the guide shows for it.
            const QString shown = browser->loadResource(QTextDocument::MarkdownResource, target).toString();
            EXPECT_FALSE(shown.contains(QStringLiteral("Page not found"))) << where;
            // A file of the source folder, and the page names it.
            const QString path = QDir::cleanPath(target.path()).mid(1);
            const QString repo = inGuide ? QStringLiteral("docs/") + name : path;
            EXPECT_TRUE(QFileInfo::exists(QStringLiteral(FP8DASH_SOURCE_DIR "/") + repo)) << where;
            EXPECT_TRUE(shown.contains(repo)) << where << ": " << shown.left(300).toStdString();
            ++outside;
        }
    }
    EXPECT_GE(followed, 50);
    EXPECT_GE(toHeadings, 10);
    EXPECT_GE(outside, 1);                  // the screenshots' gallery, a test folder's README
    EXPECT_EQ(backHome, pages.size() - 1);  // every page but the home page links back to it

    // Clicked through as a reader does: the README's own link (what a page that was not rewritten would hold) lands
    // on the home page, Back returns; the gallery's link shows where the gallery is.
    guide.openPage(QStringLiteral("cli.md"));
    browser->setSource(browser->source().resolved(QUrl(QStringLiteral("../README.md"))));
    EXPECT_EQ(guide.currentPage(), home);
    EXPECT_TRUE(browser->toPlainText().startsWith(QStringLiteral("Getting started")));
    guide.backButton()->click();
    EXPECT_EQ(guide.currentPage(), QStringLiteral("cli.md"));
    browser->setSource(browser->source().resolved(QUrl(QStringLiteral("screenshots.md"))));
    EXPECT_TRUE(browser->toPlainText().contains(QStringLiteral("docs/screenshots.md")));
    EXPECT_FALSE(browser->toPlainText().contains(QStringLiteral("Page not found")));
}

// F1 opens the short first-steps page, first in the list; it links the pages a newcomer needs next.
TEST_F(HelpMenuTest, F1OpensGettingStarted) {
    MainWindow window;
    window.openDemo();
    QAction* f1 = nullptr;
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QStringLiteral("F1"))) f1 = a;
    ASSERT_NE(f1, nullptr);
    f1->trigger();
    GuideWindow* guide = window.guideWindow();
    ASSERT_NE(guide, nullptr);
    if (guide->pageFiles().isEmpty()) GTEST_SKIP() << "a build without the guide's pages";
    EXPECT_EQ(guide->currentPage(), QStringLiteral("getting-started.md"));
    EXPECT_EQ(guide->pageTitles().value(0), QStringLiteral("Getting started"));
    const QString text = guide->browser()->toPlainText();
    // Short: a first-steps page, not a reference (the desktop app's page is several times longer).
    const qsizetype words = text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).size();
    EXPECT_LT(words, 700) << words;
    QStringList targets;
    for (const auto& link : linksIn(guide->browser())) targets << QUrl(link.first).path();
    for (const char* page : {"glossary.md", "desktop-app.md", "comparing-evals.md", "files-and-reports.md", "cli.md"})
        EXPECT_TRUE(targets.contains(QString::fromLatin1(page))) << page;
    for (const char* step : {"Open the demo", "Read the banner", "New Comparison", "Save", "Present"})
        EXPECT_TRUE(text.contains(QString::fromUtf8(step))) << step;
    // Pictures for the closing note (FP8DASH_SCREENSHOT_DIR): the guide on a 1366 × 768 screen, both themes.
    const ThemeMode before = Theme::instance()->mode();
    guide->resize(1366, 768);
    for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        guide->openPage(QStringLiteral("getting-started.md"));
        QApplication::processEvents();
        test::saveScreenshot(*guide,
                             QStringLiteral("guide-getting-started-1366x768-%1.png")
                                 .arg(mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light")));
    }
    Theme::instance()->setMode(before);
}

}  // namespace
}  // namespace fp8dash::ui
