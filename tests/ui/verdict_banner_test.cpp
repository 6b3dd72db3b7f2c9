// The verdict banner on a laptop: collapsed to one line (verdict, counts, decision) with the reasons a click away,
// the choice remembered per user, and a 1366 x 768 window that shows the task table's first rows without
// scrolling. FP8DASH_SCREENSHOT_DIR, when set, receives a picture of that window (for a review by eye).
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <iostream>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class VerdictBannerTest : public GuiTest {};

TEST_F(VerdictBannerTest, ALaptopWindowShowsTheFirstTaskRowsWithoutScrolling) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openDemo();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
    ASSERT_EQ(window.size(), QSize(1366, 768));
    ComparisonView* view = window.comparisonView();
    view->showTab(ComparisonView::EvalsTab);
    QApplication::processEvents();
    saveScreenshot(window, QStringLiteral("laptop-1366x768.png"));
    const VerdictBanner* banner = view->verdictBanner();
    std::cout << "banner height at 1366 x 768: " << banner->height() << " px\n";

    QTreeView* tree = view->taskTable()->treeView();
    ASSERT_TRUE(tree->isVisible());
    const QAbstractItemModel* model = tree->model();
    // The demo's six tasks: the first three rows are wholly inside the table's viewport, with the header above them
    // and nothing scrolled.
    ASSERT_GE(model->rowCount(), 3);
    EXPECT_EQ(tree->verticalScrollBar()->value(), 0);
    const QRect viewport = tree->viewport()->rect();
    for (int r = 0; r < 3; ++r) {
        const QRect row = tree->visualRect(model->index(r, 0));
        EXPECT_TRUE(row.isValid()) << r;
        EXPECT_TRUE(viewport.contains(row.topLeft()) && viewport.contains(row.bottomLeft()))
            << "row " << r << " at y " << row.top() << ".." << row.bottom() << ", viewport height "
            << viewport.height();
    }
    // And the table is not squeezed to a sliver: at least a third of the window's height.
    EXPECT_GE(tree->height(), window.height() / 3) << "table height " << tree->height();
}

// Collapsed at first: one line with the verdict, the counts and the decision; Details shows the reasons and the
// rest, and the choice is remembered for the next window (QSettings, per user).
TEST_F(VerdictBannerTest, OneLineUntilDetailsAndTheChoiceIsRemembered) {
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openDemo();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    VerdictBanner* banner = window.comparisonView()->verdictBanner();
    QWidget* details = banner->findChild<QWidget*>(QStringLiteral("bannerDetailsPane"));
    ASSERT_NE(details, nullptr);
    EXPECT_FALSE(banner->detailsShown());
    EXPECT_FALSE(details->isVisible());
    // The demo, read independently: six tasks (gsm8k investigate, arc_challenge monitor, four go), the judge's
    // paired samples, the production verdict and the reviewer's "rejected".
    const Json demo = demoJson();
    const std::size_t pairs = demo["judge"]["baseline"]["samples"].size();
    const Json& decision = demo["review"]["decisions"].back();
    ASSERT_EQ(decision["outcome"].get<std::string>(), "rejected");
    const QString expected = QStringLiteral(
                                 "6 tasks compared · 1 investigate · 1 monitor · 4 go · domain judge: MONITOR (%1 "
                                 "pairs) · production: GO  —  Decision: Rejected — by %2")
                                 .arg(pairs)
                                 .arg(QString::fromStdString(decision["by"].get<std::string>()));
    EXPECT_EQ(banner->summaryText(), expected);
    EXPECT_TRUE(banner->recordButton()->isVisible());
    const int collapsed = banner->height();

    QTest::mouseClick(banner->detailsButton(), Qt::LeftButton);
    QApplication::processEvents();
    EXPECT_TRUE(banner->detailsShown());
    EXPECT_TRUE(details->isVisible());
    EXPECT_TRUE(banner->reasonsText().contains(QStringLiteral("gsm8k")));
    EXPECT_EQ(QSettings().value(QStringLiteral("view/bannerDetails")).toBool(), true);
    window.comparisonView()->layout()->activate();
    QApplication::processEvents();
    const int expanded = banner->height();
    saveScreenshot(window, QStringLiteral("laptop-1366x768-details.png"));
    std::cout << "banner height at 1366 x 768: " << collapsed << " px collapsed, " << expanded << " px with details\n";
    EXPECT_LT(collapsed, expanded);

    {
        MainWindow next;  // a new window follows the remembered choice
        next.openDemo();
        EXPECT_TRUE(next.comparisonView()->verdictBanner()->detailsShown());
    }
    QTest::mouseClick(banner->detailsButton(), Qt::LeftButton);
    EXPECT_FALSE(banner->detailsShown());
    EXPECT_EQ(QSettings().value(QStringLiteral("view/bannerDetails")).toBool(), false);
    MainWindow third;
    third.openDemo();
    EXPECT_FALSE(third.comparisonView()->verdictBanner()->detailsShown());
}

}  // namespace
}  // namespace fp8dash::ui::test
