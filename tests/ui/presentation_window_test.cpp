// Presentation mode: the steps a document has (and only those), every navigation key and the ends, Esc back to the
// main window, notes with their slide, slide facts against figures computed here from the inputs, nothing clipped at
// 1920 × 1080 and 1280 × 720, odd documents, and `--present` (openStartupWindows) on a file and on the demo.
// Set FP8DASH_SLIDE_SHOTS=<folder> to also write every slide of the full document as PNG at both sizes.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench_test_json.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/ui/gui_main.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_slide_view.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/presenter_console.h"
#include "gui_test_support.h"
#include "timeline_test_data.h"

namespace fp8dash::ui::test {
namespace {

class PresentationTest : public GuiTest {};

std::string v1File(const std::string& name) {
    return std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/" + name;
}

Json presentationReadJson(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

ComparisonDocument loadDoc(const std::string& name) {
    auto doc = loadComparisonFile(v1File(name));
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message);
    return doc.ok() ? std::move(doc).value() : ComparisonDocument{};
}

LoadedComparison evaluated(ComparisonDocument doc) {
    auto loaded = evaluateForDisplay(std::move(doc), QStringLiteral("test"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return loaded.ok() ? std::move(loaded).value() : LoadedComparison{};
}

// ---- a GPU benchmark run as the comparison file keeps it (gpu/ JSON), with figures chosen here

// A measured GEMM row under the H200's FP8 roof.
Json gemmRow(const std::string& layer, int m, int n, int k, const std::string& precision, double tflops, double speedup,
             bool fastAccum = false) {
    return fp8dash::test::benchGemmRow(layer, m, n, k, precision, tflops, 1979.0, tflops / 1979.0 * 100, speedup,
                                       fastAccum);
}

// The best FP8 speedup is o at M = 2048 (1.91); the square case (2.1) and a fast-accumulation row (2.3) must not
// count. The longest context is 16K, where per_head has the smallest attention error (0.041).
Json h200Bench() {
    Json gemm = Json::array();
    const std::vector<std::tuple<std::string, int, int>> layers = {
        {"qkv", 6144, 4096}, {"o", 4096, 4096}, {"gate_up", 28672, 4096}, {"down", 4096, 14336}};
    const std::map<std::pair<std::string, int>, double> speedups = {
        {{"qkv", 1}, 1.52},        {{"qkv", 128}, 1.70}, {{"qkv", 2048}, 1.84},  {{"o", 1}, 1.48},
        {{"o", 128}, 1.66},        {{"o", 2048}, 1.91},  {{"gate_up", 1}, 1.61}, {{"gate_up", 128}, 1.75},
        {{"gate_up", 2048}, 1.88}, {{"down", 1}, 1.55},  {{"down", 128}, 1.72},  {{"down", 2048}, 1.86}};
    for (const auto& [layer, n, k] : layers) {
        for (int m : {1, 128, 2048}) {
            const double bf16 = 2.0 * m * n * k / 1e12 / 1e-4 / 40;
            gemm.push_back(gemmRow(layer, m, n, k, "bf16", bf16, 0));
            gemm.push_back(
                gemmRow(layer, m, n, k, "fp8_e4m3", bf16 * speedups.at({layer, m}), speedups.at({layer, m})));
        }
    }
    const double bf16O2048 = 2.0 * 2048 * 4096 * 4096 / 1e12 / 1e-4 / 40;
    gemm.push_back(gemmRow("o", 2048, 4096, 4096, "fp8_e4m3", bf16O2048 * 2.3, 2.3, /*fastAccum=*/true));
    // The square case with its BF16 row, as gpu/ measures it.
    gemm.push_back(gemmRow("square", 8192, 8192, 8192, "bf16", 1500 / 2.1, 0));
    gemm.push_back(gemmRow("square", 8192, 8192, 8192, "fp8_e4m3", 1500, 2.1));
    using fp8dash::test::benchKvRow;
    return fp8dash::test::h200Run(
        gemm, Json::array(),
        Json::array({benchKvRow("none", 1024, 0.031, 0.052), benchKvRow("per_tensor", 1024, 0.027, 0.044),
                     benchKvRow("per_head", 1024, 0.026, 0.040), benchKvRow("none", 16384, 0.033, 0.061),
                     benchKvRow("per_tensor", 16384, 0.028, 0.047), benchKvRow("per_head", 16384, 0.027, 0.041)}));
}

BenchResults benchFrom(const Json& j) {
    auto r = parseBenchResults(j, "test benchmarks");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BenchResults{};
}

// The demo's evals and notes as fp8dash 0.1.0 saved them (tests/data: the bundled demo may gain sections later).
ComparisonDocument evalsDocument() {
    return loadDoc("demo-llama3-8b-instruct-fp8.fp8cmp");
}

// The bundled demo's model without its organisation, read from the file.
std::string demoModel() {
    const std::string model = demoJson()["runs"]["baseline"]["results"]["model_name"].get<std::string>();
    return model.substr(model.rfind('/') + 1);
}

// Everything: the demo's evals and notes, the judge of judge-bench.fp8cmp, the day timeline, the H200 run, capacity
// (llama-3.1-8b on one H100 SXM, BF16 weights, FP8 KV cache) and a review decision.
ComparisonDocument fullDocument() {
    ComparisonDocument doc = evalsDocument();
    doc.timeline = dayTimeline();
    doc.judge = loadDoc("judge-bench.fp8cmp").judge;
    doc.benchmarks = benchFrom(h200Bench());
    CapacitySettings capacity;
    capacity.model = "llama-3.1-8b";
    capacity.gpu = "h100-sxm";
    capacity.gpus = 1;
    capacity.weights = "bf16";
    capacity.kv = "fp8";
    capacity.gpuUtilization = 0.92;
    capacity.contextTokens = 8192;
    capacity.overheadGiB = 2.0;
    doc.capacity = capacity;
    ReviewDecision decision;
    decision.outcome = ReviewOutcome::ApprovedMonitor;
    decision.by = "Ana Ruiz";
    decision.at = "2026-12-01T14:03:05Z";
    decision.why = "GSM8K is not in our traffic; judge alerting stays on for two weeks.";
    decision.verdictAtDecision = Verdict::Investigate;
    doc.decisions.push_back(decision);
    return doc;
}

std::vector<PresentationStep> stepsOf(const PresentationWindow& w) {
    std::vector<PresentationStep> steps;
    for (const auto& s : w.deck().slides) steps.push_back(s.step);
    return steps;
}

using S = PresentationStep;

// The footer's step name of the slide on screen.
QString footerStep(const PresentationWindow& w) {
    auto* label = w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideFooterStep"));
    return label ? label->text() : QString();
}
QString footerPage(const PresentationWindow& w) {
    auto* label = w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideFooterPage"));
    return label ? label->text() : QString();
}

QFrame* figure(const QWidget* slide, const QString& label) {
    for (QFrame* f : slide->findChildren<QFrame*>(QStringLiteral("slideFigure"))) {
        if (f->property("figureLabel").toString() == label) return f;
    }
    return nullptr;
}
QString figureValue(const QWidget* slide, const QString& label) {
    QFrame* f = figure(slide, label);
    auto* v = f ? f->findChild<QLabel*>(QStringLiteral("figureValue")) : nullptr;
    return v ? v->text() : QStringLiteral("(no figure %1)").arg(label);
}
QString figureDetail(const QWidget* slide, const QString& label) {
    QFrame* f = figure(slide, label);
    auto* v = f ? f->findChild<QLabel*>(QStringLiteral("figureDetail")) : nullptr;
    return v ? v->text() : QString();
}
QLabel* taskCell(const QWidget* slide, const QString& task, const QString& column) {
    for (QLabel* l : slide->findChildren<QLabel*>(QStringLiteral("taskCell"))) {
        if (l->property("task").toString() == task && l->property("column").toString() == column) return l;
    }
    return nullptr;
}

// ---- the steps

TEST_F(PresentationTest, StepsAreTheDocumentsInTheOrderOfTheDecision) {
    {
        PresentationWindow w(evaluated(loadDoc("demo-llama3-8b-instruct-fp8.fp8cmp")));  // evals and notes only
        EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Evals, S::Verdict}));
    }
    {
        // Judge scores and a CPU benchmark run (the KV sweep; GEMM skipped without a GPU).
        PresentationWindow w(evaluated(loadDoc("judge-bench.fp8cmp")));
        EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Judge, S::Benchmarks, S::Verdict}));
    }
    {
        PresentationWindow w(evaluated(loadDoc("paired-judge-control.fp8cmp")));
        EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Evals, S::Judge, S::Verdict}));
    }
    {
        PresentationWindow w(evaluated(documentWith(dayTimeline(), false)));  // timeline only
        EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Timeline, S::Verdict}));
    }
    {
        ComparisonDocument doc = evalsDocument();
        doc.timeline = dayTimeline();
        PresentationWindow w(evaluated(doc));
        EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Evals, S::Timeline, S::Verdict}));
    }
    {
        PresentationWindow w(evaluated(fullDocument()));
        EXPECT_EQ(stepsOf(w),
                  (std::vector<S>{S::Cover, S::Evals, S::Judge, S::Timeline, S::Benchmarks, S::Capacity, S::Verdict}));
        // The footer of each slide names its step and its place.
        const QStringList names{QStringLiteral("Cover"),
                                QStringLiteral("Offline evals"),
                                QStringLiteral("Domain judge"),
                                QStringLiteral("Production timeline"),
                                QStringLiteral("Local benchmarks"),
                                QStringLiteral("KV-cache capacity"),
                                QStringLiteral("Verdict")};
        for (int i = 0; i < w.slideCount(); ++i) {
            w.goTo(i);
            EXPECT_EQ(footerStep(w), names[i]);
            EXPECT_EQ(footerPage(w), QStringLiteral("%1 / 7").arg(i + 1));
        }
    }
}

