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
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "evals/changed_examples.h"
#include "evals/paired_stages.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace fs = std::filesystem;

namespace {

// One log to read: one run's log of one task, read once for every unit that pairs it.
struct LogJob {
    std::vector<std::size_t> units;  // the units that pair it, one entry per use
    fs::path path;
    SampleTaskInfo info;
    std::uint64_t size = 0;
    std::optional<Result<SampleLog>> log;
};

// One compared task: its own two logs, or a group's subtasks' logs (jobs 2k and 2k+1: baseline and candidate of
// the k-th subtask).
struct Unit {
    const TaskComparison* row = nullptr;
    const PairedOptions* options = nullptr;  // its comparison's
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
    detail::ChangedCollector changed(o.answerExamples, groupSpec.higherIsBetter);
    std::vector<detail::ChangedPart> parts;
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
        changed.startPart(parts.size());
        parts.push_back({name, bLog->path, cLog->path});
        detail::matchRows(*bRows, *cRows, spec, o, part, bValues, cValues, diffs, &changed);
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
    detail::readChangedExamples(*unit.result, changed.choose(), parts, o.answerExamples, o.answerTextBytes);
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
    const PairedTaskSpec spec = PairedTaskSpec::fromComparison(*unit.row);
    detail::ChangedCollector changed(o.answerExamples, spec.higherIsBetter);
    auto r = detail::pairLogs(*bLog, *cLog, spec, o, &changed);
    if (!r) {
        unit.note = task + ": not paired: " + r.error().message;
        return;
    }
    for (const auto* log : {&*bLog, &*cLog})
        r->warnings.insert(r->warnings.end(), log->warnings.begin(), log->warnings.end());
    detail::readChangedExamples(*r, changed.choose(), {{"", bLog->path, cLog->path}}, o.answerExamples,
                                o.answerTextBytes);
    unit.result = std::move(*r);
}

// Reads the jobs on up to hardware_concurrency threads. Each unit is paired by the thread that reads its last log,
// and a log is freed once every unit using it is paired, so that memory holds the logs of the units in flight only.
// Progress is reported from the calling thread; a false answer stops the readers.
bool readAndPair(std::vector<LogJob>& jobs, std::vector<Unit>& units, const SampleProgressFn& progress,
                 std::uint64_t total) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> bytesRead{0};
    std::atomic<bool> cancelled{false};
    std::vector<std::atomic<std::size_t>> users(jobs.size());  // per job: the uses by units not yet paired
    for (std::size_t j = 0; j < jobs.size(); ++j) users[j] = jobs[j].units.size();
    std::mutex mutex;
    std::condition_variable finished;
    std::size_t running = 0;
    const auto pair = [&](Unit& unit) {
        try {
            if (unit.pooled)
                poolGroup(unit, jobs, *unit.options);
            else
                pairUnit(unit, jobs, *unit.options);
        } catch (const std::exception& e) {  // an exception must not leave the thread
            unit.result.reset();
            unit.note = unit.row->task + ": not paired: " + e.what();
        }
        for (std::size_t k : unit.jobs)
            if (--users[k] == 0) jobs[k].log.reset();
    };
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
            for (std::size_t u : job.units)
                if (--units[u].pending == 0 && !cancelled) pair(units[u]);
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

// One run as the pairing sees it: its results (a group's subtasks) and its sample logs.
struct RunLogs {
    const LmEvalResults* run = nullptr;  // the caller's
    SampleLogIndex index;
};

// A log a unit needs, before the jobs are numbered.
struct LogNeed {
    std::size_t run = 0;
    const SampleLogFile* file = nullptr;
    std::string filter;
};

}  // namespace

