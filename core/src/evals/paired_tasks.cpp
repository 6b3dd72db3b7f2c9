// Paired tests per task on lm-eval sample logs (../shared/notes/statistics-and-samples.md: McNemar for
// 0/1 metrics, paired bootstrap otherwise, hashes checked, exclusions reported, a small-n warning).
#include "fp8dash/core/paired_tasks.h"

#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/number_format.h"

#include "evals/changed_examples.h"
#include "evals/paired_stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace fp8dash {
namespace fs = std::filesystem;

namespace {

// Below about 300 items the normal approximation of a difference of proportions fails (Miller 2024).
constexpr std::uint64_t kSmallN = 300;

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string idList(const std::vector<long long>& ids, std::uint64_t total) {
    std::string out;
    for (auto id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    if (total > ids.size()) out += ", …";
    return out;
}

std::string metricNames(const std::vector<const SampleRow*>& rows) {
    std::set<std::string> names;
    for (const auto* r : rows)
        for (const auto& [name, v] : r->values) names.insert(name);
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "no numeric fields" : out;
}

// The rows of the spec's filter, or an error naming the file when there are none, or none has the metric.
Result<std::vector<const SampleRow*>> rowsOf(const SampleLog& log, const PairedTaskSpec& spec) {
    auto rows = log.rowsFor(spec.filter);
    if (rows.empty()) {
        std::string filters;
        for (const auto& f : log.filters) filters += (filters.empty() ? "" : ", ") + f;
        return Error{log.path + ": no rows for filter \"" + spec.filter + "\" of task " + spec.task +
                     (filters.empty() ? " (the log is empty)" : " (the log has: " + filters + ")")};
    }
    const bool any =
        std::any_of(rows.begin(), rows.end(), [&](const SampleRow* r) { return r->value(spec.metric) != nullptr; });
    if (!any)
        return Error{log.path + ": no row of filter \"" + spec.filter + "\" has a \"" + spec.metric +
                     "\" value (the rows have: " + metricNames(rows) + ")"};
    return rows;
}

// Compares the log's mean with the results file's score: a difference means the log belongs to another run or
// filter, or the metric does not aggregate by the mean (perplexity, corpus BLEU), so per-doc values do not test it.
void checkAgainstScore(const std::vector<const SampleRow*>& rows, const std::string& metric,
                       std::optional<double> score, const std::string& side, const std::string& path,
                       std::vector<std::string>& warnings) {
    if (!score || !std::isfinite(*score)) return;
    double sum = 0;
    std::uint64_t count = 0;
    for (const auto* r : rows)
        if (const double* v = r->value(metric); v && std::isfinite(*v)) sum += *v, ++count;
    if (count == 0) return;
    const double mean = sum / static_cast<double>(count);
    if (std::fabs(mean - *score) > 1e-6 * std::max(1.0, std::fabs(*score)))
        warnings.push_back("the " + side + " log's mean " + metric + " (" + fmt("%.6g", mean) +
                           ") differs from its results file (" + fmt("%.6g", *score) + "): " + path +
                           " may belong to another run, or the metric does not aggregate by the mean, in which case "
                           "the per-document test does not test the score");
}

// The metric whose repeats a per-document score reduces: "pass@1(exact_match)" (a reduction returning several values,
// lm-eval 0.5 previews) reduces exact_match's; a plain metric its own.
std::string repeatedMetric(const std::string& metric) {
    const auto open = metric.find('(');
    if (open != std::string::npos && metric.size() > open + 2 && metric.back() == ')')
        return metric.substr(open + 1, metric.size() - open - 2);
    return metric;
}

// The numbers of repeats the rows' scores_per_repeat hold for a metric, as text ("4", "2-4"), or "1" when no row has
// any (lm-eval writes them only with repeats > 1).
std::string repeatCounts(const std::vector<const SampleRow*>& rows, const std::string& metric) {
    std::set<std::size_t> counts;
    for (const auto* r : rows)
        if (const auto* scores = r->repeatScores(metric)) counts.insert(scores->size());
    if (counts.empty()) return "1";
    if (counts.size() == 1) return std::to_string(*counts.begin());
    return std::to_string(*counts.begin()) + "-" + std::to_string(*counts.rbegin());
}

// Repeats (lm-eval 0.5 previews): the test pairs lm-eval's reduced per-document value, the one its results file
// averages, so that the paired delta tests the reported score; the single repeats are not pooled. Said once, and a
// second warning when the runs repeated differently.
void noteRepeats(const std::vector<const SampleRow*>& bRows, const std::vector<const SampleRow*>& cRows,
                 const PairedTaskSpec& spec, const PairedOptions& o, std::vector<std::string>& warnings) {
    const std::string metric = repeatedMetric(spec.metric);
    const std::string b = repeatCounts(bRows, metric), c = repeatCounts(cRows, metric);
    if (b == "1" && c == "1") return;
    warnings.push_back("the documents were scored several times (scores_per_repeat: " + b +
                       " repeat(s) per document in " + o.baselineLabel + ", " + c + " in " + o.candidateLabel +
                       "); the test pairs lm-eval's reduced " + spec.metric +
                       " per document (the task's reduction, take_first unless its config sets one), "
                       "the value the results file averages, not the single repeats");
    if (b != c)
        warnings.push_back("the runs repeated the documents differently (" + b + " against " + c +
                           " times): each side's per-document score reduces a different number of samples");
}

double sampleSd(const std::vector<double>& xs) {
    if (xs.size() < 2) return 0;
    double mean = 0;
    for (double x : xs) mean += x;
    mean /= static_cast<double>(xs.size());
    double ss = 0;
    for (double x : xs) ss += (x - mean) * (x - mean);
    return std::sqrt(ss / static_cast<double>(xs.size() - 1));
}

std::string summaryOf(const PairedTaskResult& r, const PairedOptions& o) {
    if (r.test == "none") return "no pairs left to test";
    std::string s;
    if (r.binary) {
        s = "McNemar exact on " + std::to_string(r.n) + " pairs: " + std::to_string(r.b01) + " right only in " +
            o.candidateLabel + ", " + std::to_string(r.b10) + " only in " + o.baselineLabel;
    } else {
        s = "Wilcoxon signed-rank on " + std::to_string(r.n) + " pairs";
    }
    s += ", p = " + fmt("%.3g", r.pValue) + "; Δ ";
    if (r.deltaPoints && r.deltaPointsCi)
        s += fmt("%+.2f", *r.deltaPoints) + " points [" + fmt("%+.2f", r.deltaPointsCi->low) + ", " +
             fmt("%+.2f", r.deltaPointsCi->high) + "]";
    else
        s += fmt("%+.4g", r.delta) + " [" + fmt("%+.4g", r.deltaCi.low) + ", " + fmt("%+.4g", r.deltaCi.high) + "]";
    if (r.deltaPct && r.deltaPctCi)
        s += ", " + fmt("%+.2f", *r.deltaPct) + " % [" + fmt("%+.2f", r.deltaPctCi->low) + ", " +
             fmt("%+.2f", r.deltaPctCi->high) + "]";
    if (r.confidence) s += std::string("; ") + bandWords(r.confidence->confidence);
    if (r.equivalence && r.equivalence->equivalent)
        s += ", equivalent within ±" + fmt("%g", r.equivalence->marginPct) + " %";
    if (r.hashMismatches + r.onlyInBaseline + r.onlyInCandidate + r.missingValues > 0)
        s += "; " + std::to_string(r.hashMismatches + r.onlyInBaseline + r.onlyInCandidate + r.missingValues) +
             " document(s) left out";
    return s;
}

// The examples and the limit they were read with: "examples_limit" (null when unknown: an older file, or logs paired
// in memory) and "examples" (a list, empty when none was kept).
void addExamples(Json& j, const PairedTaskResult& r) {
    j["examples_limit"] = r.examplesLimit ? Json(*r.examplesLimit) : Json(nullptr);
    Json examples = Json::array();
    for (const auto& e : r.examples) examples.push_back(changedExampleToJson(e));
    j["examples"] = std::move(examples);
}

Json interval(const std::optional<ConfidenceInterval>& ci) {
    if (!ci) return nullptr;
    return Json::array({ci->low, ci->high});
}

}  // namespace

namespace detail {

Result<std::vector<const SampleRow*>> filterRows(const SampleLog& log, const PairedTaskSpec& spec) {
    return rowsOf(log, spec);
}

// Matches the rows by doc_id (documents whose doc_hash or prompt_hash differ, or that a side lacks, are counted and
// left out) and appends each pair's values and difference, ascending by doc_id.
void matchRows(const std::vector<const SampleRow*>& bRows, const std::vector<const SampleRow*>& cRows,
               const PairedTaskSpec& spec, const PairedOptions& o, PairedTaskResult& r, std::vector<double>& bValues,
               std::vector<double>& cValues, std::vector<double>& diffs, ChangedCollector* changed) {
    // Rows per filter have unique doc_ids (the reader guarantees it); order by doc_id so that the bootstrap sees
    // the differences in an order independent of how lm-eval's ranks interleaved the rows. Sorted copies and one
    // merge, not two maps: a log is paired with several runs' logs in a comparison of variants, and the maps'
    // allocations were most of the pairing's time.
    const auto byId = [](const SampleRow* a, const SampleRow* b) { return a->docId < b->docId; };
    std::vector<const SampleRow*> bById = bRows, cById = cRows;
    if (!std::is_sorted(bById.begin(), bById.end(), byId)) std::sort(bById.begin(), bById.end(), byId);
    if (!std::is_sorted(cById.begin(), cById.end(), byId)) std::sort(cById.begin(), cById.end(), byId);

    auto note = [&](std::vector<long long>& ids, long long id) {
        if (ids.size() < o.listedDocIds) ids.push_back(id);
    };
    auto bi = bById.begin(), ci = cById.begin();
    while (bi != bById.end() || ci != cById.end()) {
        if (ci == cById.end() || (bi != bById.end() && (*bi)->docId < (*ci)->docId)) {
            ++r.onlyInBaseline;
            note(r.onlyInBaselineDocIds, (*bi++)->docId);
            continue;
        }
        if (bi == bById.end() || (*ci)->docId < (*bi)->docId) {
            ++r.onlyInCandidate;
            note(r.onlyInCandidateDocIds, (*ci++)->docId);
            continue;
        }
        const SampleRow* b = *bi++;
        const SampleRow* c = *ci++;
        const long long id = b->docId;
        const bool docDiffers = !b->docHash.empty() && !c->docHash.empty() && b->docHash != c->docHash;
        const bool promptDiffers = !b->promptHash.empty() && !c->promptHash.empty() && b->promptHash != c->promptHash;
        if (docDiffers || promptDiffers) {
            ++r.hashMismatches;
            r.docHashMismatches += docDiffers;
            r.promptHashMismatches += promptDiffers;
            note(r.mismatchDocIds, id);
            continue;
        }
        const double* bv = b->value(spec.metric);
        const double* cv = c->value(spec.metric);
        if (!bv || !cv || !std::isfinite(*bv) || !std::isfinite(*cv)) {
            ++r.missingValues;
            continue;
        }
        if (b->docHash.empty() || c->docHash.empty() || b->promptHash.empty() || c->promptHash.empty())
            ++r.uncheckedHashes;
        bValues.push_back(*bv);
        cValues.push_back(*cv);
        diffs.push_back(*cv - *bv);
        if (changed && *cv != *bv) changed->add(*b, *c, *bv, *cv);
    }
}

// The exclusions counted by matchRows, in words.
void noteExclusions(PairedTaskResult& r, const PairedTaskSpec& spec, const PairedOptions& o) {
    if (r.hashMismatches > 0)
        r.warnings.push_back(std::to_string(r.hashMismatches) +
                             " document(s) differ between the runs (doc_hash: " + std::to_string(r.docHashMismatches) +
                             ", prompt_hash: " + std::to_string(r.promptHashMismatches) + "; doc_ids " +
                             idList(r.mismatchDocIds, r.hashMismatches) +
                             "): a changed document or prompt is not the same test, so they are left out of it");
    if (r.onlyInBaseline + r.onlyInCandidate > 0) {
        std::string s;
        if (r.onlyInBaseline > 0)
            s = std::to_string(r.onlyInBaseline) + " doc_id(s) only in the " + o.baselineLabel + " log (" +
                idList(r.onlyInBaselineDocIds, r.onlyInBaseline) + ")";
        if (r.onlyInCandidate > 0)
            s += (s.empty() ? "" : " and ") + std::to_string(r.onlyInCandidate) + " only in the " + o.candidateLabel +
                 " log (" + idList(r.onlyInCandidateDocIds, r.onlyInCandidate) + ")";
        r.warnings.push_back(s + ": left out of the test (different --limit or --samples, or an interrupted run)");
    }
    if (r.missingValues > 0)
        r.warnings.push_back(std::to_string(r.missingValues) + " pair(s) lack a finite " + spec.metric +
                             " value on a side: left out");
    if (r.uncheckedHashes > 0)
        r.warnings.push_back(std::to_string(r.uncheckedHashes) +
                             " pair(s) have no doc_hash or prompt_hash on a side: tested without that check");
}

}  // namespace detail

std::string detail::pairedSummary(const PairedTaskResult& r, const PairedOptions& o) {
    return summaryOf(r, o);
}

PairedTaskSpec PairedTaskSpec::fromComparison(const TaskComparison& row) {
    PairedTaskSpec spec;
    spec.task = row.task;
    spec.metric = row.metricName;
    spec.filter = row.filter;
    spec.higherIsBetter = row.higherIsBetter;
    spec.baselineScore = row.baseline;
    spec.candidateScore = row.candidate;
    return spec;
}

Result<PairedTaskResult> pairSampleLogs(const SampleLog& baseline, const SampleLog& candidate,
                                        const PairedTaskSpec& spec, const PairedOptions& o) {
    return detail::pairLogs(baseline, candidate, spec, o, nullptr);
}

Result<PairedTaskResult> detail::pairLogs(const SampleLog& baseline, const SampleLog& candidate,
                                          const PairedTaskSpec& spec, const PairedOptions& o,
                                          ChangedCollector* changed) {
    auto bRows = rowsOf(baseline, spec);
    if (!bRows) return bRows.error();
    auto cRows = rowsOf(candidate, spec);
    if (!cRows) return cRows.error();

    PairedTaskResult r;
    r.task = spec.task;
    r.metric = spec.metric;
    r.filter = spec.filter;
    checkAgainstScore(*bRows, spec.metric, spec.baselineScore, "baseline", baseline.path, r.warnings);
    checkAgainstScore(*cRows, spec.metric, spec.candidateScore, "candidate", candidate.path, r.warnings);
    noteRepeats(*bRows, *cRows, spec, o, r.warnings);

    std::vector<double> bValues, cValues, diffs;
    detail::matchRows(*bRows, *cRows, spec, o, r, bValues, cValues, diffs, changed);
    detail::noteExclusions(r, spec, o);
    return detail::testPairs(std::move(r), bValues, cValues, diffs, spec, o);
}

// The tests on matched pairs: shared by a task's own logs and a group's pooled subtasks.
PairedTaskResult detail::testPairs(PairedTaskResult r, const std::vector<double>& bValues,
                                   const std::vector<double>& cValues, const std::vector<double>& diffs,
                                   const PairedTaskSpec& spec, const PairedOptions& o) {
    r.n = diffs.size();
    auto isBit = [](double v) { return v == 0.0 || v == 1.0; };
    r.binary = r.n > 0 && std::all_of(bValues.begin(), bValues.end(), isBit) &&
               std::all_of(cValues.begin(), cValues.end(), isBit);

    if (r.n == 0) {
        r.test = "none";
        r.warnings.push_back("no pairs are left to test");
        r.summary = summaryOf(r, o);
        return r;
    }

    double bSum = 0, cSum = 0;
    for (double v : bValues) bSum += v;
    for (double v : cValues) cSum += v;
    const double nd = static_cast<double>(r.n);
    r.baselineMean = bSum / nd;
    r.candidateMean = cSum / nd;
    r.delta = (cSum - bSum) / nd;

    // Lost / gained / unchanged by the direction of each document's move (paired_task_result.h: ChangedAnswers).
    ChangedAnswers changed;
    for (std::size_t i = 0; i < bValues.size(); ++i) {
        if (cValues[i] == bValues[i])
            ++changed.unchanged;
        else if ((cValues[i] > bValues[i]) == spec.higherIsBetter)
            ++changed.gained;
        else
            ++changed.lost;
    }
    r.changed = changed;

    if (r.binary) {
        r.test = "mcnemar_exact";
        for (std::size_t i = 0; i < bValues.size(); ++i) {
            if (cValues[i] == 1.0 && bValues[i] == 0.0) ++r.b01;
            if (cValues[i] == 0.0 && bValues[i] == 1.0) ++r.b10;
        }
        r.pValue = mcnemarExactPValue(r.b01, r.b10);
        if (r.n < kSmallN)
            r.warnings.push_back("n = " + std::to_string(r.n) + " < " + std::to_string(kSmallN) +
                                 ": the normal approximation is unreliable; the exact McNemar test was used");
    } else {
        r.test = "wilcoxon_signed_rank";
        r.pValue = wilcoxonSignedRank(diffs).pValue;
        if (r.n < kSmallN)
            r.warnings.push_back("n = " + std::to_string(r.n) + " < " + std::to_string(kSmallN) +
                                 ": the percentile bootstrap interval tends to be too narrow with few documents; "
                                 "read it with care");
    }

    r.deltaCi = bootstrapMeanCi(diffs, o.seed, o.bootstrapIterations, 0.95);
    auto inUnit = [](double v) { return v >= 0.0 && v <= 1.0; };
    if (std::all_of(bValues.begin(), bValues.end(), inUnit) && std::all_of(cValues.begin(), cValues.end(), inUnit)) {
        r.deltaPoints = r.delta * 100.0;
        r.deltaPointsCi = detail::scaledCi(r.deltaCi, 100.0);
    }
    if (r.baselineMean != 0) {
        const double toPct = 100.0 / std::fabs(r.baselineMean);
        r.deltaPct = r.delta * toPct;
        r.deltaPctCi = detail::scaledCi(r.deltaCi, toPct);
        // Degradation is the loss in the good direction: -delta when higher is better.
        const double sign = spec.higherIsBetter ? -1.0 : 1.0;
        const double a = sign * r.deltaPctCi->low, b = sign * r.deltaPctCi->high;
        r.confidence = confidenceAnswer(sign * *r.deltaPct, std::min(a, b), std::max(a, b), r.n, o.thresholds.goBelow,
                                        o.thresholds.investigateAbove);
        if (r.n >= 2) {
            const double sePct = sampleSd(diffs) / std::sqrt(nd) * toPct;
            r.equivalence = equivalenceCheck(*r.deltaPct, sePct, o.equivalenceMarginPct);
        }
    } else {
        r.warnings.push_back("the " + o.baselineLabel +
                             " mean of the tested pairs is 0: no relative delta, so no "
                             "confidence answer or equivalence check");
    }
    r.summary = summaryOf(r, o);
    return r;
}

Result<PairedOutcome> pairTaskLogs(const SampleLogIndex& baseline, const SampleLogIndex& candidate,
                                   const PairedTaskSpec& spec, const PairedOptions& o,
                                   const SampleProgressFn& progress) {
    auto missing = [&](const SampleLogIndex& index, const std::string& label) {
        std::string why = "the " + label + " run has no sample log for " + spec.task;
        if (!index.notes.empty())
            why += " (" + index.notes.front() + ")";
        else if (!index.resultsFile.empty())
            why += " (no samples_" + spec.task + "_" + index.dateId + ".jsonl beside " +
                   index.resultsFile.filename().string() + ")";
        return why;
    };
    PairedOutcome out;
    const SampleLogFile* bFile = baseline.file(spec.task);
    const SampleLogFile* cFile = candidate.file(spec.task);
    if (!bFile || !cFile) {
        out.noLogsReason = !bFile ? missing(baseline, o.baselineLabel) : missing(candidate, o.candidateLabel);
        if (!bFile && !cFile) out.noLogsReason += "; nor has the " + o.candidateLabel + " run";
        return out;
    }
    auto infoOf = [&](const SampleLogIndex& index) {
        if (const auto* info = index.taskInfo(spec.task)) return *info;
        SampleTaskInfo info;
        info.task = spec.task;
        info.filters = {spec.filter};
        return info;
    };
    std::error_code ec;
    const std::uint64_t bSize = fs::file_size(bFile->path, ec);
    const std::uint64_t cSize = ec ? 0 : fs::file_size(cFile->path, ec);
    const std::uint64_t total = bSize + cSize;
    SampleProgressFn first, second;
    if (progress) {
        first = [&](std::uint64_t done, std::uint64_t) { return progress(done, total); };
        second = [&](std::uint64_t done, std::uint64_t) { return progress(bSize + done, total); };
    }
    auto bLog = readSampleLog(bFile->path, infoOf(baseline), first);
    if (!bLog) return bLog.error();
    auto cLog = readSampleLog(cFile->path, infoOf(candidate), second);
    if (!cLog) return cLog.error();
    detail::ChangedCollector changed(o.answerExamples, spec.higherIsBetter);
    auto r = detail::pairLogs(*bLog, *cLog, spec, o, &changed);
    if (!r) return r.error();
    // The readers' warnings (old layout, repeats) belong with the result.
    for (const auto* log : {&*bLog, &*cLog})
        r->warnings.insert(r->warnings.end(), log->warnings.begin(), log->warnings.end());
    detail::readChangedExamples(*r, changed.choose(), {{"", bFile->path.string(), cFile->path.string()}},
                                o.answerExamples, o.answerTextBytes);
    out.result = std::move(*r);
    return out;
}

Json pairedToJson(const PairedTaskResult& r, bool withExamples) {
    Json j = Json::object();
    j["task"] = r.task;
    j["metric"] = r.metric;
    j["filter"] = r.filter;
    j["test"] = r.test;
    j["n"] = r.n;
    j["discordant"] = r.binary ? Json::array({r.b01, r.b10}) : Json(nullptr);
    j["p_value"] = r.pValue;
    j["baseline_mean"] = r.baselineMean;
    j["candidate_mean"] = r.candidateMean;
    const bool tested = r.test != "none";
    j["delta"] = tested ? Json(r.delta) : Json(nullptr);
    j["ci95"] = tested ? Json::array({r.deltaCi.low, r.deltaCi.high}) : Json(nullptr);
    j["delta_points"] = r.deltaPoints ? Json(*r.deltaPoints) : Json(nullptr);
    j["ci95_points"] = interval(r.deltaPointsCi);
    j["delta_pct"] = r.deltaPct ? Json(*r.deltaPct) : Json(nullptr);
    j["ci95_pct"] = interval(r.deltaPctCi);
    j["hash_mismatches"] = r.hashMismatches;
    j["hash_mismatch_doc_ids"] = r.mismatchDocIds;
    j["only_in_baseline"] = r.onlyInBaseline;
    j["only_in_baseline_doc_ids"] = r.onlyInBaselineDocIds;
    j["only_in_candidate"] = r.onlyInCandidate;
    j["only_in_candidate_doc_ids"] = r.onlyInCandidateDocIds;
    j["missing_values"] = r.missingValues;
    j["confidence"] = r.confidence ? Json(confidenceName(r.confidence->confidence)) : Json(nullptr);
    j["samples_needed"] =
        r.confidence && r.confidence->samplesNeeded ? Json(*r.confidence->samplesNeeded) : Json(nullptr);
    j["equivalent"] = r.equivalence ? Json(r.equivalence->equivalent) : Json(nullptr);
    j["equivalence_ci90_pct"] =
        r.equivalence ? Json::array({r.equivalence->lowPct, r.equivalence->highPct}) : Json(nullptr);
    j["warnings"] = r.warnings;
    j["binary"] = r.binary;
    j["doc_hash_mismatches"] = r.docHashMismatches;
    j["prompt_hash_mismatches"] = r.promptHashMismatches;
    j["unchecked_hashes"] = r.uncheckedHashes;
    j["degradation_ci95_pct"] =
        r.confidence ? Json::array({r.confidence->lowPct, r.confidence->highPct}) : Json(nullptr);
    j["confidence_explanation"] = r.confidence ? Json(r.confidence->explanation) : Json(nullptr);
    j["equivalence_margin_pct"] = r.equivalence ? Json(r.equivalence->marginPct) : Json(nullptr);
    j["summary"] = r.summary;
    // The changed answers' counts (ChangedAnswers), so that a saved non-0/1 result keeps them; null when unknown.
    j["lost"] = r.changed ? Json(r.changed->lost) : Json(nullptr);
    j["gained"] = r.changed ? Json(r.changed->gained) : Json(nullptr);
    j["unchanged"] = r.changed ? Json(r.changed->unchanged) : Json(nullptr);
    if (withExamples) addExamples(j, r);
    return j;
}

std::string changedAnswersSentence(const ChangedAnswers& c, const std::string& candidateLabel) {
    const auto pct = [](double v) { return numfmt::fixed(v, 1) + " %"; };
    if (c.n() == 0) return candidateLabel + " changed none of the answers (no pairs tested)";
    const std::string counts = numfmt::grouped(c.lost) + " lost, " + numfmt::grouped(c.gained) + " gained, " +
                               numfmt::grouped(c.unchanged) + " unchanged";
    if (c.lost + c.gained == 0) return candidateLabel + " changed none of the " + numfmt::grouped(c.n()) + " answers";
    const double net = c.netPct();
    std::string netText = numfmt::fixed(std::fabs(net), 1);
    if (netText == "0.0")
        netText = "0.0 %";
    else
        netText = (net < 0 ? "−" : "+") + netText + " %";
    return candidateLabel + " changed " + pct(c.ratePct()) + " of the answers: " + pct(c.lostPct()) + " lost, " +
           pct(c.gainedPct()) + " gained (net " + netText + "; " + counts + ")";
}

Json changedAnswersToJson(const PairedTaskResult* r) {
    if (!r || !r->changed || r->changed->n() == 0) return Json(nullptr);
    const ChangedAnswers& c = *r->changed;
    Json j{{"filter", r->filter},      {"lost", c.lost}, {"gained", c.gained},
           {"unchanged", c.unchanged}, {"n", c.n()},     {"rate_pct", c.ratePct()}};
    addExamples(j, *r);
    return j;
}

namespace {

// Field readers for parsePairedJson: absent or null keeps the default unless required; a wrong type is an error.
class PairedReader {
public:
    PairedReader(const Json& j, std::string where) : m_j(j), m_where(std::move(where)) {}