TEST_F(PresentationTest, StepsWithoutAnythingToShowAreLeftOut) {
    ComparisonDocument doc = fullDocument();
    // Benchmarks where every part was skipped (a CPU machine with the KV sweep off), and capacity on this machine's
    // GPUs, which the presentation cannot plan without querying them: neither has a slide.
    Json skipped = h200Bench();
    skipped["gemm"] = Json::array();
    skipped["gemm_skipped"] = "no usable GPU: no NVIDIA driver is loaded";
    skipped["kv"] = Json::array();
    skipped["kv_skipped"] = "not asked for";
    skipped["device"]["available"] = false;
    doc.benchmarks = benchFrom(skipped);
    doc.capacity->gpu = "local";
    doc.judge.reset();
    PresentationWindow w(evaluated(doc));
    EXPECT_EQ(stepsOf(w), (std::vector<S>{S::Cover, S::Evals, S::Timeline, S::Verdict}));
}

// ---- navigation

TEST_F(PresentationTest, EveryNavigationKeyMovesAndTheEndsHold) {
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1280, 720));
    const int n = w.slideCount();
    ASSERT_EQ(n, 7);
    const std::vector<std::pair<Qt::Key, Qt::KeyboardModifiers>> nextKeys = {
        {Qt::Key_Right, Qt::NoModifier},    {Qt::Key_Down, Qt::NoModifier},   {Qt::Key_Space, Qt::NoModifier},
        {Qt::Key_PageDown, Qt::NoModifier}, {Qt::Key_Return, Qt::NoModifier}, {Qt::Key_Enter, Qt::KeypadModifier}};
    const std::vector<std::pair<Qt::Key, Qt::KeyboardModifiers>> previousKeys = {{Qt::Key_Left, Qt::NoModifier},
                                                                                 {Qt::Key_Up, Qt::NoModifier},
                                                                                 {Qt::Key_Backspace, Qt::NoModifier},
                                                                                 {Qt::Key_PageUp, Qt::NoModifier},
                                                                                 {Qt::Key_Space, Qt::ShiftModifier}};
    for (const auto& [key, mods] : nextKeys) {
        w.goTo(2);
        QTest::keyClick(&w, key, mods);
        EXPECT_EQ(w.currentIndex(), 3) << QKeySequence(key).toString().toStdString();
        w.goTo(n - 1);
        QTest::keyClick(&w, key, mods);
        EXPECT_EQ(w.currentIndex(), n - 1) << "past the end with " << QKeySequence(key).toString().toStdString();
    }
    for (const auto& [key, mods] : previousKeys) {
        w.goTo(2);
        QTest::keyClick(&w, key, mods);
        EXPECT_EQ(w.currentIndex(), 1) << QKeySequence(key).toString().toStdString();
        w.goTo(0);
        QTest::keyClick(&w, key, mods);
        EXPECT_EQ(w.currentIndex(), 0) << "before the start with " << QKeySequence(key).toString().toStdString();
    }
    w.goTo(3);
    QTest::keyClick(&w, Qt::Key_End);
    EXPECT_EQ(w.currentIndex(), n - 1);
    QTest::keyClick(&w, Qt::Key_Home);
    EXPECT_EQ(w.currentIndex(), 0);

    // A clicker's F5 ("start show") changes nothing while the show runs.
    w.goTo(4);
    QTest::keyClick(&w, Qt::Key_F5);
    EXPECT_EQ(w.currentIndex(), 4);
    EXPECT_TRUE(w.isVisible());

    // A click is next; a right click is previous.
    QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200, 200));
    EXPECT_EQ(w.currentIndex(), 5);
    QTest::mouseClick(&w, Qt::RightButton, {}, QPoint(200, 200));
    EXPECT_EQ(w.currentIndex(), 4);
}