Result<std::vector<PairedComputation>> computePairedResultsAcrossRuns(
    const std::vector<const LmEvalResults*>& runResults, const std::vector<PairedRunComparison>& comparisons,
    PairedOptions options, const SampleProgressFn& progress) {
    // The sample logs beside each run that a comparison uses, found once.
    std::vector<std::optional<RunLogs>> runs(runResults.size());
    const auto runAt = [&](std::size_t k) -> Result<const RunLogs*> {
        if (k >= runResults.size() || !runResults[k]) return Error{"no run " + std::to_string(k) + " to pair"};
        if (!runs[k]) {
            auto index = findSampleLogs(fs::path(runResults[k]->sourcePath));
            if (!index) return index.error();
            runs[k] = RunLogs{runResults[k], std::move(index).value()};
        }
        return &*runs[k];
    };
    std::vector<PairedOptions> optionsOf;
    std::size_t unitCount = 0;
    for (const auto& c : comparisons) {
        for (std::size_t side : {c.baseline, c.candidate})
            if (auto r = runAt(side); !r) return r.error();
        PairedOptions o = options;
        o.thresholds = c.report->thresholds;
        o.equivalenceMarginPct = c.report->thresholds.goBelow;
        o.baselineLabel = c.report->baselineLabel;
        o.candidateLabel = c.report->candidateLabel;
        optionsOf.push_back(std::move(o));
        unitCount += c.report->tasks.size();
    }

    // The units, comparison after comparison; first[c] is comparison c's first unit.
    std::vector<Unit> units(unitCount);
    std::vector<std::vector<LogNeed>> needs(unitCount);
    std::vector<std::size_t> first;
    for (std::size_t ci = 0, u = 0; ci < comparisons.size(); ++ci) {
        const auto& c = comparisons[ci];
        const RunLogs& b = *runs[c.baseline];
        const RunLogs& cand = *runs[c.candidate];
        const PairedOptions& o = optionsOf[ci];
        first.push_back(u);
        for (const TaskComparison& t : c.report->tasks) {
            Unit& unit = units[u];
            auto& need = needs[u++];
            unit.row = &t;
            unit.options = &o;
            const SampleLogFile* bf = b.index.file(t.task);
            const SampleLogFile* cf = cand.index.file(t.task);
            if (bf && cf) {
                need.push_back({c.baseline, bf, t.filter});
                need.push_back({c.candidate, cf, t.filter});
                continue;
            }
            std::set<std::string> seen{t.task};
            std::vector<std::string> leaves;
            leavesOf(*b.run, t.task, seen, leaves);
            for (const auto& leaf : leaves) {
                const SampleLogFile* lb = b.index.file(leaf);
                const SampleLogFile* lc = cand.index.file(leaf);
                if (lb && lc) {
                    unit.subtasks.push_back(leaf);
                    need.push_back({c.baseline, lb, t.filter});
                    need.push_back({c.candidate, lc, t.filter});
                } else {
                    unit.notPooled.push_back(leaf + (lb   ? " (no " + o.candidateLabel + " log)"
                                                     : lc ? " (no " + o.baselineLabel + " log)"
                                                          : " (no logs)"));
                }
            }
            if (!unit.subtasks.empty()) {
                unit.pooled = true;
                continue;
            }
            // Why not: the task's own missing log, in pairTaskLogs' words (it reads nothing when a log is missing).
            auto outcome = pairTaskLogs(b.index, cand.index, PairedTaskSpec::fromComparison(t), o);
            unit.note = t.task + ": not paired: " + (outcome ? outcome->noLogsReason : outcome.error().message);
            if (!leaves.empty())
                unit.note += "; nor have its " + std::to_string(leaves.size()) + " subtasks logs on both sides";
        }
    }
    first.push_back(unitCount);

    // The jobs: one per distinct log (a run's file read with the same filter order), numbered task by task across
    // the comparisons (the i-th unit of each in turn), so that a log shared by several comparisons is read once and
    // the logs in memory at a time are about one task's of every run.
    std::vector<LogJob> jobs;
    std::map<std::tuple<std::size_t, fs::path, std::vector<std::string>, bool>, std::size_t> jobOf;
    std::size_t longest = 0;
    for (std::size_t ci = 0; ci < comparisons.size(); ++ci) longest = std::max(longest, first[ci + 1] - first[ci]);
    for (std::size_t i = 0; i < longest; ++i) {
        for (std::size_t ci = 0; ci < comparisons.size(); ++ci) {
            const std::size_t u = first[ci] + i;
            if (u >= first[ci + 1]) continue;
            for (const LogNeed& need : needs[u]) {
                SampleTaskInfo info = infoOf(runs[need.run]->index, need.file->task, need.filter);
                auto key = std::make_tuple(need.run, need.file->path, info.filters, info.filtersFromConfig);
                auto [it, added] = jobOf.try_emplace(std::move(key), jobs.size());
                if (added) {
                    LogJob job;
                    job.path = need.file->path;
                    job.info = std::move(info);
                    std::error_code ec;
                    job.size = fs::file_size(job.path, ec);
                    if (ec) job.size = 0;
                    jobs.push_back(std::move(job));
                }
                jobs[it->second].units.push_back(u);
                units[u].jobs.push_back(it->second);
            }
        }
    }
    std::uint64_t total = 0;
    for (auto& unit : units) unit.pending = unit.jobs.size();
    for (const auto& job : jobs) total += job.size;
    if (!jobs.empty() && !readAndPair(jobs, units, progress, total))
        return Error{"reading the sample logs was cancelled"};
    std::vector<PairedComputation> out(comparisons.size());
    for (std::size_t ci = 0; ci < comparisons.size(); ++ci) {
        for (std::size_t u = first[ci]; u < first[ci + 1]; ++u) {
            Unit& unit = units[u];
            if (unit.result)
                out[ci].results.emplace(unit.row->task, std::move(*unit.result));
            else
                out[ci].notes.push_back(unit.note);
        }
    }
    return out;
}

Result<PairedComputation> computePairedResults(const ComparisonReport& report, const fs::path& baselinePath,
                                               const fs::path& candidatePath, PairedOptions options,
                                               const SampleProgressFn& progress) {
    auto baseline = readLmEvalPath(baselinePath);
    if (!baseline) return baseline.error();
    auto candidate = readLmEvalPath(candidatePath);
    if (!candidate) return candidate.error();
    auto out =
        computePairedResultsAcrossRuns({&*baseline, &*candidate}, {{&report, 0, 1}}, std::move(options), progress);
    if (!out) return out.error();
    return std::move(out->front());
}

}  // namespace fp8dash
