#pragma once
// One slot for background work owned by a widget: the one place of the "bump a generation counter, make a
// QFutureWatcher, drop the result if it is stale" idiom.
//
//   m_load = new BackgroundJob(this);
//   m_load->start([path](JobControl& job) { return loadComparisonForDisplay(path); },
//                 [this](Result<LoadedComparison> r) { display(std::move(r)); });
//
// The rules, in one place:
// - The work runs on Qt's global thread pool; its result is handed to the callback on the job's (the GUI) thread.
// - A newer start(), cancel() or the destruction of the job (with its owner) cancels the running work: its
//   JobControl reports cancelled (core's Progress::cancelled sees it at its next check), and its result and
//   progress are dropped: the callback never runs for it. The worker may outlive the owner; it never calls into it.
// - requestStop() only asks the work to stop: the result still arrives (for work that returns what it finished).
// - Progress the work reports arrives queued as progressed(), only while its job is the current one; reports made
//   faster than the GUI thread takes them are coalesced (the latest wins, the last one always arrives).

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

#include "fp8dash/core/http_client.h"

namespace fp8dash::ui {

class BackgroundJob;

// The worker's side of one job: whether it should stop, and a way to report progress. Thread-safe.
class JobControl {
public:
    bool isCancelled() const { return m_stop->load(); }
    // done of total work units (total 0: unknown), with a line saying what is happening (may be empty).
    void report(std::int64_t done, std::int64_t total, const QString& text = {}) const;
    // The same through core's interface: fraction in [0, 1] becomes done of `steps`; cancelled reads this job's flag.
    Progress progress(int steps = 1000) const;

private:
    friend class BackgroundJob;
    struct Link;  // the owner, while it lives and this is its current job
    JobControl(std::shared_ptr<Link> link, std::shared_ptr<std::atomic<bool>> stop, std::uint64_t generation)
        : m_link(std::move(link)), m_stop(std::move(stop)), m_generation(generation) {}

    std::shared_ptr<Link> m_link;
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::uint64_t m_generation;
};

class BackgroundJob : public QObject {
    Q_OBJECT

public:
    explicit BackgroundJob(QObject* owner);
    ~BackgroundJob() override;  // cancels the running work (see above)

    // Starts work(JobControl&) and calls onResult(result) here when it ends, unless superseded first. A job
    // already running is cancelled.
    template <typename Work, typename OnResult>
    void start(Work work, OnResult onResult) {
        using T = std::invoke_result_t<Work&, JobControl&>;
        const JobControl control = begin();
        watchFuture<true>(QtConcurrent::run([work = std::move(work), control]() mutable -> T {
                              JobControl c = control;
                              return work(c);
                          }),
                          control.m_generation, std::move(onResult));
    }

    // The same for a future another API started: it cannot be told to stop, but a superseded result is dropped.
    // The future may be shared (a cached query): its result is copied, never taken.
    template <typename T, typename OnResult>
    void watch(QFuture<T> future, OnResult onResult) {
        const JobControl control = begin();
        watchFuture<false>(std::move(future), control.m_generation, std::move(onResult));
    }

    void cancel();       // stop the work and drop its result; nothing arrives any more
    void requestStop();  // ask the work to stop; its result still arrives
    bool isRunning() const { return m_running; }

signals:
    // Progress of the current job (see JobControl::report).
    void progressed(qint64 done, qint64 total, const QString& text);

private:
    JobControl begin();                              // cancels the current job, makes a new generation and its control
    bool finishIfCurrent(std::uint64_t generation);  // true when this generation's result is still wanted

    template <bool OwnFuture, typename T, typename OnResult>
    void watchFuture(QFuture<T> future, std::uint64_t generation, OnResult onResult) {
        auto* watcher = new QFutureWatcher<T>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, onResult = std::move(onResult)]() mutable {
                    watcher->deleteLater();
                    if (!finishIfCurrent(generation)) return;  // cancelled or superseded: dropped
                    if constexpr (OwnFuture) {
                        onResult(watcher->future().takeResult());
                    } else {
                        onResult(watcher->future().result());
                    }
                });
        watcher->setFuture(std::move(future));
    }

    void deliverProgress();  // the latest report, on this thread

    friend class JobControl;
    std::shared_ptr<JobControl::Link> m_link;
    std::shared_ptr<std::atomic<bool>> m_stop;  // the current job's flag
    std::uint64_t m_generation = 0;
    bool m_running = false;
};

}  // namespace fp8dash::ui
