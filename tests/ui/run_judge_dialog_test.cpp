// RunJudgeDialog driven like a user against three loopback OpenAI-compatible servers (tests/support/
// openai_test_server.h): the baseline and candidate answer each prompt with a text naming a quality, and the judge
// replies with that quality. So every expected score below comes from the rule here, not from the code under test.
// A full run puts 5 + 5 scores into a new judge-only document (and into an open one), Cancel right after Run leaves a
// usable dialog whose next Run resumes, and validation refuses a missing judge URL, a bad URL and a bad samples file.
#include <QDate>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QToolButton>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/run_judge_dialog.h"
#include "gui_test_support.h"
#include "openai_test_server.h"

namespace fp8dash::ui::test {
namespace {

using fp8dash::test::OpenAiTestServer;

// A temporary folder with a helper to write a file into it (subfolders created).
class TempDir {
public:
    TempDir() { EXPECT_TRUE(m_dir.isValid()); }
    std::filesystem::path path() const { return std::filesystem::path(m_dir.path().toStdString()); }
    std::filesystem::path write(const std::string& name, const std::string& content) const {
        const std::filesystem::path p = path() / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

private:
    QTemporaryDir m_dir;
};

class RunJudgeDialogTest : public GuiTest {
protected:
    void SetUp() override {
        GuiTest::SetUp();
        for (const char* name :
             {"FP8DASH_BASELINE_API_KEY", "FP8DASH_CANDIDATE_API_KEY", "FP8DASH_JUDGE_API_KEY", "OPENAI_API_KEY"}) {
            qunsetenv(name);
        }
    }
    void TearDown() override {
        // No worker may outlive the test (and its servers).
        EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(30000));
    }
};

// The rule: sample i's baseline answer has quality 1 + i % 5; the candidate's is one lower when i is even, never
// below 1. Over i = 0..4: baseline 1,2,3,4,5; candidate 1,2,2,4,4.
int baselineQuality(int i) {
    return 1 + i % 5;
}
int candidateQuality(int i) {
    return std::max(1, baselineQuality(i) - (i % 2 == 0 ? 1 : 0));
}
std::string prompt(int i) {
    return "Domain question " + std::to_string(i) + "?";
}

// Three servers and a samples file of n samples with ids "q0".."q{n-1}".
struct Rig {
    explicit Rig(int n)
        : samples(n),
          baseline(deployment(n, false), withModel("bf16-model")),
          candidate(deployment(n, true), withModel("fp8-model")),
          judge(
              [this](const OpenAiTestServer::ChatRequest& r) {
                  // The rubric holds "Model answer: quality <q> for ..."; the judge replies with q.
                  const std::string& text = r.messages.front().content;
                  const auto at = text.find("Model answer: quality ");
                  OpenAiTestServer::Answer a(at == std::string::npos ? std::string("no score")
                                                                     : text.substr(at + 22, 1));
                  if (slowJudge.load()) a.delayMs = 400;
                  return a;
              },
              withModel("judge-model")) {
        std::string lines;
        for (int i = 0; i < n; ++i) {
            lines += nlohmann::json{{"id", "q" + std::to_string(i)}, {"prompt", prompt(i)}, {"expected", "E"}}.dump();
            lines += "\n";
        }
        samplesPath = QString::fromStdString(dir.write("samples.jsonl", lines).string());
        outDir = QString::fromStdString((dir.path() / "out").string());
    }

    static OpenAiTestServer::Options withModel(const std::string& model) {
        OpenAiTestServer::Options o;
        o.models = {model};
        return o;
    }
    static OpenAiTestServer::Answerer deployment(int n, bool isCandidate) {
        std::map<std::string, std::string> answers;
        for (int i = 0; i < n; ++i) {
            const int q = isCandidate ? candidateQuality(i) : baselineQuality(i);
            answers[prompt(i)] = "quality " + std::to_string(q) + " for " + std::to_string(i);
        }
        return OpenAiTestServer::byPrompt(answers);
    }

    // Fills the form: the baseline's model is left empty (asked from GET /v1/models).
    void fill(RunJudgeDialog& dialog) const {
        dialog.setSamplesPath(samplesPath);
        dialog.setBaseline(QString::fromStdString(baseline.baseUrl()));
        dialog.setCandidate(QString::fromStdString(candidate.baseUrl() + "/v1"), QStringLiteral("fp8-model"));
        dialog.setJudge(QString::fromStdString(judge.baseUrl()), QStringLiteral("judge-model"));
        dialog.setConcurrency(3);
        dialog.setMaxTokens(64);
        dialog.setOutputDir(outDir);
        HttpOptions http = JudgeRunSettings::defaultHttp();
        http.totalTimeoutS = 20;
        http.retryBaseDelayS = 0.01;
        http.maxRetryDelayS = 0.05;
        dialog.setHttpOptions(http);
    }

