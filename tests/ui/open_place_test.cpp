// Issue 39, "Open at a place": `fp8dash FILE.fp8cmp --tab NAME --task TASK --candidate LABEL` (open_place.h). A saved
// three-variant ladder (tests/data/lm-eval-ladder) opened as the app opens its start-up files and as the running
// instance takes a second start's, lands on the tab, the candidate and the task asked for; names it lacks are said,
// naming the option and the valid choices, and the file is still open.
#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <optional>
#include <thread>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/gui_main.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/open_place.h"
#include "fp8dash/ui/single_instance.h"
#include "fp8dash/ui/task_table_view.h"
#include "gui_test_support.h"

namespace fp8dash::ui {
namespace {

const char* kW8a8Kv = "FP8 W8A8 + FP8 KV (scales 1.0)";

class OpenPlaceTest : public test::GuiTest {
protected:
    // The ladder, three candidates, saved as a comparison file: its path.
    QString savedLadder() {
        const QString ladder = QStringLiteral(FP8DASH_TEST_DATA "/lm-eval-ladder");
        NewComparisonRequest r;
        r.baselinePath = ladder + QStringLiteral("/bf16");
        r.candidatePath = ladder + QStringLiteral("/w8a8");
        r.moreCandidatePaths = {ladder + QStringLiteral("/w8a8-kv"), ladder + QStringLiteral("/w8a8-kv-cal")};
        r.moreCandidateLabels = {QString(), QString()};
        r.recommendation.accept = Verdict::Monitor;
        auto built = buildNewComparison(r);
        EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
        const QString path = m_dir.filePath(QStringLiteral("ladder.fp8cmp"));
        if (built.ok()) {
            EXPECT_TRUE(saveComparisonFile(built->document, path.toStdString()).ok());
        }
        return path;
    }

    // Waits until `window` shows its document and the place has been applied (the turn of the loop after).
    static void settle(MainWindow* window) {
        ASSERT_TRUE(QTest::qWaitFor([window] { return window->current() && !window->isLoading(); }, 20000));
        QTest::qWait(50);
    }

    static QString currentTask(MainWindow* window) {
        QTreeView* tree = window->comparisonView()->taskTable()->treeView();
        return window->comparisonView()->taskTable()->taskAt(tree->currentIndex());
    }

    static QMessageBox* problemsBox() {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->objectName() == QStringLiteral("openPlaceProblems") && w->isVisible())
                return qobject_cast<QMessageBox*>(w);
        return nullptr;
    }

    static void closeAll() {
        for (MainWindow* w : MainWindow::windows()) w->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QApplication::processEvents();
    }

    void TearDown() override { closeAll(); }

    QTemporaryDir m_dir;
};

TEST_F(OpenPlaceTest, OpensAtTheTabCandidateAndTaskAskedFor) {
    const QString file = savedLadder();
    // The tab as typed in a terminal: any case, '-' for the space; the candidate's label in another case.
    const OpenPlace place{QStringLiteral("offline-EVALS"), QStringLiteral("arc_challenge"),
                          QString::fromUtf8(kW8a8Kv).toUpper()};
    MainWindow* window = openStartupWindows({file.toStdString()}, false, place);
    ASSERT_NE(window, nullptr);
    settle(window);
    ComparisonView* view = window->comparisonView();
    EXPECT_EQ(view->tabs()->currentIndex(), ComparisonView::EvalsTab);
    // The second candidate of the file, by its label: the picker shows it, and the table is its.
    ASSERT_TRUE(window->current()->decision.variants);
    EXPECT_EQ(toQString(window->current()->decision.variants->variants[1].label), QString::fromUtf8(kW8a8Kv));
    EXPECT_EQ(view->shownCandidate(), 1);
    EXPECT_TRUE(view->candidatePicker()->currentText().contains(QString::fromUtf8(kW8a8Kv)))
        << view->candidatePicker()->currentText().toStdString();
    EXPECT_EQ(currentTask(window), QStringLiteral("arc_challenge"));
    EXPECT_TRUE(
        view->taskTable()->treeView()->selectionModel()->isSelected(view->taskTable()->treeView()->currentIndex()));
    EXPECT_EQ(problemsBox(), nullptr);
    closeAll();

    // Another tab by its visible title (the part before " · "), and a task without a tab: the Evals tab.
    window = openStartupWindows({file.toStdString()}, false, {QStringLiteral("which layers"), {}, {}});
    settle(window);
    EXPECT_EQ(window->comparisonView()->tabs()->currentIndex(), ComparisonView::LayersTab);
    closeAll();
    window = openStartupWindows({file.toStdString()}, false, {QString(), QStringLiteral("GSM8K"), QString()});
    settle(window);
    EXPECT_EQ(window->comparisonView()->tabs()->currentIndex(), ComparisonView::EvalsTab);
    EXPECT_EQ(currentTask(window), QStringLiteral("gsm8k"));
    // Every visible tab by its title in lower case: that tab.
    QTabWidget* tabs = window->comparisonView()->tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (!tabs->isTabVisible(i)) continue;
        const QString title = tabs->tabText(i).remove(QLatin1Char('&')).section(QStringLiteral(" · "), 0, 0);
        EXPECT_TRUE(goToPlace(*window, {title.toLower(), {}, {}}).isEmpty()) << title.toStdString();
        EXPECT_EQ(tabs->currentIndex(), i) << title.toStdString();
    }
}

