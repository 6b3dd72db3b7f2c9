// MainWindow: the live production timeline (issue 28: refresh picker, transitions as notes and desktop notices, a
// failed refresh in the notice area) and File › Export Monitoring Rules….
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "fp8dash/core/monitoring_export.h"
#include "fp8dash/ui/background_job.h"
#include "fp8dash/ui/comparison_view.h"
#include "fp8dash/ui/live_timeline.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/timeline_view.h"
#include "widgets/ui_style.h"
#include "widgets/untrusted_ui.h"

namespace fp8dash::ui {
namespace {

QString windowText(double s) {
    if (s >= 86400 && std::fmod(s, 86400) == 0) return QStringLiteral("%1d").arg(s / 86400);
    if (s >= 3600 && std::fmod(s, 3600) == 0) return QStringLiteral("%1h").arg(s / 3600);
    if (s >= 60 && std::fmod(s, 60) == 0) return QStringLiteral("%1m").arg(s / 60);
    return QStringLiteral("%1s").arg(s);
}

QString mean(std::optional<double> v) {
    return v ? QString::number(*v, 'f', 3) : MainWindow::tr("none");
}

QString stateWord(const AlertTransition& t) {
    if (t.to == AlertState::Pending) return MainWindow::tr("pending");
    if (t.to == AlertState::Firing) return MainWindow::tr("firing");
    return t.wasFiring ? MainWindow::tr("resolved") : MainWindow::tr("resolved (it was pending, never fired)");
}

// "quality 30m mean 3.680, baseline 4.200 (1d offset 2h), fires below 4.000"
QString meansText(const AlertTransition& t, const AlertRule& rule) {
    QString text = MainWindow::tr("quality %1 mean %2, baseline %3 (%4 offset %5)")
                       .arg(windowText(rule.shortWindowS), mean(t.shortMean), mean(t.baselineMean),
                            windowText(rule.longWindowS), windowText(rule.offsetS));
    if (t.baselineMean) text += MainWindow::tr(", fires below %1").arg(mean(*t.baselineMean - rule.margin));
    return text;
}

// The note a transition leaves: its state, its time and the window means. The same transition gives the same text,
// which is how a transition told by an earlier live session is not noted twice.
QString transitionNote(const AlertTransition& t, const AlertRule& rule) {
    QString text = MainWindow::tr("Live timeline: the quality alert is %1 at %2; %3.")
                       .arg(stateWord(t), toQString(formatTimeUtc(t.at)), meansText(t, rule));
    if (t.pendingSince) text += MainWindow::tr(" Pending since %1.").arg(toQString(formatTimeUtc(*t.pendingSince)));
    return text;
}

}  // namespace

void MainWindow::setUpLive() {
    m_live = new LiveTimeline(this);  // the desktop notifier is made when a first transition is told
    TimelineView* view = m_view->timelineView();
    connect(view, &TimelineView::liveSettingsChanged, this, &MainWindow::updateLive);
    connect(m_live, &LiveTimeline::statusChanged, view, &TimelineView::setLiveStatus);
    connect(m_live, &LiveTimeline::refreshed, this, &MainWindow::applyLiveRefresh);
    connect(m_live, &LiveTimeline::failed, this, &MainWindow::liveRefreshFailed);
}

void MainWindow::setDesktopNotifier(std::shared_ptr<DesktopNotifier> notifier) {
    m_notifier = std::move(notifier);  // nullptr: the desktop's, made when needed
}

void MainWindow::updateLive() {
    TimelineView* view = m_view->timelineView();
    const double interval = view->liveIntervalS();
    const bool haveTimeline = m_doc.current() && m_doc.current()->document.timeline;
    if (interval <= 0 || !haveTimeline) {
        m_live->stop();
        view->setLiveStatus({});
        if (!m_liveNotice.isEmpty() || !m_liveError.isEmpty()) {
            m_liveNotice.clear();
            m_liveError.clear();
            updateOfflineNotice();
        }
        if (interval > 0) {
            view->setLiveIntervalS(0);
            statusBar()->showMessage(tr("Connect a data source first (Timeline › Connect…): live mode follows a "
                                        "production timeline"),
                                     8000);
        }
        return;
    }
    const TimelineSettings& settings = m_doc.current()->document.timeline->settings;
    FollowWindow window;
    switch (view->liveRange()) {
        case TimelineView::LiveLast6Hours:
            window.lengthS = 6 * 3600;
            break;
        case TimelineView::LiveLast24Hours:
            window.lengthS = 24 * 3600;
            break;
        case TimelineView::LiveSinceSwitch:
            window.lengthS = 24 * 3600;
            // From the hours before the switch, so that the before/after figures have their "before".
            if (settings.changeAt)
                window.since = *settings.changeAt - TimelineView::kLiveHoursBeforeSwitch * 3600;
            else
                statusBar()->showMessage(tr("No FP8 change time is set yet: following the last 24 hours"), 8000);
            break;
    }
    const TimelineCredentials credentials = m_sessionCredentials.value_or(credentialsFromEnvironment());
    m_liveNotice.clear();
    m_liveError.clear();
    updateOfflineNotice();
    m_live->start(settings, window, interval, [credentials](const TimelineSettings& s, const Progress& p) {
        return fetchTimeline(s, credentials, p);
    });
}

void MainWindow::applyLiveRefresh(const TimelineData& data, const std::vector<AlertTransition>& transitions) {
    if (!m_doc.current() || !m_doc.current()->document.timeline) return;
    ComparisonDocument doc = m_doc.current()->document;
    TimelineData followed = data;
    // A change time set while live stays; one the fetch found in vllm:cache_config_info is used where none was set.
    if (doc.timeline->settings.changeAt || !followed.settings.changeAtDetected) {
        followed.settings.changeAt = doc.timeline->settings.changeAt;
        followed.settings.changeAtDetected = doc.timeline->settings.changeAtDetected;
    }
    const AlertRule rule = followed.settings.rule;
    doc.timeline = std::move(followed);
    QStringList told;
    for (const AlertTransition& t : transitions) {
        const std::string text = transitionNote(t, rule).toStdString();
        if (std::any_of(doc.notes.begin(), doc.notes.end(), [&](const Note& n) { return n.text == text; })) continue;
        Note note;
        note.id = newNoteId(doc.notes);
        note.text = text;
        note.author = "fp8dash live timeline";
        note.created = nowIso8601Utc();
        doc.notes.push_back(std::move(note));
        told << tr("Quality alert %1 at %2: %3").arg(stateWord(t), toQString(formatTimeUtc(t.at)), meansText(t, rule));
        if (!m_notifier) m_notifier = makeDesktopNotifier(this);
        m_notifier->notify(tr("fp8dash: quality alert %1").arg(stateWord(t)),
                           tr("%1 — %2 at %3").arg(displayName(), meansText(t, rule), toQString(formatTimeUtc(t.at))));
    }
    if (!showDerived(std::move(doc))) return;
    setModified(true);
    m_liveError.clear();
    if (!told.isEmpty()) {
        m_liveNotice = tr("<b>Live timeline</b>: %1 (added to the notes)").arg(style::escaped(told.last()));
        statusBar()->showMessage(told.last(), 15000);
    }
    updateOfflineNotice();
    emit liveRefreshed();
}

void MainWindow::liveRefreshFailed(const QString& message, int failures, double retryInS) {
    const QString retry =
        retryInS < 120 ? tr("%1 s").arg(std::ceil(retryInS)) : tr("%1 min").arg(std::ceil(retryInS / 60));
    m_liveError =
        tr("<b>Live timeline</b>: the refresh failed (%1): %2. Retrying in %3; the series shown are kept.")
            .arg(failures == 1 ? tr("once") : tr("%1 times in a row").arg(failures), style::escaped(message), retry);
    updateOfflineNotice();
}

void MainWindow::exportMonitoringRules() {
    if (!m_doc.current() || !m_doc.current()->document.timeline) return;
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Export Monitoring Rules to a Folder"), lastDirectory());
    if (dir.isEmpty()) return;
    rememberDirectory(dir);
    exportMonitoringInto(dir);
}

QMessageBox* MainWindow::exportMonitoringInto(const QString& dir) {
    if (!m_doc.current()) return nullptr;
    QStringList existing;
    for (const char* name : {kMonitoringRulesFile, kMonitoringTestFile, kMonitoringDashboardFile})
        if (QFileInfo::exists(QDir(dir).filePath(QString::fromUtf8(name)))) existing << QString::fromUtf8(name);
    if (existing.isEmpty()) {
        writeMonitoring(dir);
        return nullptr;
    }
    auto* box = plainMessageBox(QMessageBox::Question, tr("Replace the files?"),
                                tr("%1 already has %2. Replace them?").arg(dir, existing.join(QStringLiteral(", "))),
                                {}, QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("monitoringOverwriteBox"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, dir](int result) {
        if (result == QMessageBox::Yes) writeMonitoring(dir);
    });
    box->open();
    return box;
}

void MainWindow::writeMonitoring(const QString& dir) {
    if (!m_doc.current()) return;
    const ComparisonDocument doc = m_doc.current()->document;
    const std::filesystem::path folder(dir.toStdString());
    // Building the test from a long timeline and writing three files: off the GUI thread.
    m_monitoringJob->start(
        [doc, folder](JobControl&) -> Result<std::string> {
            auto exported = exportMonitoring(doc);
            if (!exported) return exported.error();
            std::error_code ec;
            std::filesystem::create_directories(folder, ec);
            if (ec) return Error{"cannot create the folder \"" + folder.string() + "\": " + ec.message()};
            for (const auto& [name, text] : {std::pair{kMonitoringRulesFile, &exported->rulesYaml},
                                             std::pair{kMonitoringTestFile, &exported->testYaml},
                                             std::pair{kMonitoringDashboardFile, &exported->dashboardJson}})
                if (auto w = writeFileAtomically(folder / name, *text); !w) return w.error();
            return monitoringTargetTitle(exported->target);
        },
        [this, dir](Result<std::string> r) {
            if (!r) {
                const QString error = toQString(r.error().message);
                showError(tr("Could not export the monitoring rules"),
                          tr("The monitoring rules were not written to %1.").arg(dir), error);
                emit monitoringExported(dir, error);
                return;
            }
            statusBar()->showMessage(
                tr("Monitoring rules for %1 written to %2").arg(toQString(*r), QDir::toNativeSeparators(dir)), 10000);
            emit monitoringExported(dir, {});
        });
}

}  // namespace fp8dash::ui
