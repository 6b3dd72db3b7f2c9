#include "fp8dash/ui/background_job.h"

#include <QMetaObject>

#include <algorithm>
#include <cmath>

namespace fp8dash::ui {

// Shared by the job and its workers. Workers post progress only under the mutex and only while the owner lives,
// so a report can never reach a destroyed job: the destructor clears `owner` under the same mutex, and Qt drops
// the events already posted to an object when it is destroyed. Reports are coalesced: while one is on its way to
// the GUI thread, newer ones only replace its values (a worker reporting thousands of times a second costs the GUI
// one update per turn of its event loop, and the last report always arrives).
struct JobControl::Link {
    std::mutex mutex;
    BackgroundJob* owner = nullptr;
    bool posted = false;
    std::uint64_t generation = 0;
    qint64 done = 0;
    qint64 total = 0;
    QString text;
};

void JobControl::report(std::int64_t done, std::int64_t total, const QString& text) const {
    std::lock_guard lock(m_link->mutex);
    BackgroundJob* owner = m_link->owner;
    if (!owner || m_generation < m_link->generation) return;  // gone, or a superseded job's report
    m_link->generation = m_generation;
    m_link->done = static_cast<qint64>(done);
    m_link->total = static_cast<qint64>(total);
    m_link->text = text;
    if (m_link->posted) return;
    m_link->posted = true;
    QMetaObject::invokeMethod(
        owner, [owner] { owner->deliverProgress(); }, Qt::QueuedConnection);
}

Progress JobControl::progress(int steps) const {
    Progress p;
    p.cancelled = [stop = m_stop] { return stop->load(); };
    p.report = [control = *this, steps](double fraction, const std::string& what) {
        const double clamped = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
        control.report(std::llround(clamped * steps), steps, QString::fromStdString(what));
    };
    return p;
}

BackgroundJob::BackgroundJob(QObject* owner)
    : QObject(owner), m_link(std::make_shared<JobControl::Link>()), m_stop(std::make_shared<std::atomic<bool>>(false)) {
    m_link->owner = this;
}

BackgroundJob::~BackgroundJob() {
    cancel();
    std::lock_guard lock(m_link->mutex);
    m_link->owner = nullptr;
}

JobControl BackgroundJob::begin() {
    cancel();
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    return JobControl(m_link, m_stop, m_generation);
}

void BackgroundJob::cancel() {
    m_stop->store(true);
    ++m_generation;  // whatever the running work returns or reports is for an older generation: dropped
    m_running = false;
}

void BackgroundJob::requestStop() {
    m_stop->store(true);
}

bool BackgroundJob::finishIfCurrent(std::uint64_t generation) {
    if (generation != m_generation) return false;
    m_running = false;
    return true;
}

void BackgroundJob::deliverProgress() {
    std::uint64_t generation = 0;
    qint64 done = 0, total = 0;
    QString text;
    {
        std::lock_guard lock(m_link->mutex);
        m_link->posted = false;
        generation = m_link->generation;
        done = m_link->done;
        total = m_link->total;
        text = std::move(m_link->text);
    }
    if (generation != m_generation || !m_running) return;  // a dropped job's report
    emit progressed(done, total, text);
}

}  // namespace fp8dash::ui