    const Json* find(const char* key, bool required) {
        auto it = m_j.find(key);
        if (it == m_j.end() || it->is_null()) {
            if (required) fail(std::string(key) + " is missing");
            return nullptr;
        }
        return &*it;
    }
    void string(const char* key, std::string& out, bool required = false) {
        if (const Json* v = find(key, required)) {
            if (v->is_string())
                out = v->get<std::string>();
            else
                fail(std::string(key) + " must be a string");
        }
    }
    void count(const char* key, std::uint64_t& out, bool required = false) {
        if (const Json* v = find(key, required)) {
            if (v->is_number_unsigned() || (v->is_number_integer() && v->get<long long>() >= 0))
                out = v->get<std::uint64_t>();
            else
                fail(std::string(key) + " must be a non-negative integer");
        }
    }
    void number(const char* key, double& out, bool required = false) {
        if (const Json* v = find(key, required)) {
            if (v->is_number() && std::isfinite(v->get<double>()))
                out = v->get<double>();
            else
                fail(std::string(key) + " must be a finite number");
        }
    }
    void number(const char* key, std::optional<double>& out) {
        double v = 0;
        if (find(key, false)) {
            number(key, v);
            out = v;
        }
    }
    void boolean(const char* key, bool& out) {
        if (const Json* v = find(key, false)) {
            if (v->is_boolean())
                out = v->get<bool>();
            else
                fail(std::string(key) + " must be true or false");
        }
    }
    std::optional<ConfidenceInterval> interval(const char* key) {
        const Json* v = find(key, false);
        if (!v) return std::nullopt;
        if (!v->is_array() || v->size() != 2 || !(*v)[0].is_number() || !(*v)[1].is_number() ||
            !std::isfinite((*v)[0].get<double>()) || !std::isfinite((*v)[1].get<double>())) {
            fail(std::string(key) + " must be [low, high] (two finite numbers) or null");
            return std::nullopt;
        }
        ConfidenceInterval ci;
        ci.low = (*v)[0].get<double>();
        ci.high = (*v)[1].get<double>();
        return ci;
    }
    void ids(const char* key, std::vector<long long>& out) {
        const Json* v = find(key, false);
        if (!v) return;
        if (!v->is_array()) return fail(std::string(key) + " must be a list of doc_ids");
        for (const auto& e : *v) {
            if (!e.is_number_integer()) return fail(std::string(key) + " must be a list of integer doc_ids");
            out.push_back(e.get<long long>());
        }
    }
    void strings(const char* key, std::vector<std::string>& out) {
        const Json* v = find(key, false);
        if (!v) return;
        if (!v->is_array()) return fail(std::string(key) + " must be a list of strings");
        for (const auto& e : *v) {
            if (!e.is_string()) return fail(std::string(key) + " must be a list of strings");
            out.push_back(e.get<std::string>());
        }
    }
    // `whole`: `what` is a whole message already naming its place.
    void fail(const std::string& what, bool whole = false) {
        if (!m_error) m_error = Error{whole ? what : m_where + "." + what};
    }
    const std::optional<Error>& error() const { return m_error; }

private:
    const Json& m_j;
    std::string m_where;
    std::optional<Error> m_error;
};

}  // namespace

Result<PairedTaskResult> parsePairedJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    PairedTaskResult r;
    PairedReader in(j, where);
    in.string("task", r.task, true);
    in.string("metric", r.metric, true);
    in.string("filter", r.filter, true);
    in.string("test", r.test, true);
    in.count("n", r.n, true);
    in.number("p_value", r.pValue, true);
    if (r.pValue < 0 || r.pValue > 1) in.fail("p_value must lie in [0, 1]");
    if (const Json* d = in.find("discordant", false)) {
        if (!d->is_array() || d->size() != 2 || !(*d)[0].is_number_unsigned() || !(*d)[1].is_number_unsigned())
            in.fail("discordant must be [b01, b10] (two non-negative integers) or null");
        else {
            r.b01 = (*d)[0].get<std::uint64_t>();
            r.b10 = (*d)[1].get<std::uint64_t>();
            r.binary = true;
        }
    }
    in.boolean("binary", r.binary);
    in.number("baseline_mean", r.baselineMean);
    in.number("candidate_mean", r.candidateMean);
    in.number("delta", r.delta);
    if (auto ci = in.interval("ci95")) r.deltaCi = *ci;
    in.number("delta_points", r.deltaPoints);
    r.deltaPointsCi = in.interval("ci95_points");
    in.number("delta_pct", r.deltaPct);
    r.deltaPctCi = in.interval("ci95_pct");
    in.count("hash_mismatches", r.hashMismatches);
    in.count("doc_hash_mismatches", r.docHashMismatches);
    in.count("prompt_hash_mismatches", r.promptHashMismatches);
    in.ids("hash_mismatch_doc_ids", r.mismatchDocIds);
    in.count("only_in_baseline", r.onlyInBaseline);
    in.ids("only_in_baseline_doc_ids", r.onlyInBaselineDocIds);
    in.count("only_in_candidate", r.onlyInCandidate);
    in.ids("only_in_candidate_doc_ids", r.onlyInCandidateDocIds);
    in.count("missing_values", r.missingValues);
    in.count("unchecked_hashes", r.uncheckedHashes);
    in.strings("warnings", r.warnings);
    in.string("summary", r.summary);
    // The changed answers: saved since the counts were added; derived from the discordant pairs in an older file
    // of a 0/1 metric (whose lm-eval metrics are all higher-is-better: acc, exact_match); unknown otherwise.
    if (in.find("lost", false) || in.find("gained", false) || in.find("unchanged", false)) {
        ChangedAnswers c;
        in.count("lost", c.lost, true);
        in.count("gained", c.gained, true);
        in.count("unchanged", c.unchanged, true);
        if (c.n() != r.n)
            in.fail("lost + gained + unchanged must equal n (" + std::to_string(c.lost) + " + " +
                    std::to_string(c.gained) + " + " + std::to_string(c.unchanged) + " != " + std::to_string(r.n) +
                    ")");
        r.changed = c;
    } else if (r.binary && r.n > 0 && r.b01 <= r.n && r.b10 <= r.n - r.b01) {
        r.changed = ChangedAnswers{r.b10, r.b01, r.n - r.b01 - r.b10};
    }

