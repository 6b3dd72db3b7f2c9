// MainWindow: the demo on screen, opening files off the GUI thread, errors, stale loads, drag-and-drop.
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTreeView>
#include <QUrl>
#include <QtTest>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/task_table_model.h"
#include "fp8dash/ui/task_table_view.h"
#include "fp8dash/ui/verdict_banner.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class MainWindowTest : public GuiTest {};

QString demoTitle() {
    return QString::fromUtf8(kDemoName.data(), static_cast<qsizetype>(kDemoName.size()));
}

// A valid comparison file written with core's writer, for the window to open.
QString writeComparison(const QTemporaryDir& dir, const QString& name) {
    auto demo = loadDemoComparison();
    EXPECT_TRUE(demo.ok());
    const QString path = dir.filePath(name);
    EXPECT_TRUE(saveComparisonFile(demo.value(), path.toStdString()).ok());
    return path;
}

QString writeBroken(const QTemporaryDir& dir, const QString& name) {
    const QString path = dir.filePath(name);
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{ \"format\": \"fp8dash-comparison\", \"version\": 1, \"runs\": ");  // cut short
    return path;
}

// Lets every queued worker finish and every queued signal arrive, so "nothing else happened" can be asserted.
void drainBackgroundWork() {
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
}

TEST_F(MainWindowTest, DemoOpensWithInvestigateVerdictAndItsReasons) {
    MainWindow window;
    window.show();
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);

    // gsm8k drops (0.7399 - 0.7596) / 0.7596 = -2.59 %, beyond the 1.5 % investigate threshold.
    const VerdictBanner* banner = window.comparisonView()->verdictBanner();
    EXPECT_EQ(banner->verdictText(), QStringLiteral("INVESTIGATE"));
    EXPECT_TRUE(banner->reasonsText().contains(QStringLiteral("gsm8k"))) << banner->reasonsText().toStdString();
    EXPECT_TRUE(banner->thresholdsText().contains(QStringLiteral("0.5"))) << banner->thresholdsText().toStdString();
    EXPECT_TRUE(banner->thresholdsText().contains(QStringLiteral("1.5")));
    // arc_challenge -1.23 % is MONITOR; hellaswag, mmlu, truthfulqa_mc2 and winogrande (a gain) are GO. The demo's
    // illustrative judge scores (paired by id) and production timeline give their own lines.
    const Json demo = demoJson();
    const std::size_t pairs = demo["judge"]["baseline"]["samples"].size();
    ASSERT_EQ(pairs, demo["judge"]["candidate"]["samples"].size());
    const QString counts = banner->countsText();
    EXPECT_TRUE(counts.startsWith(QStringLiteral("6 tasks compared\n1 investigate · 1 monitor · 4 go\n")))
        << counts.toStdString();
    EXPECT_TRUE(counts.contains(QStringLiteral("domain judge: MONITOR (%1 pairs)").arg(pairs))) << counts.toStdString();
    EXPECT_TRUE(counts.endsWith(QStringLiteral("production: GO"))) << counts.toStdString();
    EXPECT_EQ(VerdictBanner::colorFor(Verdict::Investigate).name(), QStringLiteral("#c62828"));

    EXPECT_EQ(window.windowTitle(), demoTitle() + QStringLiteral(" — fp8dash"));
    EXPECT_TRUE(window.documentPath().isEmpty());

    // The runs' labels and models are on screen.
    const QString runs = window.comparisonView()->runsLabel()->text();
    EXPECT_TRUE(runs.contains(QStringLiteral("meta-llama/Meta-Llama-3-8B-Instruct"))) << runs.toStdString();
    EXPECT_TRUE(runs.contains(QStringLiteral("neuralmagic/Meta-Llama-3-8B-Instruct-FP8")));
    EXPECT_TRUE(runs.contains(QStringLiteral("BF16")));
}

TEST_F(MainWindowTest, OpenFileAsyncShowsTheFileAndNamesItInTheTitle) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = writeComparison(dir, QStringLiteral("team-review.fp8cmp"));

    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(path);
    EXPECT_TRUE(window.isLoading());
    const auto* busy = window.findChild<QProgressBar*>(QStringLiteral("busyIndicator"));
    ASSERT_NE(busy, nullptr);
    EXPECT_TRUE(busy->isVisible());  // the status bar says something is happening
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_FALSE(window.isLoading());
    EXPECT_FALSE(busy->isVisible());
    EXPECT_EQ(shown.takeFirst().at(0).toString(), path);
    EXPECT_EQ(window.windowTitle(), QStringLiteral("team-review.fp8cmp — fp8dash"));
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));
}

TEST_F(MainWindowTest, BrokenFileShowsAnErrorAndKeepsThePreviousDocument) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString broken = writeBroken(dir, QStringLiteral("broken.fp8cmp"));

    MainWindow window;
    window.show();
    window.openDemo();
    const QString titleBefore = window.windowTitle();
    const int rowsBefore = window.comparisonView()->taskTable()->model()->rowCount();

    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openFileAsync(broken);
    ASSERT_TRUE(failed.wait(20000));
    const QString message = failed.takeFirst().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("broken.fp8cmp"))) << message.toStdString();

    // A message box names the file and carries core's message.
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->isVisible());
    EXPECT_TRUE(box->text().contains(QStringLiteral("broken.fp8cmp"))) << box->text().toStdString();
    EXPECT_EQ(box->informativeText(), message);
    box->close();

    // Nothing the user had is lost.
    EXPECT_EQ(shown.count(), 0);
    EXPECT_EQ(window.windowTitle(), titleBefore);
    EXPECT_EQ(window.comparisonView()->taskTable()->model()->rowCount(), rowsBefore);
    EXPECT_EQ(window.comparisonView()->verdictBanner()->verdictText(), QStringLiteral("INVESTIGATE"));
    EXPECT_FALSE(window.isLoading());
}

