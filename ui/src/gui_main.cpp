#include "fp8dash/ui/gui_main.h"

#include <QApplication>
#include <QIcon>

#include <clocale>

#include "fp8dash/core/version.h"
#include "fp8dash/ui/main_window.h"
#include "ui_style.h"

namespace fp8dash::ui {

namespace {

QIcon applicationIcon() {
    QIcon icon;
    for (int size : {48, 128, 256}) icon.addFile(QStringLiteral(":/icons/fp8dash-%1.png").arg(size), QSize(size, size));
    return icon;
}

}  // namespace

MainWindow* openStartupWindows(const std::vector<std::string>& filesToOpen, bool present) {
    MainWindow* first = nullptr;
    const auto open = [&](const std::string* file) {
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        if (!first) {
            first = window;
            // Into the presentation as soon as the document is on screen (a file loads off the GUI thread).
            if (present)
                QObject::connect(
                    window, &MainWindow::documentShown, window, [window] { window->startPresentation(); },
                    Qt::SingleShotConnection);
        }
        window->show();
        if (file) {
            window->openFileAsync(QString::fromStdString(*file));
        } else {
            window->openDemo();
        }
    };
    if (filesToOpen.empty()) open(nullptr);
    for (const std::string& file : filesToOpen) open(&file);
    return first;
}

int runGui(int argc, char** argv, const std::vector<std::string>& filesToOpen, bool present) {
    initUiResources();
    QApplication app(argc, argv);
    // QApplication adopts the user's C locale; core formats and parses numbers with printf/strtod (PromQL, JSON
    // numbers, times), which must keep '.' as the decimal point. Qt's own display formatting uses QLocale.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setApplicationName(QStringLiteral("fp8dash"));
    QApplication::setOrganizationName(QStringLiteral("fp8dash"));
    QApplication::setApplicationVersion(QStringLiteral(FP8DASH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.fp8dash.Fp8dash"));  // the .desktop file's id (packaging/)
    QApplication::setWindowIcon(applicationIcon());

    // Without a desktop environment Qt falls back to 9 pt, which is small on today's screens.
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0 && font.pointSizeF() < 10) {
        font.setPointSizeF(10);
        QApplication::setFont(font);
    }

    openStartupWindows(filesToOpen, present);
    return QApplication::exec();
}

}  // namespace fp8dash::ui