TEST_F(PresentationTest, DigitsThenEnterJumpToThatSlide) {
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1280, 720));
    QTest::keyClick(&w, Qt::Key_6);
    EXPECT_EQ(w.currentIndex(), 0);  // not before Enter
    EXPECT_EQ(w.pendingSlideNumber(), QStringLiteral("6"));
    QTest::keyClick(&w, Qt::Key_Return);
    EXPECT_EQ(w.currentIndex(), 5);
    EXPECT_TRUE(w.pendingSlideNumber().isEmpty());

    // Backspace edits the digits rather than going back; a number outside the deck moves nothing.
    QTest::keyClick(&w, Qt::Key_1);
    QTest::keyClick(&w, Qt::Key_2);
    QTest::keyClick(&w, Qt::Key_Backspace);
    EXPECT_EQ(w.currentIndex(), 5);
    QTest::keyClick(&w, Qt::Key_Return);
    EXPECT_EQ(w.currentIndex(), 0);  // "1"
    QTest::keyClick(&w, Qt::Key_9);
    QTest::keyClick(&w, Qt::Key_Return);
    EXPECT_EQ(w.currentIndex(), 0);
}

TEST_F(PresentationTest, PeriodBlanksTheScreenAndAnyNavigationKeyBringsTheSlideBack) {
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1280, 720));
    w.goTo(2);
    QTest::keyClick(&w, Qt::Key_Period);
    EXPECT_TRUE(w.isBlanked());
    QTest::keyClick(&w, Qt::Key_Right);
    EXPECT_FALSE(w.isBlanked());
    EXPECT_EQ(w.currentIndex(), 2);  // back to what the audience saw, not one further
    QTest::keyClick(&w, Qt::Key_B);
    EXPECT_TRUE(w.isBlanked());
    QTest::keyClick(&w, Qt::Key_B);
    EXPECT_FALSE(w.isBlanked());
}

TEST_F(PresentationTest, PresentationModeFromTheViewMenuAndEscBringsTheMainWindowBack) {
    MainWindow window;
    window.show();
    window.openDemo();
    QAction* present = nullptr;
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Presentation Mode")) present = a;
    }
    ASSERT_NE(present, nullptr);
    EXPECT_TRUE(present->isEnabled());
    const QStringList shortcuts = actionShortcuts(&window);
    EXPECT_TRUE(shortcuts.contains(QStringLiteral("Presentation Mode=F11"))) << shortcuts.join(u' ').toStdString();
    // No other action has F11 or Ctrl+Shift+P (nor does any shortcut appear twice).
    QStringList sequences;
    for (QAction* a : window.findChildren<QAction*>()) {
        for (const QKeySequence& k : a->shortcuts()) sequences << k.toString(QKeySequence::PortableText);
    }
    EXPECT_EQ(sequences.count(QStringLiteral("F11")), 1);
    EXPECT_EQ(sequences.count(QStringLiteral("Ctrl+Shift+P")), 1);
    EXPECT_EQ(QSet<QString>(sequences.begin(), sequences.end()).size(), sequences.size())
        << sequences.join(u' ').toStdString();

    present->trigger();
    QPointer<PresentationWindow> shown = window.presentationWindow();
    ASSERT_TRUE(shown);
    EXPECT_TRUE(shown->isVisible());
    EXPECT_TRUE(shown->isFullScreen());
    EXPECT_EQ(shown->presenterConsole(), nullptr);  // one screen (offscreen): no console window, the N panel instead
    EXPECT_EQ(shown->deck().slides.front().title, "Should " + demoModel() + " run in FP8?");
    QSignalSpy finished(shown.data(), &PresentationWindow::finished);
    QTest::keyClick(shown.data(), Qt::Key_Right);
    EXPECT_EQ(shown->currentIndex(), 1);

    QTest::keyClick(shown.data(), Qt::Key_Escape);
    EXPECT_EQ(finished.count(), 1);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_FALSE(shown);  // closed and gone
    EXPECT_EQ(window.presentationWindow(), nullptr);
    EXPECT_TRUE(window.isVisible());
    EXPECT_FALSE(window.isMinimized());
    EXPECT_TRUE(window.current());  // the document is still there
}

