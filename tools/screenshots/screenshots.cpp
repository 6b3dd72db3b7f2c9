// fp8dash-screenshots: the documentation's pictures, made from the real app's widgets (tools/make_screenshots.sh runs
// it; docs/development.md, "Screenshots"). Offscreen, at fixed sizes, in both themes, with settings of its own (never
// the user's): every main-window tab on the bundled demo, the "Which layers" tab on a comparison with several
// candidates (the vLLM blog's Qwen3.5-27B variants in tests/data), the New Comparison dialog with two runs picked,
// and every slide of the demo's presentation. Each picture is written as OUT/<name>-<W>x<H>-<theme>.png, and the
// list of what was written, one "name width height" a line, as OUT/screenshots.txt. Exit 0 when every picture was
// written, 2 on bad arguments or inputs (the message names the file), 1 when a picture could not be written.

#include <QAbstractAnimation>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QThreadPool>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/new_comparison_dialog.h"
#include "fp8dash/ui/presentation_window.h"
#include "fp8dash/ui/recovery_store.h"
#include "fp8dash/ui/theme.h"

using namespace fp8dash;
using namespace fp8dash::ui;

namespace {

const std::vector<QSize> kWindowSizes{{1366, 768}, {1920, 1080}};
const QSize kSlideSize{1920, 1080};

// The tabs and the names their pictures get (stable: docs/ embeds them by name).
const std::vector<std::pair<ComparisonView::Tab, QString>> kTabs{
    {ComparisonView::EvalsTab, QStringLiteral("evals")},       {ComparisonView::JudgeTab, QStringLiteral("judge")},
    {ComparisonView::TimelineTab, QStringLiteral("timeline")}, {ComparisonView::BenchTab, QStringLiteral("benchmarks")},
    {ComparisonView::CapacityTab, QStringLiteral("capacity")}, {ComparisonView::ServingTab, QStringLiteral("serving")},
    {ComparisonView::ReviewTab, QStringLiteral("review")}};

struct Shots {
    QDir out;
    QStringList written;  // "name width height"
    bool failed = false;