    int samples;
    TempDir dir;
    std::atomic<bool> slowJudge{false};
    OpenAiTestServer baseline, candidate, judge;
    QString samplesPath;
    QString outDir;
};

// Each side holds one score per sample, equal to the rule's quality.
void expectScoresFollowTheRule(const JudgeSection& section, int n) {
    for (bool isCandidate : {false, true}) {
        const JudgeScores& scores = isCandidate ? section.candidate : section.baseline;
        ASSERT_EQ(scores.samples.size(), static_cast<std::size_t>(n)) << (isCandidate ? "candidate" : "baseline");
        EXPECT_TRUE(scores.hasIds);
        std::map<std::string, double> byId;
        for (const JudgeScore& s : scores.samples) EXPECT_TRUE(byId.emplace(s.id, s.score).second) << s.id;
        for (int i = 0; i < n; ++i) {
            const auto it = byId.find("q" + std::to_string(i));
            ASSERT_NE(it, byId.end()) << i;
            EXPECT_EQ(it->second, isCandidate ? candidateQuality(i) : baselineQuality(i)) << "sample " << i;
        }
    }
}

std::size_t nonEmptyLines(const QString& path) {
    std::ifstream in(path.toStdString());
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
    return n;
}

TEST_F(RunJudgeDialogTest, ARunPutsBothScoreListsIntoANewJudgeDocument) {
    Rig rig(5);
    MainWindow window;
    RunJudgeDialog* dialog = window.runDomainEval();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(window.judgeDialog(), dialog);
    rig.fill(*dialog);
    EXPECT_EQ(dialog->samplesText(), QStringLiteral("5 samples (10 answers to judge)."));

    QSignalSpy applied(&window, &MainWindow::judgeApplied);
    QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog->isRunning());
    EXPECT_FALSE(dialog->runButton()->isEnabled());
    ASSERT_TRUE(applied.wait(30000)) << dialog->errorText().toStdString();

    EXPECT_FALSE(dialog->isRunning());
    EXPECT_EQ(dialog->errorText(), QString());
    EXPECT_EQ(dialog->failuresText(), QString());
    EXPECT_EQ(dialog->progressMaximum(), 10);
    EXPECT_EQ(dialog->progressValue(), 10);
    // Means from the rule: baseline (1+2+3+4+5)/5 = 3.00, candidate (1+2+2+4+4)/5 = 2.60.
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("mean 3.00"))) << dialog->statusText().toStdString();
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("mean 2.60"))) << dialog->statusText().toStdString();

    ASSERT_NE(window.current(), nullptr);
    const ComparisonDocument& doc = window.current()->document;
    EXPECT_FALSE(doc.hasEvals);
    ASSERT_TRUE(doc.judge.has_value());
    expectScoresFollowTheRule(*doc.judge, 5);
    // The baseline's model came from GET /v1/models; it names the side of the new document.
    EXPECT_EQ(doc.baseline.label, "bf16-model");
    EXPECT_EQ(doc.candidate.label, "fp8-model");
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
    EXPECT_EQ(window.comparisonView()->tabs()->currentWidget(),
              window.comparisonView()->tabs()->widget(ComparisonView::JudgeTab));
    // The files on disk hold the same 5 + 5 lines, and nothing failed.
    EXPECT_EQ(nonEmptyLines(QDir(rig.outDir).filePath(QStringLiteral("baseline.jsonl"))), 5u);
    EXPECT_EQ(nonEmptyLines(QDir(rig.outDir).filePath(QStringLiteral("candidate.jsonl"))), 5u);
    EXPECT_EQ(nonEmptyLines(QDir(rig.outDir).filePath(QStringLiteral("failures.jsonl"))), 0u);
    EXPECT_EQ(rig.judge.receivedCount(), 10u);
    dialog->reject();
}

TEST_F(RunJudgeDialogTest, ARunJoinsTheOpenDocument) {
    Rig rig(5);
    MainWindow window;
    window.openDemo();
    ASSERT_NE(window.current(), nullptr);
    ASSERT_TRUE(window.current()->document.hasEvals);
    const std::string title = window.current()->document.title;
    const std::size_t tasks = window.current()->report.tasks.size();

    RunJudgeDialog* dialog = window.runDomainEval();
    rig.fill(*dialog);
    QSignalSpy applied(&window, &MainWindow::judgeApplied);
    dialog->startRun();
    ASSERT_TRUE(applied.wait(30000)) << dialog->errorText().toStdString();
    const ComparisonDocument& doc = window.current()->document;
    EXPECT_TRUE(doc.hasEvals);
    EXPECT_EQ(doc.title, title);
    EXPECT_EQ(window.current()->report.tasks.size(), tasks);
    ASSERT_TRUE(doc.judge.has_value());
    expectScoresFollowTheRule(*doc.judge, 5);
    EXPECT_TRUE(window.isModified());
    dialog->reject();
}

