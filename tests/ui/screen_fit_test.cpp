// Windows fit the screens there are: the pure placement functions (screen_fit.h) case by case, a remembered
// 1600 × 1000 window opening on a 1366 × 768 laptop screen (this test program run again on the offscreen platform
// configured with that screen and a projector beside it), and the presentation following its screen.
#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/screen_fit.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

const QRect kLaptop(0, 0, 1366, 768);
const QRect kProjector(1366, 0, 1920, 1080);

struct FitCase {
    const char* what;
    QRect window;
    QRect available;
    QRect expected;  // worked out by hand
};

TEST(ScreenFit, WindowIsClampedToTheAvailableAreaAndMovedOntoIt) {
    const FitCase cases[] = {
        {"larger than the screen", {100, 50, 1600, 1000}, kLaptop, {0, 0, 1366, 768}},
        {"fits already", {100, 100, 800, 600}, kLaptop, {100, 100, 800, 600}},
        {"hangs over the bottom right", {1200, 700, 800, 600}, kLaptop, {566, 168, 800, 600}},
        {"off the top left", {-3000, -3000, 800, 600}, kLaptop, {0, 0, 800, 600}},
        {"wider only", {10, 20, 2000, 500}, kLaptop, {0, 20, 1366, 500}},
        {"a panel at the top (available starts at y 28)", {0, 0, 900, 800}, {0, 28, 1366, 740}, {0, 28, 900, 740}},
        {"the screen left of the primary", {-200, 10, 800, 600}, {-1366, 0, 1366, 768}, {-800, 10, 800, 600}},
        {"on the projector, too large", {2000, 100, 2000, 1200}, kProjector, {1366, 0, 1920, 1080}},
        {"an invalid window stays as it is", QRect(), kLaptop, QRect()},
    };
    for (const FitCase& c : cases) {
        SCOPED_TRACE(c.what);
        const QRect fitted = fitToScreen(c.window, c.available);
        EXPECT_EQ(fitted, c.expected);
        if (c.window.isValid()) {
            EXPECT_TRUE(c.available.contains(fitted));
        }
    }
}

TEST(ScreenFit, TheScreenAWindowOpensOn) {
    const QList<QRect> two{kLaptop, kProjector};
    EXPECT_EQ(screenFor({100, 100, 800, 600}, two, 0), 0);
    EXPECT_EQ(screenFor({1500, 100, 800, 600}, two, 0), 1);       // centre on the projector
    EXPECT_EQ(screenFor({1000, 100, 800, 600}, two, 0), 1);       // centre at x 1400: the projector
    EXPECT_EQ(screenFor({-900, 700, 1000, 200}, two, 1), 0);      // centre off both; overlaps the laptop only
    EXPECT_EQ(screenFor({5000, 5000, 800, 600}, two, 1), 1);      // on none: the primary
    EXPECT_EQ(screenFor({5000, 5000, 800, 600}, two, 7), 0);      // a bad primary: the first
    EXPECT_EQ(screenFor({0, 0, 10, 10}, QList<QRect>{}, 0), -1);  // no screens
}

TEST(ScreenFit, SlidesFollowTheScreensThatAreThere) {
    const ScreenInfo laptop{QStringLiteral("laptop"), kLaptop};
    const ScreenInfo projector{QStringLiteral("projector"), kProjector};
    const ScreenInfo projectorResized{QStringLiteral("projector"), QRect(1366, 0, 1280, 720)};
    const ScreenInfo tv{QStringLiteral("tv"), QRect(-3840, 0, 3840, 2160)};
    struct Case {
        const char* what;
        QList<ScreenInfo> screens;
        QString current;
        QString presenter;
        int screen;
        QRect geometry;
    } cases[] = {
        {"one screen: shared with the presenter", {laptop}, "laptop", "laptop", 0, kLaptop},
        {"a projector plugged in: the slides go there", {laptop, projector}, "laptop", "laptop", 1, kProjector},
        {"the projector resized: its new size",
         {laptop, projectorResized},
         "projector",
         "laptop",
         1,
         QRect(1366, 0, 1280, 720)},
        {"the projector unplugged: back to the laptop", {laptop}, "projector", "laptop", 0, kLaptop},
        {"the slides' screen went, another is there", {laptop, tv}, "projector", "laptop", 1, tv.geometry},
        {"on the second of two other screens: they stay",
         {laptop, tv, projector},
         "projector",
         "laptop",
         2,
         kProjector},
        {"the presenter's screen went", {projector}, "projector", "laptop", 0, kProjector},
        {"presenter unknown: where they are", {laptop, projector}, "projector", "", 1, kProjector},
        {"no screens at all", {}, "laptop", "laptop", -1, QRect()},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const SlidesPlacement p = placeSlides(c.screens, c.current, c.presenter);
        EXPECT_EQ(p.screen, c.screen);
        EXPECT_EQ(p.geometry, c.geometry);
    }
}

