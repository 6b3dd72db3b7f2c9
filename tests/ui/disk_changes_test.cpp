// The open file changed on disk (issue 26, finding 6): `timeline --save` or a second reviewer writes the file while
// it is open and a note is added in the app. Save asks (Merge keeps both, Overwrite keeps mine, Reload takes theirs,
// Cancel writes nothing); the watcher shows the notice bar, also after the file was replaced by a rename; the app's
// own saves never raise it.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/document_controller.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "gui_test_support.h"

namespace fp8dash::ui {
namespace {

class DiskChangesTest : public test::GuiTest {
protected:
    void SetUp() override {
        GuiTest::SetUp();
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("review.fp8cmp"));
        // The file as it was opened: the demo before anyone fetched its production timeline.
        ComparisonDocument doc = loadDemoComparison().value();
        doc.timeline.reset();
        ASSERT_TRUE(saveComparisonFile(doc, m_path.toStdString()).ok());
        m_opened = doc;
    }

    void open(MainWindow& window) {
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openFileAsync(m_path);
        ASSERT_TRUE(shown.wait(20000));
    }

    // What `timeline --save` and a second reviewer do to the file: read it, add to it, write it atomically.
    void theyChangeTheFile(const std::string& noteText) {
        auto doc = loadComparisonFile(m_path.toStdString());
        ASSERT_TRUE(doc.ok()) << doc.error().message;
        doc->timeline = loadDemoComparison().value().timeline;
        doc->notes.push_back({doc->newNoteId(), noteText, "bo", "2026-12-05T11:00:00Z", "", ""});
        ASSERT_TRUE(saveComparisonFile(*doc, m_path.toStdString()).ok());
    }

    // Answers the save's question with the button named `choice` once it is open; m_answered says it was.
    void answerTheQuestionWith(MainWindow& window, const char* choice) {
        m_answered = false;
        QTimer::singleShot(0, &window, [this, &window, choice] {
            auto* box = window.findChild<QMessageBox*>(QStringLiteral("diskChangedBox"));
            if (!box) return;
            if (auto* button = box->findChild<QPushButton*>(QString::fromLatin1(choice))) {
                m_answered = true;
                button->click();
            } else if (QString::fromLatin1(choice) == QLatin1String("cancel")) {
                m_answered = true;
                box->button(QMessageBox::Cancel)->click();
            }
        });
    }

    ComparisonDocument onDisk() const {
        auto doc = loadComparisonFile(m_path.toStdString());
        EXPECT_TRUE(doc.ok()) << doc.error().message;
        return doc ? std::move(doc).value() : ComparisonDocument{};
    }

    static bool hasNote(const ComparisonDocument& doc, const std::string& text) {
        return std::any_of(doc.notes.begin(), doc.notes.end(), [&](const Note& n) { return n.text == text; });
    }

