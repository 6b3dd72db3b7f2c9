#pragma once
// Shared fixture of the ui tests: one QApplication for the whole test program (created on first use, offscreen),
// settings isolated from the user's, no D-Bus session (so no system keychain and no desktop portal), recovery
// files in a temporary folder of the test program's own, and helpers to read the task table
// and build comparisons from the fixtures.

#include <gtest/gtest.h>

#include <QModelIndex>
#include <QString>

#include <optional>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/local_device.h"

class QAbstractItemModel;

class QWidget;

namespace fp8dash::ui {
class MainWindow;
class PresentationWindow;
}  // namespace fp8dash::ui

namespace fp8dash::ui::test {

// A control or a bidi override that a view would act on (untrusted_ui.h, visibleText): C0 but newline and tab, DEL,
// C1, the bidi embeddings, overrides, isolates and marks, the line and paragraph separators. The first one, or 0.
inline char16_t rawControl(const QString& text) {
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        if ((c < 0x20 && c != u'\n' && c != u'\t') || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
            (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C || c == 0x2028 || c == 0x2029)
            return c;
    }
    return 0;
}

// A picture of the window into $FP8DASH_SCREENSHOT_DIR/<name> when that is set (for looking at a test's window).
void saveScreenshot(QWidget& window, const QString& name);

// Runs this test binary again with only `childTest` (a gtest filter), on the offscreen platform with the screens of
// `screensJson` (Qt's offscreen configfile: {"screens": [...]}) and `childVariable` set to 1, so the child test runs
// instead of skipping; expects it to exit 0 and to have printed `doneMarker`.
void runChildOnScreens(const char* screensJson, const QString& childVariable, const QString& childTest,
                       const QString& doneMarker);

class GuiTest : public ::testing::Test {
public:
    static void SetUpTestSuite();

protected:
    void SetUp() override;
};

// The shared fixtures folder, or an empty string when it is absent (tests then skip).
std::string sharedFixture(const std::string& relative);
#define FP8DASH_REQUIRE_FIXTURE(path)                                                                   \
    do {                                                                                                \
        if ((path).empty()) GTEST_SKIP() << "shared fixtures not found under " FP8DASH_SHARED_FIXTURES; \
    } while (0)

// The demo comparison file as JSON, read from the source tree (independent of the UI and of core's loader).
Json demoJson();

// The demo as fp8dash 0.1.0 shipped it (tests/data/comparison-files/v1): the evals and two notes, nothing else. The
// bundled demo also carries judge scores, a timeline, benchmarks, capacity inputs and a decision.
ComparisonDocument evalsOnlyDemo();
void showEvalsOnly(MainWindow& window);  // shows evalsOnlyDemo() as an unsaved document named "evals only"

// A document comparing two lm-eval files, built with core's public API.
ComparisonDocument documentFromRuns(const std::string& baselinePath, const std::string& candidatePath,
                                    const std::string& baselineLabel = "BF16",
                                    const std::string& candidateLabel = "FP8");

// The row under parent whose Task column shows name, or an invalid index.
// Every action of a widget tree with a shortcut, as "Text=Ctrl+X" (mnemonic ampersands removed).
QStringList actionShortcuts(const QWidget* root);

QModelIndex findTaskRow(const QAbstractItemModel* model, const QString& name, const QModelIndex& parent = {});
QString cellText(const QAbstractItemModel* model, const QModelIndex& row, int column);

// "-2.59%" / "+0.3σ" -> the number (accepts an ASCII or Unicode minus).
std::optional<double> leadingNumber(QString text);

// The expected display of a relative change, computed here: sign, 2 decimals, percent.
QString expectedDeltaText(double baseline, double candidate);

// The device status of a machine without an NVIDIA driver: the CPU path, as on CI.
inline LocalDeviceStatus noGpu() {
    LocalDeviceStatus s;
    s.backend = "cpu";
    s.available = false;
    s.unavailableCode = "no_driver";
    s.reason = "no NVIDIA driver is loaded";
    return s;
}

// Presentation tests: a slide's figure ("+1.5%", "−2.59%", "costs 0.53%") as a number; the labels whose text does
// not fit where they are (outside the slide, a single line wider than its label, wrapped text taller than its label);
// the window's slide drawn at `size` (not shown on screen; grab lays it out).
double slideNumber(const QString& text);
QStringList clippedSlideLabels(const QWidget* slide);
void layOutSlide(PresentationWindow& w, QSize size);

}  // namespace fp8dash::ui::test