TEST_F(OpenPlaceTest, NamesItLacksAreSaidWithTheChoicesAndTheFileStaysOpen) {
    const QString file = savedLadder();
    MainWindow* window =
        openStartupWindows({file.toStdString()}, false,
                           {QStringLiteral("Evaluations"), QStringLiteral("gsm8"), QStringLiteral("FP8 W8A8 + KV")});
    ASSERT_NE(window, nullptr);
    settle(window);
    ASSERT_TRUE(window->current());  // open all the same
    EXPECT_EQ(window->documentPath(), file);
    QMessageBox* box = nullptr;
    ASSERT_TRUE(QTest::qWaitFor([&box] { return (box = problemsBox()) != nullptr; }, 5000));
    const QString text = box->text();
    // Each option named, with what it was given and every valid choice (from the file, not from the app's words).
    EXPECT_TRUE(text.contains(QStringLiteral("The tab “Evaluations”"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("The task “gsm8”"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("The candidate “FP8 W8A8 + KV”"))) << text.toStdString();
    for (const VariantResult& v : window->current()->decision.variants->variants)
        EXPECT_TRUE(text.contains(toQString(v.label))) << v.label;
    for (const TaskComparison& t : window->current()->report.tasks)
        EXPECT_TRUE(text.contains(toQString(t.task))) << t.task;
    const QTabWidget* tabs = window->comparisonView()->tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        const QString title = tabs->tabText(i).section(QStringLiteral(" · "), 0, 0);
        EXPECT_EQ(text.contains(QStringLiteral(": ") + title) || text.contains(QStringLiteral(", ") + title),
                  tabs->isTabVisible(i))
            << title.toStdString();
    }
    // No command-line flag in the window's words; the terminal's line names the option as typed.
    EXPECT_FALSE(text.contains(QStringLiteral("--")));
    const QList<PlaceProblem> problems = goToPlace(*window, {QStringLiteral("nope"), {}, {}});
    ASSERT_EQ(problems.size(), 1);
    EXPECT_TRUE(
        problems[0].terminalText().startsWith(QStringLiteral("--tab \"nope\": no such tab in this comparison; "
                                                             "its tabs: Offline evals, Which layers")))
        << problems[0].terminalText().toStdString();
    box->close();
}

// A second start hands its file and place to the running instance (one JSON line), which opens the file there.
TEST_F(OpenPlaceTest, TheRunningInstanceTakesThePlaceWithTheFile) {
    const QString file = savedLadder();
    const QString server = m_dir.filePath(QStringLiteral("instance-socket"));
    SingleInstance instance;
    ASSERT_TRUE(instance.listen(server));
    QSignalSpy requested(&instance, &SingleInstance::openRequested);
    const OpenPlace place{QStringLiteral("Offline evals"), QStringLiteral("gsm8k"),
                          QStringLiteral("FP8 W8A8 + FP8 KV (calibrated scales)")};
    std::optional<SingleInstance::HandOff> handed;
    std::thread client([&] { handed = SingleInstance::handOff({file}, false, server, 10000, place); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return requested.count() == 1; }, 15000));
    client.join();
    ASSERT_TRUE(handed.has_value());
    EXPECT_EQ(handed->files, 1);
    const QJsonObject received = requested.at(0).at(2).toJsonObject();
    const OpenPlace got = OpenPlace::fromJson(received);
    EXPECT_EQ(got.tab, place.tab);
    EXPECT_EQ(got.task, place.task);
    EXPECT_EQ(got.candidate, place.candidate);

    MainWindow* window = openHandedOver(requested.at(0).at(0).toStringList(), false, got);
    ASSERT_NE(window, nullptr);
    settle(window);
    EXPECT_EQ(window->comparisonView()->shownCandidate(), 2);
    EXPECT_EQ(currentTask(window), QStringLiteral("gsm8k"));
    EXPECT_EQ(window->comparisonView()->tabs()->currentIndex(), ComparisonView::EvalsTab);

    // Handed over again while it shows that file: the same window moves to the new place.
    EXPECT_EQ(openHandedOver({file}, false, {QStringLiteral("review"), {}, {}}), window);
    QTest::qWait(50);
    EXPECT_EQ(window->comparisonView()->tabs()->currentIndex(), ComparisonView::ReviewTab);
    // A start without a place sends none.
    EXPECT_TRUE(OpenPlace{}.toJson().isEmpty());
}

}  // namespace
}  // namespace fp8dash::ui