    QTemporaryDir m_dir;
    QString m_path;
    ComparisonDocument m_opened;
    bool m_answered = false;
};

// The controller's rule: a replacement (new inode, same size) and an in-place append are changes; the file as
// recorded is not; a file that is gone is no change to ask about (a save writes it again).
TEST_F(DiskChangesTest, TheControllerTellsAChangedFileFromTheOneItRecorded) {
    DocumentController doc;
    doc.show(evaluateForDisplay(m_opened, m_path).value(), m_path, {}, false);
    doc.setDiskStamp(DiskStamp::of(m_path));
    EXPECT_FALSE(doc.changedOnDisk());
    const std::string bytes = [&] {
        QFile f(m_path);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return f.readAll().toStdString();
    }();
    ASSERT_TRUE(writeFileAtomically(m_path.toStdString(), bytes).ok());  // same bytes, a new file
    EXPECT_TRUE(doc.changedOnDisk());
    doc.setDiskStamp(DiskStamp::of(m_path));
    EXPECT_FALSE(doc.changedOnDisk());
    {
        QFile f(m_path);
        ASSERT_TRUE(f.open(QIODevice::Append));
        f.write("\n");
    }
    EXPECT_TRUE(doc.changedOnDisk());
    ASSERT_TRUE(QFile::remove(m_path));
    EXPECT_FALSE(doc.changedOnDisk());
}

TEST_F(DiskChangesTest, SaveAsksFirstAndMergeKeepsBoth) {
    MainWindow window;
    window.show();
    open(window);
    theyChangeTheFile("bo: the alert was a deploy, not FP8");
    window.addNote(QStringLiteral("ana: re-run gsm8k with FP8_DYNAMIC"), {}, QStringLiteral("ana"));
    QSignalSpy merged(&window, &MainWindow::diskMergeFinished);
    answerTheQuestionWith(window, "diskMergeChoice");
    EXPECT_FALSE(window.saveTo(m_path).ok());  // not written yet: the file is read and merged first
    EXPECT_TRUE(m_answered);
    ASSERT_TRUE(merged.wait(20000));
    EXPECT_EQ(merged.takeFirst().at(0).toString(), QString());
    EXPECT_FALSE(window.isModified());
    for (const ComparisonDocument& doc : {onDisk(), window.current()->document}) {
        EXPECT_TRUE(hasNote(doc, "ana: re-run gsm8k with FP8_DYNAMIC"));
        EXPECT_TRUE(hasNote(doc, "bo: the alert was a deploy, not FP8"));
        EXPECT_TRUE(doc.timeline.has_value());  // what timeline --save added
        EXPECT_EQ(doc.notes.size(), m_opened.notes.size() + 2);
    }
    // Saved after the merge: a save now asks nothing.
    window.addNote(QStringLiteral("ana: done"), {}, QStringLiteral("ana"));
    EXPECT_TRUE(window.saveTo(m_path).ok());
    EXPECT_TRUE(hasNote(onDisk(), "ana: done"));
}

TEST_F(DiskChangesTest, OverwriteKeepsMineReloadTakesTheirsCancelWritesNothing) {
    {
        MainWindow window;
        window.show();
        open(window);
        theyChangeTheFile("bo: theirs");
        window.addNote(QStringLiteral("ana: mine"), {}, QStringLiteral("ana"));
        answerTheQuestionWith(window, "cancel");
        EXPECT_FALSE(window.saveTo(m_path).ok());
        EXPECT_TRUE(m_answered);
        EXPECT_TRUE(window.isModified());
        EXPECT_TRUE(hasNote(onDisk(), "bo: theirs"));
        EXPECT_FALSE(hasNote(onDisk(), "ana: mine"));

        answerTheQuestionWith(window, "diskOverwriteChoice");
        ASSERT_TRUE(window.saveTo(m_path).ok());
        EXPECT_TRUE(m_answered);
        const ComparisonDocument doc = onDisk();
        EXPECT_TRUE(hasNote(doc, "ana: mine"));
        EXPECT_FALSE(hasNote(doc, "bo: theirs"));
        EXPECT_FALSE(doc.timeline.has_value());
    }
    MainWindow window;
    window.show();
    open(window);
    theyChangeTheFile("bo: theirs again");
    window.addNote(QStringLiteral("ana: dropped by the reload"), {}, QStringLiteral("ana"));
    QSignalSpy shown(&window, &MainWindow::documentShown);
    answerTheQuestionWith(window, "diskReloadChoice");
    EXPECT_FALSE(window.saveTo(m_path).ok());
    EXPECT_TRUE(m_answered);
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_FALSE(window.isModified());
    EXPECT_TRUE(hasNote(window.current()->document, "bo: theirs again"));
    EXPECT_FALSE(hasNote(window.current()->document, "ana: dropped by the reload"));
    EXPECT_TRUE(window.current()->document.timeline.has_value());
    EXPECT_FALSE(hasNote(onDisk(), "ana: dropped by the reload"));
}

TEST_F(DiskChangesTest, TheWatcherShowsTheNoticeBarAndOwnSavesDoNot) {
    MainWindow window;
    window.show();
    open(window);
    auto* bar = window.findChild<QWidget*>(QStringLiteral("diskChangedBar"));
    ASSERT_NE(bar, nullptr);
    EXPECT_FALSE(window.diskChangeNoticed());
    QSignalSpy noticed(&window, &MainWindow::diskChangeShown);

    // The app's own save, then another program's: only the second raises the bar.
    window.addNote(QStringLiteral("ana: saved here"), {}, QStringLiteral("ana"));
    ASSERT_TRUE(window.saveTo(m_path).ok());
    theyChangeTheFile("bo: first change");
    ASSERT_TRUE(noticed.wait(20000));
    EXPECT_EQ(noticed.count(), 1);
    EXPECT_TRUE(window.diskChangeNoticed());
    EXPECT_TRUE(bar->isVisible());
    const QString text = window.findChild<QLabel*>(QStringLiteral("diskChangedText"))->text();
    EXPECT_TRUE(text.contains(QStringLiteral("review.fp8cmp"))) << text.toStdString();

    // Not Now hides it; the file was replaced by a rename, and the next change is seen all the same.
    window.findChild<QPushButton*>(QStringLiteral("diskDismissButton"))->click();
    EXPECT_FALSE(window.diskChangeNoticed());
    window.addNote(QStringLiteral("ana: unsaved"), {}, QStringLiteral("ana"));
    theyChangeTheFile("bo: second change");
    ASSERT_TRUE(noticed.wait(20000));
    EXPECT_TRUE(window.diskChangeNoticed());
    EXPECT_EQ(noticed.count(), 2);  // the two changes made elsewhere, not the save made here

    // Merge from the bar: both notes, saved.
    QSignalSpy merged(&window, &MainWindow::diskMergeFinished);
    window.findChild<QPushButton*>(QStringLiteral("diskMergeButton"))->click();
    ASSERT_TRUE(merged.wait(20000));
    EXPECT_EQ(merged.takeFirst().at(0).toString(), QString());
    EXPECT_FALSE(window.diskChangeNoticed());
    const ComparisonDocument doc = onDisk();
    for (const char* note : {"ana: saved here", "bo: first change", "ana: unsaved", "bo: second change"})
        EXPECT_TRUE(hasNote(doc, note)) << note;
    EXPECT_FALSE(window.isModified());

    // Reload from the bar takes theirs.
    theyChangeTheFile("bo: third change");
    ASSERT_TRUE(noticed.wait(20000));
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.findChild<QPushButton*>(QStringLiteral("diskReloadButton"))->click();
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_TRUE(hasNote(window.current()->document, "bo: third change"));
    EXPECT_FALSE(window.diskChangeNoticed());
}

}  // namespace
}  // namespace fp8dash::ui