TEST_F(PresentationTest, PresentationModeNeedsADocument) {
    MainWindow window;  // nothing opened
    EXPECT_EQ(window.startPresentation(), nullptr);
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Presentation Mode")) {
            EXPECT_FALSE(a->isEnabled());
        }
    }
}

// ---- presenter notes

TEST_F(PresentationTest, NotesGoWithTheirSlideAndNTogglesThePanel) {
    // Three notes: "Sample logs paired…" and "Hand-edited…" about the whole comparison, one about gsm8k.
    const Json file = presentationReadJson(v1File("paired-judge-control.fp8cmp"));
    QString taskNote, generalNotes[2];
    int general = 0;
    for (const Json& n : file["notes"]) {
        const QString text = QString::fromStdString(n["text"].get<std::string>());
        if (n.contains("task")) {
            taskNote = text;
        } else {
            generalNotes[general++] = text;
        }
    }
    ASSERT_EQ(general, 2);
    ASSERT_FALSE(taskNote.isEmpty());

    PresentationWindow w(evaluated(loadDoc("paired-judge-control.fp8cmp")));
    layOutSlide(w, QSize(1280, 720));
    EXPECT_FALSE(w.isNotesPanelVisible());
    QTest::keyClick(&w, Qt::Key_N);
    EXPECT_TRUE(w.isNotesPanelVisible());

    const QString cover = w.notesPanel()->notesText();
    EXPECT_TRUE(cover.contains(generalNotes[0])) << cover.toStdString();
    EXPECT_TRUE(cover.contains(generalNotes[1]));
    EXPECT_FALSE(cover.contains(taskNote));
    EXPECT_FALSE(w.notesPanel()->talkingPointsText().isEmpty());

    w.goTo(static_cast<int>(*w.deck().indexOf(S::Evals)));
    const QString evals = w.notesPanel()->notesText();
    EXPECT_TRUE(evals.contains(taskNote)) << evals.toStdString();
    EXPECT_TRUE(evals.contains(QStringLiteral("gsm8k")));
    EXPECT_FALSE(evals.contains(generalNotes[0]));
    EXPECT_TRUE(w.notesPanel()->positionText().startsWith(QStringLiteral("2 / 4")));
    EXPECT_TRUE(w.notesPanel()->nextText().contains(QStringLiteral("Domain judge")));

    w.goTo(static_cast<int>(*w.deck().indexOf(S::Judge)));
    EXPECT_TRUE(w.notesPanel()->notesText().contains(QStringLiteral("No notes for this slide")));

    QTest::keyClick(&w, Qt::Key_N);
    EXPECT_FALSE(w.isNotesPanelVisible());
    // A click on the panel is not "next".
    QTest::keyClick(&w, Qt::Key_N);
    const int at = w.currentIndex();
    QTest::mouseClick(w.notesPanel(), Qt::LeftButton, {}, QPoint(30, 30));
    EXPECT_EQ(w.currentIndex(), at);
}

TEST_F(PresentationTest, TheVerdictSlideCarriesTheReviewDecisionAndItsWarning) {
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1920, 1080));
    w.last();
    ASSERT_EQ(w.currentSlide()->step(), S::Verdict);
    // The demo's gsm8k falls by (75.96 - 73.99) / 75.96 = 2.59 % > 1.5 %: investigate, whatever else says.
    auto* title = w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideTitle"));
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->text(), QStringLiteral("INVESTIGATE"));
    auto* band = w.currentSlide()->findChild<QFrame*>(QStringLiteral("verdictBand"));
    ASSERT_NE(band, nullptr);
    EXPECT_TRUE(band->styleSheet().contains(QColor(0xc6, 0x28, 0x28).name()));
    auto* advice = w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideSubtitle"));
    EXPECT_EQ(advice->text(), toQString(verdictAdvice(Verdict::Investigate)));
    // The reasons: each step's own verdict, worst first, in a few words.
    const QWidget* slide = w.currentSlide();
    EXPECT_EQ(figureValue(slide, QStringLiteral("Offline evals")), QStringLiteral("INVESTIGATE"));
    EXPECT_TRUE(figureDetail(slide, QStringLiteral("Offline evals")).startsWith(QStringLiteral("gsm8k drops 2.59%")));
    EXPECT_EQ(figureValue(slide, QStringLiteral("Production timeline")), QStringLiteral("INVESTIGATE"));
    EXPECT_TRUE(figureDetail(slide, QStringLiteral("Production timeline")).contains(QStringLiteral("alert fired")));
    EXPECT_TRUE(figureDetail(slide, QStringLiteral("Domain judge")).contains(QStringLiteral("lower")));
    EXPECT_FALSE(figureValue(slide, QStringLiteral("Domain judge")).startsWith(QStringLiteral("(no figure")));
    // What FP8 buys, from the timeline, the benchmarks and capacity.
    const auto points = slide->findChildren<QLabel*>(QStringLiteral("slidePoint"));
    ASSERT_EQ(points.size(), 1);
    EXPECT_TRUE(points.front()->text().contains(QStringLiteral("×1.91"))) << points.front()->text().toStdString();
    // The demo's candidate (the model card's FP8 checkpoint) quantizes the weights only: the capacity settings' FP8
    // KV cache was never evaluated, so the KV cache's ×2.00 tokens are not promised.
    EXPECT_FALSE(points.front()->text().contains(QStringLiteral("×2.00"))) << points.front()->text().toStdString();
    auto* review = w.currentSlide()->findChild<QLabel*>(QStringLiteral("reviewText"));
    ASSERT_NE(review, nullptr);
    EXPECT_TRUE(review->text().contains(QStringLiteral("Ana Ruiz")));
    EXPECT_TRUE(review->text().contains(QStringLiteral("GSM8K is not in our traffic")));
    // Approved monitor while the evidence says investigate: an override, said on the slide.
    EXPECT_FALSE(w.currentSlide()->findChildren<QLabel*>(QStringLiteral("reviewWarning")).isEmpty());
}