TEST_F(RunJudgeDialogTest, CancelRightAfterRunKeepsTheDialogUsableAndRunResumes) {
    Rig rig(5);
    rig.slowJudge = true;  // every judge reply takes 400 ms: the run is surely going when Cancel comes
    RunJudgeDialog dialog;
    rig.fill(dialog);
    dialog.show();
    QSignalSpy cancelled(&dialog, &RunJudgeDialog::runCancelled);
    QSignalSpy ready(&dialog, &RunJudgeDialog::scoresReady);
    dialog.startRun();
    ASSERT_TRUE(dialog.isRunning());
    EXPECT_EQ(dialog.closeButton()->text(), QStringLiteral("Cancel"));
    QTest::mouseClick(dialog.closeButton(), Qt::LeftButton);  // Cancel: reject() while running
    ASSERT_TRUE(cancelled.wait(10000));
    EXPECT_EQ(ready.count(), 0);
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.runButton()->isEnabled());
    EXPECT_EQ(dialog.closeButton()->text(), QStringLiteral("Close"));
    EXPECT_EQ(dialog.errorText(), QString());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("Cancelled"))) << dialog.statusText().toStdString();
    EXPECT_EQ(dialog.scores(), nullptr);
    const std::size_t judgedBefore = rig.judge.receivedCount();
    EXPECT_LT(judgedBefore, 10u);

    // Usable again: the next Run finishes the same folder (resuming when anything was kept).
    rig.slowJudge = false;
    dialog.startRun();
    ASSERT_TRUE(dialog.isRunning());
    ASSERT_TRUE(ready.wait(30000)) << dialog.errorText().toStdString();
    ASSERT_NE(dialog.scores(), nullptr);
    expectScoresFollowTheRule(*dialog.scores(), 5);
    ASSERT_NE(dialog.summary(), nullptr);
    EXPECT_EQ(dialog.summary()->counts.total, 10u);
    // What the first run scored was not asked again.
    EXPECT_EQ(dialog.summary()->counts.alreadyDone + dialog.summary()->counts.scored, 10u);
}

TEST_F(RunJudgeDialogTest, ValidationRefusesAMissingJudgeUrlBeforeStarting) {
    Rig rig(5);
    RunJudgeDialog dialog;
    rig.fill(dialog);
    dialog.setJudge(QString(), QStringLiteral("judge-model"));
    QSignalSpy failed(&dialog, &RunJudgeDialog::runFailed);
    dialog.startRun();
    EXPECT_FALSE(dialog.isRunning());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Judge URL"))) << dialog.errorText().toStdString();
    EXPECT_EQ(failed.first().first().toString(), dialog.errorText());

    dialog.setJudge(QStringLiteral("ftp://judge.example"), QStringLiteral("judge-model"));
    dialog.startRun();
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("ftp://judge.example"))) << dialog.errorText().toStdString();

    dialog.setJudge(QString::fromStdString(rig.judge.baseUrl()), QString());
    dialog.startRun();
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Judge model"))) << dialog.errorText().toStdString();

    dialog.setJudge(QString::fromStdString(rig.judge.baseUrl()), QStringLiteral("judge-model"));
    dialog.setRubric(QStringLiteral("Rate {prompt} from 1 to 5."));
    dialog.startRun();
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.errorText().contains(QStringLiteral("{answer}"))) << dialog.errorText().toStdString();
    // Nothing reached a server, nothing was written.
    EXPECT_EQ(rig.baseline.requests().size() + rig.candidate.requests().size() + rig.judge.requests().size(), 0u);
    EXPECT_FALSE(QFileInfo::exists(rig.outDir));
}

