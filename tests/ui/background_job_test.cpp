// BackgroundJob: results arrive on the GUI thread; a newer job, cancel() or the owner's destruction stops the old
// work and drops its result and progress; requestStop() stops the work but keeps its result.
#include <QCoreApplication>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <memory>
#include <numeric>
#include <optional>
#include <tuple>
#include <vector>

#include "fp8dash/ui/background_job.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class BackgroundJobTest : public GuiTest {};

// Every worker has returned and every event it caused (finished, progress) has been delivered.
void settle() {
    QThreadPool::globalInstance()->waitForDone();
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

TEST_F(BackgroundJobTest, TheResultArrivesOnTheOwnersThread) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    std::vector<int> values(100);
    std::iota(values.begin(), values.end(), 1);
    std::optional<long> sum;
    QThread* workerThread = nullptr;
    QThread* callbackThread = nullptr;
    job->start(
        [values, &workerThread](JobControl&) {
            workerThread = QThread::currentThread();
            long s = 0;
            for (int v : values) s += v;
            return s;
        },
        [&](long s) {
            sum = s;
            callbackThread = QThread::currentThread();
        });
    EXPECT_TRUE(job->isRunning());
    ASSERT_TRUE(QTest::qWaitFor([&] { return sum.has_value(); }, 20000));
    EXPECT_EQ(*sum, 100 * 101 / 2);
    EXPECT_EQ(callbackThread, QCoreApplication::instance()->thread());
    EXPECT_NE(workerThread, QCoreApplication::instance()->thread());
    EXPECT_FALSE(job->isRunning());
}

TEST_F(BackgroundJobTest, ANewerJobCancelsTheOlderAndDropsItsResult) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    QSemaphore started, release;
    auto oldSawCancel = std::make_shared<std::atomic<bool>>(false);
    std::vector<QString> results;
    job->start(
        [&started, &release, oldSawCancel](JobControl& control) {
            started.release();
            release.acquire();  // held until the newer job has been started
            oldSawCancel->store(control.isCancelled());
            return QStringLiteral("old");
        },
        [&](QString r) { results.push_back(r); });
    started.acquire();
    job->start([](JobControl& control) { return control.isCancelled() ? QStringLiteral("?") : QStringLiteral("new"); },
               [&](QString r) { results.push_back(r); });
    release.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !results.empty(); }, 20000));
    settle();
    EXPECT_EQ(results, std::vector<QString>{QStringLiteral("new")});
    EXPECT_TRUE(oldSawCancel->load());
}

TEST_F(BackgroundJobTest, TheOwnersDestructionStopsTheWorkAndNothingArrives) {
    auto owner = std::make_unique<QObject>();
    auto* job = new BackgroundJob(owner.get());
    QSemaphore started, release;
    auto sawCancel = std::make_shared<std::atomic<bool>>(false);
    auto delivered = std::make_shared<std::atomic<int>>(0);
    job->start(
        [&started, &release, sawCancel](JobControl& control) {
            started.release();
            release.acquire();
            sawCancel->store(control.isCancelled());
            control.report(1, 2, QStringLiteral("after the owner is gone"));  // must not reach the freed job
            return 42;
        },
        [delivered](int) { ++*delivered; });
    started.acquire();
    owner.reset();
    release.release();
    settle();
    EXPECT_TRUE(sawCancel->load());
    EXPECT_EQ(delivered->load(), 0);
}

TEST_F(BackgroundJobTest, CancelDropsTheResultAndTheProgress) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    QSignalSpy progress(job, &BackgroundJob::progressed);
    QSemaphore started, release;
    bool delivered = false;
    job->start(
        [&started, &release](JobControl& control) {
            started.release();
            release.acquire();
            control.report(3, 4, QStringLiteral("late"));
            return control.isCancelled();
        },
        [&](bool) { delivered = true; });
    started.acquire();
    job->cancel();
    EXPECT_FALSE(job->isRunning());
    release.release();
    settle();
    EXPECT_FALSE(delivered);
    EXPECT_EQ(progress.count(), 0);
}

TEST_F(BackgroundJobTest, RequestStopKeepsTheResultOfWhatWasDone) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    QSemaphore started, release;
    std::optional<std::pair<int, bool>> result;
    job->start(
        [&started, &release](JobControl& control) {
            started.release();
            release.acquire();
            int done = 0;
            for (int i = 0; i < 10 && !control.isCancelled(); ++i) ++done;
            return std::pair<int, bool>(done, control.isCancelled());
        },
        [&](std::pair<int, bool> r) { result = r; });
    started.acquire();
    job->requestStop();
    release.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return result.has_value(); }, 20000));
    EXPECT_EQ(result->first, 0);  // it stopped before the first unit
    EXPECT_TRUE(result->second);
}

TEST_F(BackgroundJobTest, ProgressArrivesAndCoreFractionsBecomeSteps) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    std::vector<std::tuple<qint64, qint64, QString>> seen;
    QSemaphore arrived;  // the worker waits for each report to arrive before the next
    QObject::connect(job, &BackgroundJob::progressed, &owner, [&](qint64 done, qint64 total, const QString& text) {
        seen.emplace_back(done, total, text);
        arrived.release();
    });
    bool finished = false;
    job->start(
        [&arrived](JobControl& control) {
            control.report(1, 3, QStringLiteral("one"));
            arrived.acquire();
            const Progress p = control.progress(200);
            p(0.25, "a quarter");
            arrived.acquire();
            p(7.0, "clamped");  // out of range: the whole
            arrived.acquire();
            return p.isCancelled();
        },
        [&](bool cancelled) {
            finished = true;
            EXPECT_FALSE(cancelled);
        });
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished; }, 20000));
    using Row = std::tuple<qint64, qint64, QString>;
    EXPECT_EQ(seen, (std::vector<Row>{Row(1, 3, QStringLiteral("one")), Row(50, 200, QStringLiteral("a quarter")),
                                      Row(200, 200, QStringLiteral("clamped"))}));
}

// A worker that reports far faster than the GUI thread takes the reports: they are coalesced, arrive in order, and
// the last one is never lost.
TEST_F(BackgroundJobTest, FastReportsAreCoalescedAndTheLastArrives) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    std::vector<qint64> seen;
    QObject::connect(job, &BackgroundJob::progressed, &owner,
                     [&](qint64 done, qint64, const QString&) { seen.push_back(done); });
    constexpr int kReports = 20000;
    bool finished = false;
    job->start(
        [](JobControl& control) {
            for (int i = 1; i <= kReports; ++i) control.report(i, kReports);
            return 0;
        },
        [&](int) { finished = true; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished; }, 20000));
    settle();
    ASSERT_FALSE(seen.empty());
    EXPECT_LE(seen.size(), static_cast<std::size_t>(kReports));
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.back(), kReports);
}

TEST_F(BackgroundJobTest, AWatchedFutureIsDroppedWhenSuperseded) {
    QObject owner;
    auto* job = new BackgroundJob(&owner);
    QSemaphore release;
    std::vector<int> results;
    job->watch(QtConcurrent::run([&release] {
                   release.acquire();
                   return 1;
               }),
               [&](int r) { results.push_back(r); });
    job->watch(QtConcurrent::run([] { return 2; }), [&](int r) { results.push_back(r); });
    release.release();
    settle();
    EXPECT_EQ(results, std::vector<int>{2});
}

}  // namespace
}  // namespace fp8dash::ui::test