// ---- the facts on the slides, against figures computed here

TEST_F(PresentationTest, EvalsSlideShowsEachTasksDeltaWorstFirst) {
    const Json file = presentationReadJson(v1File("demo-llama3-8b-instruct-fp8.fp8cmp"));
    PresentationWindow w(evaluated(evalsDocument()));
    layOutSlide(w, QSize(1920, 1080));
    w.goTo(1);
    const QWidget* slide = w.currentSlide();
    ASSERT_EQ(w.currentSlide()->step(), S::Evals);

    // The metric of each task is the one the demo's note names (acc_norm, mc2, strict-match exact_match): find it
    // by comparing the displayed baseline with the file's metric values, then recompute the delta.
    const Json& base = file["runs"]["baseline"]["results"]["results"];
    const Json& cand = file["runs"]["candidate"]["results"]["results"];
    QString worstTask;
    double worstDegradation = -1;
    int tasks = 0;
    for (auto it = base.begin(); it != base.end(); ++it) {
        const QString task = QString::fromStdString(it.key());
        QLabel* shownBaseline = taskCell(slide, task, QStringLiteral("baseline"));
        ASSERT_NE(shownBaseline, nullptr) << it.key();
        ++tasks;
        std::string metric;
        for (auto m = it.value().begin(); m != it.value().end(); ++m) {
            if (!m.value().is_number() || m.key().find("stderr") != std::string::npos) continue;
            if (std::fabs(m.value().get<double>() - shownBaseline->text().toDouble()) < 5e-5) metric = m.key();
        }
        ASSERT_FALSE(metric.empty()) << it.key();
        const double b = it.value()[metric].get<double>();
        const double c = cand[it.key()][metric].get<double>();
        const double delta = (c - b) / b * 100;
        const double shown = slideNumber(taskCell(slide, task, QStringLiteral("delta"))->text());
        EXPECT_NEAR(shown, delta, 0.005) << it.key();
        const double degradation = std::max(0.0, -delta);  // every demo metric is higher-is-better
        const char* verdict = degradation < 0.5 ? "go" : degradation <= 1.5 ? "monitor" : "investigate";
        EXPECT_EQ(taskCell(slide, task, QStringLiteral("verdict"))->property("verdict").toString(),
                  QString::fromLatin1(verdict))
            << it.key();
        if (degradation > worstDegradation) {
            worstDegradation = degradation;
            worstTask = task;
        }
    }
    EXPECT_EQ(tasks, 6);
    EXPECT_EQ(worstTask, QStringLiteral("gsm8k"));
    // The worst task is called out: the figure, and the first row of the table.
    EXPECT_NEAR(slideNumber(figureValue(slide, QStringLiteral("Worst task"))), -worstDegradation, 0.005);
    EXPECT_TRUE(figureDetail(slide, QStringLiteral("Worst task")).startsWith(worstTask));
    QList<QLabel*> taskNames;
    for (QLabel* l : slide->findChildren<QLabel*>(QStringLiteral("taskCell")))
        if (l->property("column").toString() == QStringLiteral("task")) taskNames << l;
    std::sort(taskNames.begin(), taskNames.end(),
              [&](QLabel* a, QLabel* b) { return a->mapTo(slide, QPoint()).y() < b->mapTo(slide, QPoint()).y(); });
    ASSERT_FALSE(taskNames.isEmpty());
    EXPECT_EQ(taskNames.front()->text(), worstTask);
    auto* title = slide->findChild<QLabel*>(QStringLiteral("slideTitle"));
    EXPECT_TRUE(title->text().contains(worstTask)) << title->text().toStdString();
    EXPECT_TRUE(title->text().contains(QString::number(worstDegradation, 'f', 2)));
    EXPECT_EQ(figureValue(slide, QStringLiteral("Within go")), QStringLiteral("4 of 6"));  // hellaswag 0.34, mmlu 0.50
}

TEST_F(PresentationTest, JudgeSlideShowsBothMeansTheDegradationAndTheChart) {
    const Json file = presentationReadJson(v1File("judge-bench.fp8cmp"));
    const auto mean = [&](const char* side) {
        double sum = 0;
        int n = 0;
        for (const Json& s : file["judge"][side]["samples"]) {
            sum += s["score"].get<double>();
            ++n;
        }
        return sum / n;
    };
    const double b = mean("baseline"), c = mean("candidate");  // paired by id, every id on both sides
    const double degradation = std::max(0.0, (b - c) / b * 100);

    PresentationWindow w(evaluated(loadDoc("judge-bench.fp8cmp")));
    layOutSlide(w, QSize(1920, 1080));
    w.goTo(1);
    const QWidget* slide = w.currentSlide();
    ASSERT_EQ(w.currentSlide()->step(), S::Judge);
    EXPECT_EQ(figureValue(slide, QStringLiteral("BF16 mean")), QString::number(b, 'f', 2));
    EXPECT_EQ(figureValue(slide, QStringLiteral("FP8 mean")), QString::number(c, 'f', 2));
    EXPECT_EQ(figureValue(slide, QStringLiteral("Degradation")), QString::number(degradation, 'f', 2) + u'%');
    EXPECT_EQ(w.currentSlide()->chartKeys(), QStringList{QStringLiteral("judge-distribution")});
}

