// The paired tests of a whole comparison (computePairedResults, paired_tasks.h): the sample logs of every compared
// task read several files at once, each task paired as soon as its logs are in, and a group without logs of its own
// pooled from its subtasks' logs into one test (McNemar over every pooled 0/1 pair).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

#include "evals/paired_stages.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace fs = std::filesystem;

namespace {

// One log to read.
struct LogJob {
    std::size_t unit = 0;
    fs::path path;
    SampleTaskInfo info;
    std::uint64_t size = 0;
    std::optional<Result<SampleLog>> log;
};

// One compared task: its own two logs, or a group's subtasks' logs (jobs 2k and 2k+1: baseline and candidate of
// the k-th subtask).
struct Unit {
    const TaskComparison* row = nullptr;
    bool pooled = false;
    std::vector<std::string> subtasks;    // pooled: the subtasks with a log on both sides, in group order
    std::vector<std::string> notPooled;   // pooled: the subtasks without, and why
    std::vector<std::size_t> jobs;        // indices into the job list
    std::atomic<std::size_t> pending{0};  // jobs not yet read
    std::optional<PairedTaskResult> result;
    std::string note;  // why it was not paired, when result is empty
};

SampleTaskInfo infoOf(const SampleLogIndex& index, const std::string& task, const std::string& filter) {
    if (const auto* info = index.taskInfo(task)) return *info;
    SampleTaskInfo info;
    info.task = task;
    info.filters = {filter};
    return info;
}

// A group's leaves, through nested groups, in group order (a subtask met twice, or a loop, counts once).
void leavesOf(const LmEvalResults& run, const std::string& group, std::set<std::string>& seen,
              std::vector<std::string>& out) {
    const auto* subs = run.subtasksOf(group);
    if (!subs) return;
    for (const auto& s : *subs) {
        if (!seen.insert(s).second) continue;
        const auto* inner = run.subtasksOf(s);
        if (inner && !inner->empty())
            leavesOf(run, s, seen, out);
        else
            out.push_back(s);
    }
}

std::string fmt6(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// The pooled means against the group's score in its results file. Pooling weighs every document once: lm-eval's
// size-weighted group score (weight_by_size: true, as mmlu's group config sets it). A difference means unweighted
// averaging (the field's own default), subtasks without logs, or documents left out.
void checkPooledMean(const std::vector<double>& values, std::optional<double> score, const std::string& side,
                     const std::string& group, const std::string& metric, std::vector<std::string>& warnings) {
    if (values.empty() || !score || !std::isfinite(*score)) return;
    double sum = 0;
    for (double v : values) sum += v;
    const double mean = sum / static_cast<double>(values.size());
    if (std::fabs(mean - *score) > 1e-6 * std::max(1.0, std::fabs(*score)))
        warnings.push_back("the pooled " + side + " mean " + metric + " (" + fmt6(mean) + ") differs from " + group +
                           "'s score in its results file (" + fmt6(*score) +
                           "): the group averages its subtasks otherwise (weight_by_size: false), or some "
                           "documents or subtasks are not in the pooled test");
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The group's test over all its subtasks' pairs. The subtasks' own exclusions are kept as warnings naming the
// subtask; their doc_id lists are not merged (doc_ids repeat across subtasks).
void poolGroup(Unit& unit, std::vector<LogJob>& jobs, const PairedOptions& o) {
    const PairedTaskSpec groupSpec = PairedTaskSpec::fromComparison(*unit.row);
    PairedTaskResult r;
    r.task = groupSpec.task;
    r.metric = groupSpec.metric;
    r.filter = groupSpec.filter;
    std::vector<double> bValues, cValues, diffs;
    std::vector<std::string> pooled, notPooled = unit.notPooled, partWarnings;
    for (std::size_t k = 0; k < unit.subtasks.size(); ++k) {
        const std::string& name = unit.subtasks[k];
        auto& bLog = *jobs[unit.jobs[2 * k]].log;
        auto& cLog = *jobs[unit.jobs[2 * k + 1]].log;
        if (!bLog || !cLog) {
            notPooled.push_back(name + " (" + (!bLog ? bLog.error().message : cLog.error().message) + ")");
            continue;
        }
        PairedTaskSpec spec = groupSpec;
        spec.task = name;
        spec.baselineScore.reset();
        spec.candidateScore.reset();
        auto bRows = detail::filterRows(*bLog, spec);
        auto cRows = bRows ? detail::filterRows(*cLog, spec) : Result<std::vector<const SampleRow*>>(bRows.error());
        if (!bRows || !cRows) {
            notPooled.push_back(name + " (" + (!bRows ? bRows.error().message : cRows.error().message) + ")");
            continue;
        }
        PairedTaskResult part;
        detail::matchRows(*bRows, *cRows, spec, o, part, bValues, cValues, diffs);
        detail::noteExclusions(part, spec, o);
        r.hashMismatches += part.hashMismatches;
        r.docHashMismatches += part.docHashMismatches;
        r.promptHashMismatches += part.promptHashMismatches;
        r.onlyInBaseline += part.onlyInBaseline;
        r.onlyInCandidate += part.onlyInCandidate;
        r.missingValues += part.missingValues;
        r.uncheckedHashes += part.uncheckedHashes;
        for (const auto& w : part.warnings) partWarnings.push_back(name + ": " + w);
        for (const auto* log : {&*bLog, &*cLog})
            partWarnings.insert(partWarnings.end(), log->warnings.begin(), log->warnings.end());
        pooled.push_back(name);
    }
    if (pooled.empty()) {
        unit.note = unit.row->task + ": not paired: no subtask's logs could be pooled (" + joinedNames(notPooled) + ")";
        return;
    }
    r.warnings.push_back("pooled from the sample logs of " + std::to_string(pooled.size()) + " subtask(s) of " +
                         r.task + ": one paired test over all their documents, each counted once" +
                         (notPooled.empty() ? std::string()
                                            : "; not pooled: " + std::to_string(notPooled.size()) + " (" +
                                                  joinedNames(notPooled) + ")"));
    checkPooledMean(bValues, groupSpec.baselineScore, o.baselineLabel, r.task, r.metric, r.warnings);
    checkPooledMean(cValues, groupSpec.candidateScore, o.candidateLabel, r.task, r.metric, r.warnings);
    r.warnings.insert(r.warnings.end(), partWarnings.begin(), partWarnings.end());
    unit.result = detail::testPairs(std::move(r), bValues, cValues, diffs, groupSpec, o);
}

// A task's own two logs: as pairTaskLogs pairs them once read.
void pairUnit(Unit& unit, std::vector<LogJob>& jobs, const PairedOptions& o) {
    auto& bLog = *jobs[unit.jobs[0]].log;
    auto& cLog = *jobs[unit.jobs[1]].log;
    const std::string& task = unit.row->task;
    if (!bLog || !cLog) {
        unit.note = task + ": not paired: " + (!bLog ? bLog.error().message : cLog.error().message);
        return;
    }
    auto r = pairSampleLogs(*bLog, *cLog, PairedTaskSpec::fromComparison(*unit.row), o);
    if (!r) {
        unit.note = task + ": not paired: " + r.error().message;
        return;
    }
    for (const auto* log : {&*bLog, &*cLog})
        r->warnings.insert(r->warnings.end(), log->warnings.begin(), log->warnings.end());
    unit.result = std::move(*r);
}

// Reads the jobs on up to hardware_concurrency threads. Each unit is paired by the thread that reads its last log,
// and its logs are freed then, so that memory holds the logs of the units in flight only. Progress is reported
// from the calling thread; a false answer stops the readers.
bool readAndPair(std::vector<LogJob>& jobs, std::vector<Unit>& units, const PairedOptions& o,
                 const SampleProgressFn& progress, std::uint64_t total) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> bytesRead{0};
    std::atomic<bool> cancelled{false};
    std::mutex mutex;
    std::condition_variable finished;
    std::size_t running = 0;
    const auto work = [&] {
        for (std::size_t j = next++; j < jobs.size() && !cancelled; j = next++) {
            LogJob& job = jobs[j];
            std::uint64_t counted = 0;
            const SampleProgressFn step = [&](std::uint64_t done, std::uint64_t) {
                bytesRead += done - counted;
                counted = done;
                return !cancelled.load();
            };
            try {
                job.log = readSampleLog(job.path, job.info, step);
            } catch (const std::exception& e) {  // out of memory on a huge log: that task is not paired
                job.log = Result<SampleLog>(Error{job.path.string() + ": reading failed: " + e.what()});
            }
            Unit& unit = units[job.unit];
            if (--unit.pending == 0 && !cancelled) {
                try {
                    if (unit.pooled)
                        poolGroup(unit, jobs, o);
                    else
                        pairUnit(unit, jobs, o);
                } catch (const std::exception& e) {  // an exception must not leave the thread
                    unit.result.reset();
                    unit.note = unit.row->task + ": not paired: " + e.what();
                }
                for (std::size_t k : unit.jobs) jobs[k].log.reset();
            }
        }
        std::lock_guard lock(mutex);
        --running;
        finished.notify_all();
    };
    const std::size_t threads = std::min<std::size_t>(jobs.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    running = threads;
    for (std::size_t i = 0; i < threads; ++i) pool.emplace_back(work);
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            finished.wait_for(lock, std::chrono::milliseconds(100));
            if (progress && !cancelled) {
                const std::uint64_t done = std::min<std::uint64_t>(bytesRead.load(), total);
                lock.unlock();
                if (!progress(done, total)) cancelled = true;
                lock.lock();
            }
        }
    }
    for (auto& t : pool) t.join();
    if (cancelled) return false;
    return !progress || progress(total, total);
}

}  // namespace