    void save(QWidget& widget, const QString& name) {
        const QImage image = widget.grab().toImage();
        const QString file = name + QStringLiteral(".png");
        // Quality 0: the PNG writer's strongest compression (the pictures are committed under docs/images).
        if (image.isNull() || !image.save(out.filePath(file), "PNG", 0)) {
            std::fprintf(stderr, "fp8dash-screenshots: could not write %s\n", qPrintable(out.filePath(file)));
            failed = true;
            return;
        }
        written << QStringLiteral("%1 %2 %3").arg(file).arg(image.width()).arg(image.height());
    }
};

QString sizeName(QSize s) {
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
}

// Lets the widgets lay out and paint, and the work they started off the GUI thread (a run's detection, a chart's
// data) finish and deliver its result. Bounded by rounds, not by time: nothing here waits on the clock.
void settle() {
    for (int round = 0; round < 5; ++round) {
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

// Runs the event loop until the animations under root have ended (a line edit's clear button fades in): the picture
// is then their end state, whatever the machine's speed. Waits on the animations' state, not on a clock.
void finishAnimations(QWidget& root) {
    for (int round = 0; round < 1000; ++round) {
        bool running = false;
        for (const QAbstractAnimation* a : root.findChildren<QAbstractAnimation*>())
            running = running || a->state() == QAbstractAnimation::Running;
        if (!running) return;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    }
}

bool copyRun(const QString& from, const QString& to) {
    if (!QDir().mkpath(to)) return false;
    for (const QFileInfo& f : QDir(from).entryInfoList(QDir::Files)) {
        if (!QFile::copy(f.absoluteFilePath(), QDir(to).filePath(f.fileName()))) return false;
    }
    return true;
}

void mainWindowShots(Shots& shots, const QString& theme, const LoadedComparison* variants) {
    for (const QSize size : kWindowSizes) {
        MainWindow window;
        window.resize(size);
        window.show();
        window.openDemo();
        settle();
        ComparisonView* view = window.comparisonView();
        // The offline notice names what this machine lacks (a GPU, a CUDA build): closed, as its × would, so the
        // pictures are the same on every machine.
        view->setOfflineNotice({});
        for (const auto& [tab, name] : kTabs) {
            if (!view->tabs()->isTabVisible(tab)) continue;
            view->showTab(tab);
            settle();
            finishAnimations(window);
            shots.save(window, QStringLiteral("%1-%2-%3").arg(name, sizeName(size), theme));
        }
        if (variants) {
            window.showDocument(variants->document, {}, QStringLiteral("Qwen3.5-27B: BF16 vs 3 FP8 variants"));
            settle();
            view->setOfflineNotice({});
            if (view->tabs()->isTabVisible(ComparisonView::LayersTab)) {
                view->showTab(ComparisonView::LayersTab);
                settle();
                shots.save(window, QStringLiteral("layers-%1-%2").arg(sizeName(size), theme));
            }
        }
    }
}

// The dialog with a baseline and a candidate picked by relative paths (results/bf16, results/fp8 in a scratch
// folder that is the working directory), so the picture shows no path of this machine.
void dialogShots(Shots& shots, const QString& theme, const QString& variantsDir) {
    QTemporaryDir scratch;
    const QString before = QDir::currentPath();
    const bool runs =
        scratch.isValid() &&
        copyRun(variantsDir + QStringLiteral("/bf16"), scratch.filePath(QStringLiteral("results/bf16"))) &&
        copyRun(variantsDir + QStringLiteral("/fp8-weights-kv"), scratch.filePath(QStringLiteral("results/fp8")));
    if (runs) QDir::setCurrent(scratch.path());
    {
        NewComparisonDialog dialog;
        dialog.show();
        settle();
        // Picked once the dialog is on screen, so the line edits' clear buttons fade in now (finishAnimations).
        if (runs) {
            dialog.setBaselinePath(QStringLiteral("results/bf16"));
            dialog.setCandidatePath(QStringLiteral("results/fp8"));
            // A typed path is read once typing pauses (a timer): wait for both previews, five seconds at most.
            QElapsedTimer waited;
            waited.start();
            while ((dialog.detectedText(0).isEmpty() || dialog.detectedText(1).isEmpty()) && waited.elapsed() < 5000) {
                settle();
                QThread::msleep(20);
            }
        }
        settle();
        if (QWidget* focus = QApplication::focusWidget()) focus->clearFocus();  // no text caret in the picture
        settle();
        finishAnimations(dialog);
        shots.save(dialog, QStringLiteral("new-comparison-%1").arg(theme));
    }
    QDir::setCurrent(before);
}

void slideShots(Shots& shots, const LoadedComparison& demo) {
    PresentationWindow slides(demo);
    slides.setAttribute(Qt::WA_DontShowOnScreen);
    slides.resize(kSlideSize);
    slides.show();
    settle();
    for (int i = 0; i < slides.slideCount(); ++i) {
        slides.goTo(i);
        settle();
        // The slides stay light in either theme (projectors): one set.
        shots.save(slides,
                   QStringLiteral("slide-%1-%2-light").arg(i + 1, 2, 10, QLatin1Char('0')).arg(sizeName(kSlideSize)));
    }
}

int usage() {
    std::fprintf(stderr,
                 "usage: fp8dash-screenshots --out DIR --variants DIR\n"
                 "  --out DIR       where the PNGs and screenshots.txt go (created; files of the same names replaced)\n"
                 "  --variants DIR  lm-eval runs bf16/, fp8-kv/, fp8-weights/, fp8-weights-kv/ "
                 "(tests/data/lm-eval-variants/qwen3.5-27b)\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    QString outDir, variantsDir;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if ((arg == QStringLiteral("--out") || arg == QStringLiteral("--variants")) && i + 1 < argc) {
            (arg == QStringLiteral("--out") ? outDir : variantsDir) = QString::fromLocal8Bit(argv[++i]);
        } else {
            return usage();
        }
    }
    if (outDir.isEmpty() || variantsDir.isEmpty()) return usage();
    if (!QFileInfo(variantsDir + QStringLiteral("/bf16")).isDir()) {
        std::fprintf(stderr, "fp8dash-screenshots: --variants %s: no bf16/ folder of lm-eval results there\n",
                     qPrintable(variantsDir));
        return 2;
    }

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // No keychain and no desktop portal: the pictures never depend on the session this runs in.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/fp8dash-screenshots/bus");
    QApplication app(argc, argv);
    std::setlocale(LC_NUMERIC, "C");  // as the app does: core prints numbers with '.'
    QApplication::setApplicationName(QStringLiteral("fp8dash"));
    QApplication::setOrganizationName(QStringLiteral("fp8dash"));
    QApplication::setCursorFlashTime(0);  // a text caret that does not blink: the same picture every time
    // The app's own font rule (gui_main.cpp): 10 pt where the platform falls back to 9.
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0 && font.pointSizeF() < 10) {
        font.setPointSizeF(10);
        QApplication::setFont(font);
    }
    // Settings and autosaves of its own, gone at the end: first-start state (banner details closed, no recent files).
    QTemporaryDir state;
    if (!state.isValid()) {
        std::fprintf(stderr, "fp8dash-screenshots: could not make a temporary folder\n");
        return 1;
    }
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, state.filePath(QStringLiteral("config")));
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, state.filePath(QStringLiteral("config")));
    RecoveryStore::setDefaultDirectory(state.filePath(QStringLiteral("recovery")));
    // The reviewer's name the note composer offers (review_dialogs.cpp, "review/name"), else the account's: a fixed
    // one, so no user name of this machine shows in the pictures.
    QSettings().setValue(QStringLiteral("review/name"), QStringLiteral("A. Reviewer"));

    Shots shots;
    shots.out = QDir(outDir);
    if (!shots.out.mkpath(QStringLiteral("."))) {
        std::fprintf(stderr, "fp8dash-screenshots: --out %s: could not create the folder\n", qPrintable(outDir));
        return 2;
    }

    NewComparisonRequest request;
    request.baselinePath = variantsDir + QStringLiteral("/bf16");
    request.candidatePath = variantsDir + QStringLiteral("/fp8-kv");
    request.moreCandidatePaths = {variantsDir + QStringLiteral("/fp8-weights"),
                                  variantsDir + QStringLiteral("/fp8-weights-kv")};
    request.moreCandidateLabels = {QString(), QString()};
    request.baselineLabel = QString();  // named from the layers, as New Comparison does with empty labels
    request.candidateLabel = QString();
    auto variants = buildNewComparison(request);
    if (!variants) {
        std::fprintf(stderr, "fp8dash-screenshots: --variants %s: %s\n", qPrintable(variantsDir),
                     variants.error().message.c_str());
        return 2;
    }

    for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
        Theme::instance()->setMode(mode);
        settle();
        const QString theme = themeModeName(mode);
        mainWindowShots(shots, theme, &variants.value());
        dialogShots(shots, theme, variantsDir);
    }
    Theme::instance()->setMode(ThemeMode::Light);
    {
        MainWindow window;  // the demo as the app evaluates it, for the slides
        window.openDemo();
        settle();
        if (!window.current()) {
            std::fprintf(stderr, "fp8dash-screenshots: the bundled demo could not be shown\n");
            return 1;
        }
        slideShots(shots, *window.current());
    }

    QFile list(shots.out.filePath(QStringLiteral("screenshots.txt")));
    if (!list.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        std::fprintf(stderr, "fp8dash-screenshots: could not write %s\n", qPrintable(list.fileName()));
        return 1;
    }
    QTextStream(&list) << shots.written.join(QLatin1Char('\n')) << '\n';
    std::printf("fp8dash-screenshots: %lld pictures in %s\n", static_cast<long long>(shots.written.size()),
                qPrintable(QDir::toNativeSeparators(shots.out.absolutePath())));
    QThreadPool::globalInstance()->waitForDone();
    return shots.failed ? 1 : 0;
}