TEST_F(PresentationTest, TimelineSlideShowsThroughputQualityAndTheAlert) {
    const TimelineData data = dayTimeline();
    const Means tp = meansAround(data.throughput->samples, kDayStart, kDayEnd, kChangeAt);
    const Means q = meansAround(data.quality->samples, kDayStart, kDayEnd, kChangeAt);
    PresentationWindow w(evaluated(documentWith(data, false)));
    layOutSlide(w, QSize(1920, 1080));
    w.goTo(1);
    const QWidget* slide = w.currentSlide();
    ASSERT_EQ(w.currentSlide()->step(), S::Timeline);
    EXPECT_NEAR(slideNumber(figureValue(slide, QStringLiteral("Throughput"))), (tp.after - tp.before) / tp.before * 100,
                0.05);
    EXPECT_NEAR(slideNumber(figureValue(slide, QStringLiteral("Quality"))), q.after - q.before, 0.005);
    // Quality sits at 3.3 for the hour after the change, 0.9 under the day before: the alert fires after it.
    std::optional<double> firstFiring;
    for (const AlertEpisode& a : data.alerts) {
        if (a.firingAt && *a.firingAt >= kChangeAt && !firstFiring) firstFiring = *a.firingAt;
    }
    ASSERT_TRUE(firstFiring);
    EXPECT_TRUE(figureValue(slide, QStringLiteral("Quality alert")).startsWith(QStringLiteral("fired")));
    const long minutes = std::lround((*firstFiring - kChangeAt) / 60);
    EXPECT_TRUE(figureDetail(slide, QStringLiteral("Quality alert"))
                    .startsWith(QStringLiteral("%1 minutes after the switch").arg(minutes)))
        << figureDetail(slide, QStringLiteral("Quality alert")).toStdString();
    EXPECT_EQ(w.currentSlide()->chartKeys(), QStringList{QStringLiteral("timeline")});
}

TEST_F(PresentationTest, BenchmarkAndCapacitySlidesShowWhatFp8Buys) {
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1920, 1080));
    w.goTo(static_cast<int>(*w.deck().indexOf(S::Benchmarks)));
    const QWidget* bench = w.currentSlide();
    // o at 2048 tokens (1.91); not the square case nor the fast-accumulation row.
    EXPECT_EQ(figureValue(bench, QStringLiteral("FP8 GEMM speedup")), QStringLiteral("×1.91"));
    EXPECT_TRUE(figureDetail(bench, QStringLiteral("FP8 GEMM speedup")).contains(QStringLiteral("2048")));
    // The headline rule: per_tensor's attention-output error at its longest context (16K: 0.047), on the synthetic
    // cache, which the slide says.
    const QString kvFigure = QStringLiteral("FP8 KV cache: attention-output error");
    EXPECT_EQ(figureValue(bench, kvFigure), QStringLiteral("4.7%"));
    EXPECT_TRUE(figureDetail(bench, kvFigure).contains(QStringLiteral("per_tensor scaling, 16K tokens")))
        << figureDetail(bench, kvFigure).toStdString();
    EXPECT_TRUE(figureDetail(bench, kvFigure).contains(QStringLiteral("synthetic cache")));
    EXPECT_EQ(w.currentSlide()->chartKeys(),
              (QStringList{QStringLiteral("bench-speedup"), QStringLiteral("bench-kv")}));

    // Capacity by hand (README "Capacity and the plan"), as vLLM's accounting sizes it (settings made now):
    // Llama-3.1-8B on one H100 SXM (79.19 GiB = 85,029,615,043 bytes reported) at 0.92: 78,227,245,840 requested,
    // less 16,060,522,496 of BF16 weights, the sampler's activation peak (3.75 x 1,024 x 128,256 x 4 + 8,192 x
    // 4,096 x 2 = 2,037,121,024) and 0.25 GiB non-torch = 59,861,166,864 bytes; whole blocks of 16 tokens: 28,544
    // blocks of 131,072-byte tokens in BF16, 57,088 of 65,536-byte ones with an FP8 KV cache. BF16 weights in both.
    const unsigned long long bf16Tokens = 28544ull * 16, fp8KvTokens = 57088ull * 16;
    w.goTo(static_cast<int>(*w.deck().indexOf(S::Capacity)));
    const QWidget* capacity = w.currentSlide();
    QLocale english(QLocale::English);
    EXPECT_EQ(figureValue(capacity, QStringLiteral("BF16")), english.toString(bf16Tokens));
    EXPECT_EQ(figureValue(capacity, QStringLiteral("BF16 weights, FP8 KV")), english.toString(fp8KvTokens));
    EXPECT_EQ(figureValue(capacity, QStringLiteral("Gain")),
              QStringLiteral("×") + QString::number(double(fp8KvTokens) / double(bf16Tokens), 'f', 2));
    EXPECT_TRUE(figureDetail(capacity, QStringLiteral("BF16"))
                    .contains(english.toString(bf16Tokens / 8192) + QStringLiteral(" sequences of 8,192")));
}

// ---- looks