class ScreenFitWindowTest : public GuiTest {};

// Run by RememberedLargeWindowOpensWholeOnALaptopScreen in a process of its own, whose offscreen platform has a
// 1366 × 768 laptop screen and a 1920 × 1080 projector to its right; skipped otherwise.
TEST_F(ScreenFitWindowTest, ChildOnLaptopAndProjector) {
    if (qEnvironmentVariableIsEmpty("FP8DASH_SCREEN_FIT_CHILD")) GTEST_SKIP() << "run by the test below";
    const QList<QScreen*> screens = QGuiApplication::screens();
    ASSERT_EQ(screens.size(), 2);
    QScreen* laptop = QGuiApplication::primaryScreen();
    ASSERT_EQ(laptop->geometry(), kLaptop);

    // The window as it was remembered on a large monitor.
    QWidget probe;
    probe.setGeometry(40, 30, 1600, 1000);
    QSettings().setValue(QStringLiteral("mainWindow/geometry"), probe.saveGeometry());
    {
        QWidget check;
        ASSERT_TRUE(check.restoreGeometry(probe.saveGeometry()));
        ASSERT_GT(check.geometry().width(), kLaptop.width());  // restored as it was, without the fit
    }
    MainWindow window;
    const QRect opened = window.geometry();
    EXPECT_TRUE(laptop->availableGeometry().contains(opened))
        << opened.x() << "," << opened.y() << " " << opened.width() << "x" << opened.height();
    EXPECT_EQ(opened.size(), laptop->availableGeometry().size());  // as large as the laptop allows

    // The presentation: the slides on the projector (not the presenter's laptop), full screen.
    window.show();
    window.openDemo();
    PresentationWindow* show = window.startPresentation();
    ASSERT_NE(show, nullptr);
    EXPECT_EQ(show->screen()->geometry(), kProjector);
    EXPECT_EQ(show->geometry(), kProjector);
    show->leave();
    std::printf("fp8dash-screen-fit-child-done\n");
}

TEST_F(ScreenFitWindowTest, RememberedLargeWindowOpensWholeOnALaptopScreen) {
    if (!qEnvironmentVariableIsEmpty("FP8DASH_SCREEN_FIT_CHILD")) GTEST_SKIP() << "the child itself";
    runChildOnScreens(R"({"screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "dpr": 1.0},
        {"name": "projector", "x": 1366, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "dpr": 1.0}]})",
                      QStringLiteral("FP8DASH_SCREEN_FIT_CHILD"),
                      QStringLiteral("ScreenFitWindowTest.ChildOnLaptopAndProjector"),
                      QStringLiteral("fp8dash-screen-fit-child-done"));
}

// On this process' one screen: the slides' screen announcing a new geometry puts a window that was moved or made
// smaller back to full screen on it.
TEST_F(ScreenFitWindowTest, PresentationReturnsToItsScreenWhenTheScreenChanges) {
    auto loaded = evaluateForDisplay(loadDemoComparison().value(), QStringLiteral("demo"));
    ASSERT_TRUE(loaded.ok());
    PresentationWindow show(std::move(loaded).value());
    show.start();
    QScreen* screen = show.screen();
    ASSERT_NE(screen, nullptr);
    show.showNormal();
    show.setGeometry(20, 20, 300, 200);
    ASSERT_NE(show.geometry(), screen->geometry());
    emit screen->geometryChanged(screen->geometry());
    EXPECT_EQ(show.geometry(), screen->geometry());
    EXPECT_TRUE(show.isFullScreen());
    show.leave();
}

}  // namespace
}  // namespace fp8dash::ui::test