TEST_F(MainWindowTest, MissingFileErrorNamesTheFile) {
    MainWindow window;
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openFileAsync(QStringLiteral("/nonexistent/place/nowhere.fp8cmp"));
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_TRUE(failed.at(0).at(1).toString().contains(QStringLiteral("nowhere.fp8cmp")));
    EXPECT_EQ(window.current(), nullptr);
}

TEST_F(MainWindowTest, ANewerLoadMakesAnOlderOneStale) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString good = writeComparison(dir, QStringLiteral("good.fp8cmp"));
    const QString broken = writeBroken(dir, QStringLiteral("later.fp8cmp"));

    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::documentShown);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openFileAsync(good);
    window.openFileAsync(broken);  // the user changed their mind: only this one counts
    drainBackgroundWork();
    EXPECT_EQ(shown.count(), 0);
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(0).toString().endsWith(QStringLiteral("later.fp8cmp")));

    // And a document shown directly supersedes a load still running.
    window.openFileAsync(good);
    window.openDemo();
    drainBackgroundWork();
    EXPECT_TRUE(window.documentPath().isEmpty());
    EXPECT_EQ(window.displayName(), demoTitle());
}

TEST_F(MainWindowTest, DropAcceptsComparisonFilesOnly) {
    auto mime = [](const QList<QUrl>& urls) {
        auto* data = new QMimeData;
        data->setUrls(urls);
        return data;
    };
    std::unique_ptr<QMimeData> cmp(mime({QUrl::fromLocalFile(QStringLiteral("/tmp/a.fp8cmp"))}));
    std::unique_ptr<QMimeData> upper(mime({QUrl::fromLocalFile(QStringLiteral("/tmp/B.FP8CMP"))}));
    std::unique_ptr<QMimeData> json(mime({QUrl::fromLocalFile(QStringLiteral("/tmp/results.json"))}));
    std::unique_ptr<QMimeData> remote(mime({QUrl(QStringLiteral("https://example.com/a.fp8cmp"))}));
    std::unique_ptr<QMimeData> text(new QMimeData);
    text->setText(QStringLiteral("/tmp/a.fp8cmp"));
    EXPECT_TRUE(MainWindow::canOpenDrop(cmp.get()));
    EXPECT_TRUE(MainWindow::canOpenDrop(upper.get()));
    EXPECT_FALSE(MainWindow::canOpenDrop(json.get()));
    EXPECT_FALSE(MainWindow::canOpenDrop(remote.get()));
    EXPECT_FALSE(MainWindow::canOpenDrop(text.get()));

    MainWindow window;
    window.show();
    EXPECT_TRUE(window.acceptDrops());
    QDragEnterEvent acceptable(QPoint(10, 10), Qt::CopyAction, cmp.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &acceptable);
    EXPECT_TRUE(acceptable.isAccepted());
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, json.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &refused);
    EXPECT_FALSE(refused.isAccepted());
}

TEST_F(MainWindowTest, DroppingAComparisonFileOpensIt) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = writeComparison(dir, QStringLiteral("dropped.fp8cmp"));
    MainWindow window;
    window.show();
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(path)});
    QSignalSpy shown(&window, &MainWindow::documentShown);
    // As a real drag does: enter (which makes the window the drop target), then drop.
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    EXPECT_TRUE(drop.isAccepted());
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_EQ(window.windowTitle(), QStringLiteral("dropped.fp8cmp — fp8dash"));
}

TEST_F(MainWindowTest, FileMenuHasTheExpectedShortcuts) {
    MainWindow window;
    const QStringList found = actionShortcuts(&window);
    EXPECT_TRUE(found.contains(QStringLiteral("New Comparison…=Ctrl+N"))) << found.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(found.contains(QStringLiteral("Open…=Ctrl+O")));
    EXPECT_TRUE(found.contains(QStringLiteral("Save As…=Ctrl+Shift+S")));
    EXPECT_TRUE(found.contains(QStringLiteral("Quit=Ctrl+Q")));
}

// "No clipped text": at the default size every single-line label of the document page gets its full width.
TEST_F(MainWindowTest, LabelsAreNotClippedAtTheDefaultSize) {
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    window.openDemo();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(20);  // let the layouts settle
    for (const QLabel* label : window.comparisonView()->findChildren<QLabel*>()) {
        if (!label->isVisible() || label->wordWrap() || label->text().isEmpty() || !label->pixmap().isNull()) {
            continue;
        }
        EXPECT_GE(label->width(), label->minimumSizeHint().width())
            << "clipped: \"" << label->text().toStdString() << "\"";
    }
}

}  // namespace
}  // namespace fp8dash::ui::test
