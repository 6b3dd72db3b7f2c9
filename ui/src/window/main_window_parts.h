#pragma once
// What the files of MainWindow share (main_window*.cpp): the registry of windows, the comparison file's suffix and
// file-dialog filter, and the timings. Internal to fp8dash_ui.

#include <QFileInfo>
#include <QList>
#include <QString>

#include "fp8dash/ui/main_window.h"

namespace fp8dash::ui::main_window_parts {

inline constexpr int kMaxRecentFiles = 8;
inline constexpr int kAutosaveDelayMs = 1500;  // after the last change: typing a note does not write on every key
// Whether opening a comparison with a timeline probes its sources (Timeline › Check Saved Sources When Opening; off
// by default: opening a file contacts no server).
inline constexpr const char* kCheckSourcesOnOpenKey = "network/checkSourcesOnOpen";
// What the offline notice's close button dismissed for good on this machine: "gpu" (no usable GPU here) and
// "unreachable <url>" for each live source that cannot be reached from here. View › Show Closed Notices clears it.
inline constexpr const char* kDismissedNoticesKey = "notices/dismissed";

// Every main window, oldest first (MainWindow's constructor and destructor keep it).
inline QList<MainWindow*>& allWindows() {
    static QList<MainWindow*> list;
    return list;
}

inline QString comparisonSuffix() {
    return QStringLiteral("fp8cmp");
}

inline QString comparisonFilter() {
    return MainWindow::tr("fp8dash comparisons (*.fp8cmp);;All files (*)");
}

// path with `.suffix` added unless it ends so already (any case); an empty path stays empty.
inline QString withSuffix(QString path, const QString& suffix) {
    if (!path.isEmpty() && QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) {
        path += QLatin1Char('.') + suffix;
    }
    return path;
}

}  // namespace fp8dash::ui::main_window_parts
