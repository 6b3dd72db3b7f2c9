#include "fp8dash/ui/live_timeline.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDateTime>
#include <QEvent>
#include <QStringList>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QVariantMap>
#include <QWidget>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "fp8dash/ui/background_job.h"
#include "widgets/ui_style.h"

namespace fp8dash::ui {
namespace {

class TrayNotifier : public DesktopNotifier {
public:
    explicit TrayNotifier(QWidget* window) : m_window(window) {}
    bool notify(const QString& title, const QString& body) override {
        if (!m_window) return false;
        if (!m_icon) {
            m_icon = new QSystemTrayIcon(m_window->windowIcon(), m_window);
            m_icon->setToolTip(QStringLiteral("fp8dash"));
        }
        m_icon->show();
        m_icon->showMessage(title, body, QSystemTrayIcon::Warning);
        return true;
    }
    QString kind() const override { return QStringLiteral("system tray"); }

private:
    QPointer<QWidget> m_window;
    QPointer<QSystemTrayIcon> m_icon;
};

// org.freedesktop.Notifications.Notify, sent without waiting for the answer (the GUI thread never blocks on it).
class DBusNotifier : public DesktopNotifier {
public:
    bool notify(const QString& title, const QString& body) override {
        QDBusMessage m = QDBusMessage::createMethodCall(
            QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
            QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
        // The body is plain text to us; servers that read markup get it escaped.
        m << QStringLiteral("fp8dash") << 0u << QString() << title << style::escaped(body) << QStringList()
          << QVariantMap() << -1;
        return QDBusConnection::sessionBus().send(m);
    }
    QString kind() const override { return QStringLiteral("D-Bus notifications"); }
};

class NoNotifier : public DesktopNotifier {
public:
    bool notify(const QString&, const QString&) override { return false; }
    QString kind() const override { return QStringLiteral("none"); }
};

double systemNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

QString clockText(double t) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(t * 1000))
        .toLocalTime()
        .toString(QStringLiteral("HH:mm:ss"));
}

QString secondsText(double s) {
    const long long n = std::max(0LL, static_cast<long long>(std::ceil(s)));
    if (n < 120) return LiveTimeline::tr("%1 s").arg(n);
    return LiveTimeline::tr("%1 min").arg((n + 59) / 60);
}

// What a refresh on the worker hands back: its outcome and, when it merged, a copy of the followed timeline.
struct RefreshOutcome {
    Result<FollowerRefresh> refresh;
    std::optional<TimelineData> data;
};

}  // namespace

std::shared_ptr<DesktopNotifier> makeDesktopNotifier(QWidget* window) {
    if (QSystemTrayIcon::isSystemTrayAvailable()) return std::make_shared<TrayNotifier>(window);
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected() && bus.interface() &&
        bus.interface()->isServiceRegistered(QStringLiteral("org.freedesktop.Notifications")).value())
        return std::make_shared<DBusNotifier>();
    return std::make_shared<NoNotifier>();
}

LiveTimeline::LiveTimeline(QWidget* window) : QObject(window), m_window(window), m_clock(systemNow) {
    m_job = new BackgroundJob(this);
    m_timer = new QTimer(this);
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &LiveTimeline::tick);
    if (window) window->installEventFilter(this);
}

LiveTimeline::~LiveTimeline() = default;

void LiveTimeline::setClock(Clock clock) {
    m_clock = clock ? std::move(clock) : Clock(systemNow);
}

void LiveTimeline::setAutoTick(bool enabled) {
    m_autoTick = enabled;
    if (!enabled)
        m_timer->stop();
    else if (isLive())
        m_timer->start();
}

double LiveTimeline::now() const {
    return m_clock();
}

bool LiveTimeline::isFetching() const {
    return m_fetching;
}

QString LiveTimeline::intervalText(double seconds) {
    if (seconds < 60) return tr("%1 s").arg(seconds);
    return tr("%1 min").arg(seconds / 60);
}

void LiveTimeline::start(TimelineSettings settings, FollowWindow window, double intervalS, TimelineFetch fetch) {
    stop();
    m_intervalS = std::max(1.0, intervalS);
    m_failures = 0;
    m_updatedAt.reset();
    m_follower = std::make_shared<TimelineFollower>(std::move(settings), window, std::move(fetch), m_clock);
    m_nextAt = now();
    if (m_autoTick) m_timer->start();
    updatePaused();
    tick();
}

void LiveTimeline::stop() {
    m_job->cancel();  // the worker keeps its own reference to the follower; its result is dropped
    m_fetching = false;
    m_follower.reset();
    m_nextAt.reset();
    m_timer->stop();
    emitStatus();
}

bool LiveTimeline::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window) {
        switch (event->type()) {
            case QEvent::Show:
            case QEvent::Hide:
            case QEvent::WindowStateChange:
                // After the event: the window's state is then what the user sees.
                QTimer::singleShot(0, this, &LiveTimeline::updatePaused);
                break;
            default:
                break;
        }
    }
    return QObject::eventFilter(watched, event);
}

void LiveTimeline::updatePaused() {
    const bool paused = !m_window || !m_window->isVisible() || m_window->isMinimized();
    if (paused == m_paused) return;
    m_paused = paused;
    if (!m_paused) tick();  // back on screen: catch up at once when a refresh fell due meanwhile
    emitStatus();
}

void LiveTimeline::tick() {
    if (isLive() && !m_paused && !m_fetching && m_nextAt && now() >= *m_nextAt) fetchNow();
    emitStatus();
}

void LiveTimeline::fetchNow() {
    m_fetching = true;
    ++m_fetches;
    std::shared_ptr<TimelineFollower> follower = m_follower;
    m_job->start(
        [follower](JobControl& job) {
            RefreshOutcome out{follower->refresh(job.progress()), std::nullopt};
            if (out.refresh) out.data = follower->data();
            return out;
        },
        [this](RefreshOutcome out) {
            m_fetching = false;
            const double t = now();
            if (!out.refresh) {
                ++m_failures;
                // 2x, 4x, 8x ... the interval, at most max(interval, 10 min).
                const double delay = std::min(m_intervalS * std::pow(2.0, m_failures), std::max(m_intervalS, 600.0));
                m_nextAt = t + delay;
                emit failed(QString::fromStdString(out.refresh.error().message), m_failures, delay);
                emitStatus();
                return;
            }
            m_failures = 0;
            m_updatedAt = t;
            m_nextAt = t + m_intervalS;
            // Nothing new (no step was due): nothing to redraw.
            if (out.data && out.refresh->fetchedTo != 0) emit refreshed(*out.data, out.refresh->transitions);
            emitStatus();
        });
    emitStatus();
}

QString LiveTimeline::statusText() const {
    if (!isLive()) return {};
    QStringList parts;
    if (m_updatedAt) parts << tr("updated %1").arg(clockText(*m_updatedAt));
    if (m_fetching)
        parts << (m_updatedAt ? tr("updating…") : tr("fetching…"));
    else if (m_paused)
        parts << tr("paused while the window is hidden");
    else if (m_nextAt && m_failures > 0)
        parts << tr("retry in %1").arg(secondsText(*m_nextAt - now()));
    else if (m_nextAt)
        parts << tr("next in %1").arg(secondsText(*m_nextAt - now()));
    return parts.join(QStringLiteral(" · "));
}

void LiveTimeline::emitStatus() {
    emit statusChanged(statusText());
}

}  // namespace fp8dash::ui