Result<PairedComputation> computePairedResults(const ComparisonReport& report, const fs::path& baselinePath,
                                               const fs::path& candidatePath, PairedOptions options,
                                               const SampleProgressFn& progress) {
    options.thresholds = report.thresholds;
    options.equivalenceMarginPct = report.thresholds.goBelow;
    options.baselineLabel = report.baselineLabel;
    options.candidateLabel = report.candidateLabel;
    auto bRun = readLmEvalPath(baselinePath);
    if (!bRun) return bRun.error();
    auto bIndex = findSampleLogs(fs::path(bRun->sourcePath));
    if (!bIndex) return bIndex.error();
    auto cIndex = findSampleLogsForRunPath(candidatePath);
    if (!cIndex) return cIndex.error();

    PairedComputation out;
    std::vector<LogJob> jobs;
    std::vector<Unit> units(report.tasks.size());
    const auto addJob = [&](std::size_t u, const SampleLogIndex& index, const SampleLogFile& file,
                            const std::string& filter) {
        LogJob job;
        job.unit = u;
        job.path = file.path;
        job.info = infoOf(index, file.task, filter);
        std::error_code ec;
        job.size = fs::file_size(file.path, ec);
        if (ec) job.size = 0;
        units[u].jobs.push_back(jobs.size());
        jobs.push_back(std::move(job));
    };
    for (std::size_t u = 0; u < report.tasks.size(); ++u) {
        const TaskComparison& t = report.tasks[u];
        Unit& unit = units[u];
        unit.row = &t;
        const SampleLogFile* b = bIndex->file(t.task);
        const SampleLogFile* c = cIndex->file(t.task);
        if (b && c) {
            addJob(u, *bIndex, *b, t.filter);
            addJob(u, *cIndex, *c, t.filter);
            continue;
        }
        std::set<std::string> seen{t.task};
        std::vector<std::string> leaves;
        leavesOf(*bRun, t.task, seen, leaves);
        for (const auto& leaf : leaves) {
            const SampleLogFile* lb = bIndex->file(leaf);
            const SampleLogFile* lc = cIndex->file(leaf);
            if (lb && lc) {
                unit.subtasks.push_back(leaf);
                addJob(u, *bIndex, *lb, t.filter);
                addJob(u, *cIndex, *lc, t.filter);
            } else {
                unit.notPooled.push_back(leaf + (lb   ? " (no " + options.candidateLabel + " log)"
                                                 : lc ? " (no " + options.baselineLabel + " log)"
                                                      : " (no logs)"));
            }
        }
        if (!unit.subtasks.empty()) {
            unit.pooled = true;
            continue;
        }
        // Why not: the task's own missing log, in pairTaskLogs' words (it reads nothing when a log is missing).
        auto outcome = pairTaskLogs(*bIndex, *cIndex, PairedTaskSpec::fromComparison(t), options);
        unit.note = t.task + ": not paired: " + (outcome ? outcome->noLogsReason : outcome.error().message);
        if (!leaves.empty())
            unit.note += "; nor have its " + std::to_string(leaves.size()) + " subtasks logs on both sides";
    }
    std::uint64_t total = 0;
    for (auto& unit : units) unit.pending = unit.jobs.size();
    for (const auto& job : jobs) total += job.size;
    if (!jobs.empty() && !readAndPair(jobs, units, options, progress, total))
        return Error{"reading the sample logs was cancelled"};
    for (auto& unit : units) {
        if (unit.result)
            out.results.emplace(unit.row->task, std::move(*unit.result));
        else
            out.notes.push_back(unit.note);
    }
    return out;
}

}  // namespace fp8dash