TEST_F(RunJudgeDialogTest, SamplesFileIsCheckedWhenPickedAndSetsTheDefaultFolder) {
    TempDir dir;
    const std::string good = R"({"id": 1, "prompt": "a?", "expected": "A"})"
                             "\n"
                             R"({"id": 2, "prompt": "b?", "expected": "B"})"
                             "\n";
    const QString goodPath = QString::fromStdString(dir.write("good.jsonl", good).string());
    const QString badPath =
        QString::fromStdString(dir.write("bad.jsonl", std::string(R"({"id": 1, "prompt": "a?", "expected": "A"})") +
                                                          "\n" + R"({"id": 2, "expected": "B"})" + "\n")
                                   .string());
    RunJudgeDialog dialog;
    dialog.setSamplesPath(goodPath);
    EXPECT_EQ(dialog.samplesText(), QStringLiteral("2 samples (4 answers to judge)."));
    const QString expectedDir =
        QDir(QString::fromStdString(dir.path().string()))
            .filePath(QStringLiteral("judge-run-") + QDate::currentDate().toString(QStringLiteral("yyyy-MM-dd")));
    EXPECT_EQ(dialog.findChild<QLineEdit*>(QStringLiteral("outputDir"))->text(), QDir::toNativeSeparators(expectedDir));
    EXPECT_EQ(RunJudgeDialog::defaultOutputDir(goodPath), expectedDir);

    dialog.setSamplesPath(badPath);
    EXPECT_TRUE(dialog.samplesText().contains(QStringLiteral("bad.jsonl"))) << dialog.samplesText().toStdString();
    EXPECT_TRUE(dialog.samplesText().contains(QStringLiteral("line 2"))) << dialog.samplesText().toStdString();
    EXPECT_TRUE(dialog.samplesText().contains(QStringLiteral("prompt"))) << dialog.samplesText().toStdString();

    // A folder holding run.json is announced as a resume.
    const QString resumeDir = QString::fromStdString((dir.path() / "earlier").string());
    ASSERT_TRUE(QDir().mkpath(resumeDir));
    dir.write("earlier/run.json", "{}\n");
    dialog.setOutputDir(resumeDir);
    EXPECT_TRUE(dialog.outputNote().contains(QStringLiteral("resumes"))) << dialog.outputNote().toStdString();
    // A picked folder no longer follows the samples file.
    dialog.setSamplesPath(goodPath);
    EXPECT_EQ(dialog.findChild<QLineEdit*>(QStringLiteral("outputDir"))->text(), resumeDir);
}

TEST_F(RunJudgeDialogTest, FormHasTheDefaultsAndAccessibleControls) {
    RunJudgeDialog dialog;
    auto* concurrency = dialog.findChild<QSpinBox*>(QStringLiteral("concurrency"));
    ASSERT_NE(concurrency, nullptr);
    EXPECT_EQ(concurrency->value(), 4);
    EXPECT_EQ(concurrency->minimum(), 1);
    EXPECT_EQ(concurrency->maximum(), 64);
    EXPECT_EQ(dialog.rubricEdit()->toPlainText(), QString::fromUtf8(kDefaultJudgeRubric));
    EXPECT_FALSE(dialog.rubricEdit()->isVisibleTo(&dialog));
    dialog.rubricToggle()->click();
    EXPECT_TRUE(dialog.rubricEdit()->isVisibleTo(&dialog));
    for (const QWidget* w : dialog.findChildren<QWidget*>()) {
        if (qobject_cast<const QLineEdit*>(w) || qobject_cast<const QSpinBox*>(w) ||
            qobject_cast<const QPlainTextEdit*>(w) || qobject_cast<const QToolButton*>(w)) {
            // A spin box's own editor, a line edit's clear button: parts of a control that has its name.
            if (qobject_cast<const QSpinBox*>(w->parent()) || qobject_cast<const QLineEdit*>(w->parent())) continue;
            EXPECT_FALSE(w->accessibleName().isEmpty())
                << w->objectName().toStdString() << " " << w->metaObject()->className();
        }
    }
    // The note names the environment variables; the form has no field for a key.
    const QString note = dialog.findChild<QLabel*>(QStringLiteral("apiKeysNote"))->text();
    for (const char* name :
         {"FP8DASH_BASELINE_API_KEY", "FP8DASH_CANDIDATE_API_KEY", "FP8DASH_JUDGE_API_KEY", "OPENAI_API_KEY"}) {
        EXPECT_TRUE(note.contains(QLatin1String(name))) << name;
    }
    for (const QLineEdit* edit : dialog.findChildren<QLineEdit*>()) EXPECT_NE(edit->echoMode(), QLineEdit::Password);
}

TEST_F(RunJudgeDialogTest, TimelineMenuHasRunDomainEvalWithoutClashes) {
    MainWindow window;
    const QStringList found = actionShortcuts(&window);
    EXPECT_TRUE(found.contains(QStringLiteral("Run Domain Eval…=Ctrl+Shift+J")))
        << found.join(QLatin1Char(' ')).toStdString();
    QStringList keys;
    for (const QString& entry : found) keys << entry.section(QLatin1Char('='), 1);
    QStringList unique = keys;
    unique.removeDuplicates();
    EXPECT_EQ(unique.size(), keys.size()) << keys.join(QLatin1Char(' ')).toStdString();
}

}  // namespace
}  // namespace fp8dash::ui::test