TEST_F(PresentationTest, NothingIsClippedAtEitherSize) {
    const QString shots = qEnvironmentVariable("FP8DASH_SLIDE_SHOTS");
    if (!shots.isEmpty()) {
        QDir().mkpath(shots);
        // The same document as a file, to present it with `fp8dash --present` on a real screen.
        EXPECT_TRUE(saveComparisonFile(fullDocument(), (shots + QStringLiteral("/full.fp8cmp")).toStdString()).ok());
    }
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
        PresentationWindow w(evaluated(fullDocument()));
        layOutSlide(w, size);
        for (int i = 0; i < w.slideCount(); ++i) {
            w.goTo(i);
            QApplication::processEvents();
            const QImage picture = w.grab().toImage();
            EXPECT_EQ(picture.size(), size * picture.devicePixelRatio());
            EXPECT_EQ(w.currentSlide()->size(), size);
            const QStringList clipped = clippedSlideLabels(w.currentSlide());
            EXPECT_TRUE(clipped.isEmpty()) << size.width() << "x" << size.height() << " slide " << i + 1 << ": "
                                           << clipped.join(QStringLiteral("; ")).toStdString();
            // The slide's layout fits: its minimum is no larger than the screen.
            EXPECT_LE(w.currentSlide()->minimumSizeHint().height(), size.height()) << "slide " << i + 1;
            if (!shots.isEmpty()) {
                QDir().mkpath(shots);
                picture.save(
                    QStringLiteral("%1/slide-%2-%3x%4.png").arg(shots).arg(i + 1).arg(size.width()).arg(size.height()));
                w.setNotesPanelVisible(true);
                if (i == 1)
                    w.grab().save(QStringLiteral("%1/notes-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
                w.setNotesPanelVisible(false);
            }
        }
    }
}

TEST_F(PresentationTest, ChartsAreDrawnLargeEnoughToRead) {
    // The chart pictures are drawn at the scale that makes their ~13 px text ~23 px on a 1080-line screen.
    PresentationWindow w(evaluated(fullDocument()));
    layOutSlide(w, QSize(1920, 1080));
    w.goTo(static_cast<int>(*w.deck().indexOf(S::Judge)));
    const auto request = PresentationSlideView::chartRequest(w.deck().slides[2], QSize(1920, 1080));
    EXPECT_GE(request.scale, 1.7);
    EXPECT_GE(request.logicalSize.width(), 320);
    auto* chart = w.currentSlide()->findChild<QWidget*>(QStringLiteral("slideChart"));
    ASSERT_NE(chart, nullptr);
    EXPECT_GT(chart->width(), 700);  // most of the slide's width beside the figures
    EXPECT_FALSE(chart->accessibleName().isEmpty());
}

// ---- odd documents

TEST_F(PresentationTest, OddDocumentsPresentWithoutTrouble) {
    std::vector<std::pair<std::string, ComparisonDocument>> docs;
    {
        TimelineData noChange = dayTimeline();  // a timeline without a change time: no verdict at all
        noChange.settings.changeAt.reset();
        docs.emplace_back("timeline without change time", documentWith(noChange, false));
    }
    {
        ComparisonDocument judgeOnly = loadDoc("judge-bench.fp8cmp");
        judgeOnly.benchmarks.reset();
        judgeOnly.notes.clear();
        docs.emplace_back("judge only, no notes", judgeOnly);
    }
    {
        ComparisonDocument benchOnly;
        benchOnly.hasEvals = false;
        benchOnly.title = "CPU machine";
        benchOnly.benchmarks = loadDoc("judge-bench.fp8cmp").benchmarks;  // GEMM skipped, KV sweep only
        docs.emplace_back("benchmarks skipped on a CPU", benchOnly);
    }
    {
        ComparisonDocument capacityOnly;
        capacityOnly.hasEvals = false;
        capacityOnly.capacity = CapacitySettings{};
        capacityOnly.capacity->model = "llama-3.1-70b";  // BF16 does not fit two H100s; FP8 does
        capacityOnly.capacity->gpus = 2;
        docs.emplace_back("capacity only, BF16 does not fit", capacityOnly);
    }
    {
        ComparisonDocument nothing;  // nothing at all but a title
        nothing.hasEvals = false;
        nothing.title = "Empty";
        docs.emplace_back("nothing", nothing);
    }
    for (auto& [what, doc] : docs) {
        PresentationWindow w(evaluated(doc));
        layOutSlide(w, QSize(1280, 720));
        ASSERT_GE(w.slideCount(), 2) << what;
        EXPECT_EQ(w.deck().slides.front().step, S::Cover) << what;
        EXPECT_EQ(w.deck().slides.back().step, S::Verdict) << what;
        const QString shots = qEnvironmentVariable("FP8DASH_SLIDE_SHOTS");
        for (int i = 0; i < w.slideCount(); ++i) {
            w.goTo(i);
            if (!shots.isEmpty()) {
                QString name = QString::fromStdString(what);
                name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
                w.grab().save(QStringLiteral("%1/odd-%2-%3.png").arg(shots, name).arg(i + 1));
            }
            EXPECT_TRUE(clippedSlideLabels(w.currentSlide()).isEmpty())
                << what << ", slide " << i + 1 << ": " << clippedSlideLabels(w.currentSlide()).join(u';').toStdString();
        }
    }
    // Without a change time nothing gives a verdict: the verdict slide says so in grey.
    PresentationWindow w(evaluated(docs[0].second));
    w.last();
    EXPECT_EQ(w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideTitle"))->text(), QStringLiteral("NO VERDICT"));
    EXPECT_EQ(w.currentSlide()->findChild<QLabel*>(QStringLiteral("slideVerdict")), nullptr);
}

// ---- the presenter console (two screens; drawn here on its own, as offscreen has one screen)

TEST_F(PresentationTest, PresenterConsoleShowsTheSlideTheNextOneAndTheClock) {
    const PresentationDeck deck = buildPresentationDeck(loadDoc("demo-llama3-8b-instruct-fp8.fp8cmp"),
                                                        decide(loadDoc("demo-llama3-8b-instruct-fp8.fp8cmp")).value());
    PresenterConsole console(PresenterConsole::Form::Window);
    console.setSlide(deck, 1);
    EXPECT_EQ(console.positionText(), QStringLiteral("2 / 3 · Offline evals"));
    EXPECT_EQ(console.titleText(), toQString(deck.slides[1].title));
    EXPECT_EQ(console.nextText(), QStringLiteral("Next: Verdict — INVESTIGATE"));
    EXPECT_TRUE(console.notesText().contains(QStringLiteral("GSM8K loses 2.6% relative")));
    console.setElapsedSeconds(65);
    EXPECT_EQ(console.elapsedText(), QStringLiteral("01:05"));
    console.setElapsedSeconds(3725);
    EXPECT_EQ(console.elapsedText(), QStringLiteral("1:02:05"));
    console.setSlide(deck, 2);
    EXPECT_EQ(console.nextText(), QStringLiteral("Last slide"));

    QSignalSpy next(&console, &PresenterConsole::nextRequested);
    QSignalSpy previous(&console, &PresenterConsole::previousRequested);
    QSignalSpy end(&console, &PresenterConsole::endRequested);
    ASSERT_NE(console.nextButton(), nullptr);
    console.nextButton()->click();
    console.previousButton()->click();
    console.endButton()->click();
    EXPECT_EQ(next.count(), 1);
    EXPECT_EQ(previous.count(), 1);
    EXPECT_EQ(end.count(), 1);
    for (QPushButton* b : console.findChildren<QPushButton*>()) {
        EXPECT_FALSE(b->accessibleName().isEmpty()) << b->text().toStdString();
        EXPECT_EQ(b->focusPolicy(), Qt::NoFocus);  // Space on a focused button would click it instead of "next"
    }
}

TEST_F(PresentationTest, TheConsoleWindowFollowsTheSlidesAndItsKeysAndButtonsNavigate) {
    QPointer<PresentationWindow> w = new PresentationWindow(evaluated(fullDocument()));
    w->setAttribute(Qt::WA_DontShowOnScreen);
    w->start(nullptr, PresentationWindow::ConsoleMode::Always);  // two screens' console, on offscreen's one
    QPointer<PresenterConsole> console = w->presenterConsole();
    ASSERT_TRUE(console);
    EXPECT_TRUE(console->isVisible());
    EXPECT_EQ(console->form(), PresenterConsole::Form::Window);
    EXPECT_EQ(console->positionText(), QStringLiteral("1 / 7 · Cover"));
    // Keys pressed while the console has the focus drive the slides.
    QTest::keyClick(console.data(), Qt::Key_PageDown);
    EXPECT_EQ(w->currentIndex(), 1);
    EXPECT_EQ(console->positionText(), QStringLiteral("2 / 7 · Offline evals"));
    EXPECT_TRUE(console->nextText().startsWith(QStringLiteral("Next: Domain judge")));
    if (const QString shots = qEnvironmentVariable("FP8DASH_SLIDE_SHOTS"); !shots.isEmpty()) {
        console->resize(1280, 720);
        console->setTextPixelSize(20);
        console->grab().save(shots + QStringLiteral("/console-1280x720.png"));
    }
    console->nextButton()->click();
    EXPECT_EQ(w->currentIndex(), 2);
    console->previousButton()->click();
    EXPECT_EQ(w->currentIndex(), 1);
    QSignalSpy finished(w.data(), &PresentationWindow::finished);
    console->endButton()->click();
    EXPECT_EQ(finished.count(), 1);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_FALSE(w);
    EXPECT_FALSE(console);  // the console goes with the slides
}

// ---- fp8dash --present

TEST_F(PresentationTest, PresentWithoutAFileStartsOnTheDemo) {
    QPointer<MainWindow> window = openStartupWindows({}, true);
    ASSERT_TRUE(window);
    PresentationWindow* shown = window->presentationWindow();
    ASSERT_NE(shown, nullptr);
    EXPECT_TRUE(shown->isVisible());
    EXPECT_EQ(shown->currentIndex(), 0);
    EXPECT_EQ(window->displayName(), toQString(kDemoName));
    EXPECT_EQ(shown->deck().slides.front().title, "Should " + demoModel() + " run in FP8?");  // the bundled file's
    QTest::keyClick(shown, Qt::Key_Escape);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(window->isVisible());
    window->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

TEST_F(PresentationTest, PresentWithAFileStartsOnThatFileOnceLoaded) {
    QPointer<MainWindow> window = openStartupWindows({v1File("judge-bench.fp8cmp")}, true);
    ASSERT_TRUE(window);
    QSignalSpy shown(window.data(), &MainWindow::documentShown);
    if (!window->current()) {
        ASSERT_TRUE(shown.wait(10000));
    }
    ASSERT_NE(window->presentationWindow(), nullptr);
    EXPECT_EQ(stepsOf(*window->presentationWindow()), (std::vector<S>{S::Cover, S::Judge, S::Benchmarks, S::Verdict}));
    window->presentationWindow()->leave();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    window->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    // Without --present the same file opens in the window only.
    QPointer<MainWindow> plain = openStartupWindows({v1File("judge-bench.fp8cmp")}, false);
    QSignalSpy plainShown(plain.data(), &MainWindow::documentShown);
    if (!plain->current()) {
        ASSERT_TRUE(plainShown.wait(10000));
    }
    EXPECT_EQ(plain->presentationWindow(), nullptr);
    plain->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

}  // namespace
}  // namespace fp8dash::ui::test