    if (in.find("examples_limit", false)) {
        std::uint64_t limit = 0;
        in.count("examples_limit", limit);
        r.examplesLimit = limit;
    }
    if (const Json* examples = in.find("examples", false)) {
        if (!examples->is_array()) in.fail("examples must be a list");
        for (std::size_t k = 0; examples->is_array() && k < examples->size() && !in.error(); ++k) {
            auto e = parseChangedExampleJson((*examples)[k], where + ".examples[" + std::to_string(k) + "]");
            if (!e)
                in.fail(e.error().message, true);
            else
                r.examples.push_back(std::move(e).value());
        }
    }

    std::string confidence;
    in.string("confidence", confidence);
    if (!confidence.empty()) {
        ConfidenceAnswer a;
        if (confidence == confidenceName(Confidence::Clear))
            a.confidence = Confidence::Clear;
        else if (confidence == confidenceName(Confidence::Inconclusive))
            a.confidence = Confidence::Inconclusive;
        else
            in.fail("confidence must be \"clear\" or \"inconclusive\"");
        if (auto ci = in.interval("degradation_ci95_pct")) {
            a.lowPct = ci->low;
            a.highPct = ci->high;
        } else if (r.deltaPctCi) {  // written before degradation_ci95_pct: the degradation of a higher-is-better metric
            a.lowPct = -r.deltaPctCi->high;
            a.highPct = -r.deltaPctCi->low;
        }
        std::uint64_t needed = 0;
        if (in.find("samples_needed", false)) {
            in.count("samples_needed", needed);
            a.samplesNeeded = needed;
        }
        in.string("confidence_explanation", a.explanation);
        r.confidence = std::move(a);
    }
    if (const Json* eq = in.find("equivalent", false)) {
        EquivalenceResult e;
        if (!eq->is_boolean())
            in.fail("equivalent must be true, false or null");
        else
            e.equivalent = eq->get<bool>();
        if (auto ci = in.interval("equivalence_ci90_pct")) {
            e.lowPct = ci->low;
            e.highPct = ci->high;
        }
        in.number("equivalence_margin_pct", e.marginPct);
        r.equivalence = e;
    }
    if (in.error()) return *in.error();
    return r;
}

}  // namespace fp8dash
