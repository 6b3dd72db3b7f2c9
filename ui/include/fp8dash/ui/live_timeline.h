#pragma once
// The desktop app's live production timeline (issue 28): core's TimelineFollower refreshed on a BackgroundJob every
// interval (30 s .. 15 min, as Grafana's refresh picker), for a window ending now that moves with time. It pauses
// while its window is hidden or minimised and catches up (one fetch of everything missed) when the window comes back;
// a failed refresh is retried after 2x, 4x, ... the interval (capped at max(interval, 10 min)) and the data already
// followed stays. The clock and the periodic tick can be replaced (tests), so nothing waits on the wall clock.
// Alert transitions leave through DesktopNotifier (the system tray, else freedesktop notifications over D-Bus).
// GUI thread only; the follower itself is only touched by one thread at a time (the worker while a fetch runs).

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "fp8dash/core/timeline.h"
#include "fp8dash/core/timeline_follower.h"

class QTimer;
class QWidget;

namespace fp8dash::ui {

class BackgroundJob;

// Where an alert transition is told outside the window. notify() returns false when nothing could show it (the
// in-app notice is then all there is).
class DesktopNotifier {
public:
    virtual ~DesktopNotifier() = default;
    virtual bool notify(const QString& title, const QString& body) = 0;
    virtual QString kind() const = 0;  // "system tray", "D-Bus notifications" or "none"
};

// The system tray where one is available, else org.freedesktop.Notifications on the session bus where it answers,
// else a notifier that shows nothing. `window` parents the tray icon.
std::shared_ptr<DesktopNotifier> makeDesktopNotifier(QWidget* window);

class LiveTimeline : public QObject {
    Q_OBJECT
public:
    using Clock = std::function<double()>;  // unix seconds

    // Follows the visibility of `window` (hidden or minimised: paused).
    explicit LiveTimeline(QWidget* window);
    ~LiveTimeline() override;

    void setClock(Clock clock);      // default: the system clock; also read on the worker (must be thread-safe)
    void setAutoTick(bool enabled);  // the once-a-second tick (default on); tests turn it off and call tick()

    // Starts following (the first fetch at once, unless paused); a follow already running is stopped first.
    void start(TimelineSettings settings, FollowWindow window, double intervalS, TimelineFetch fetch);
    void stop();  // cancels a fetch in flight; the data shown stays
    bool isLive() const { return m_follower != nullptr; }
    bool isPaused() const { return m_paused; }
    bool isFetching() const;
    double intervalS() const { return m_intervalS; }
    int failures() const { return m_failures; }
    int fetchesStarted() const { return m_fetches; }
    std::optional<double> nextAt() const { return m_nextAt; }  // when the next refresh is due (unix seconds)

    // What the timer does: starts a refresh when one is due (and the window is shown); updates the status text.
    void tick();
    // "updated 14:02:11 · next in 42 s" (local time), or what is going on instead.
    QString statusText() const;

    static QString intervalText(double seconds);  // "30 s", "1 min", ...

signals:
    // A refresh merged: the followed timeline (a copy) and the alert's transitions it found, in time order.
    void refreshed(const fp8dash::TimelineData& data, const std::vector<fp8dash::AlertTransition>& transitions);
    // A refresh failed: the message, how many in a row, and when the next try is (seconds from now).
    void failed(const QString& message, int failures, double retryInS);
    void statusChanged(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updatePaused();
    void fetchNow();
    void emitStatus();
    double now() const;

    QPointer<QWidget> m_window;
    Clock m_clock;
    QTimer* m_timer = nullptr;
    BackgroundJob* m_job = nullptr;
    std::shared_ptr<TimelineFollower> m_follower;  // shared with the worker while a fetch runs
    double m_intervalS = 60;
    std::optional<double> m_nextAt;
    std::optional<double> m_updatedAt;
    int m_failures = 0;
    int m_fetches = 0;
    bool m_paused = false;
    bool m_fetching = false;
    bool m_autoTick = true;
};

}  // namespace fp8dash::ui
