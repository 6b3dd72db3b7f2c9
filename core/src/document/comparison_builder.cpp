#include "fp8dash/core/comparison_builder.h"

#include <algorithm>

#include "fp8dash/core/comparability.h"

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace {

// The pairing options the inputs set: how many changed answers each task keeps (the rest are the defaults; the
// comparison sets its thresholds and labels).
PairedOptions examplesOptions(const ComparisonInputs& in) {
    PairedOptions o;
    o.answerExamples = in.answerExamples;
    return o;
}

// An error about one input: "<which>: <message>", and the file's name in the message when core's own message does
// not already name it.
Error aboutInput(const char* which, const Error& error, const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    std::string message = error.message;
    if (!name.empty() && message.find(name) == std::string::npos) message = path.string() + ": " + message;
    return Error{std::string(which) + ": " + message};
}

Result<RunRecord> readRun(const std::filesystem::path& path, const std::string& label, const char* which) {
    auto run = readLmEvalPath(path);
    if (!run) return aboutInput(which, run.error(), path);
    std::string source = run->sourcePath.empty() ? path.string() : run->sourcePath;
    return RunRecord{label, std::move(source), std::move(run).value()};
}

// The pairing's summary line and the notes of the tasks it could not pair.
std::vector<std::string> pairingNotes(std::size_t paired, std::size_t total, const std::vector<std::string>& notes) {
    if (paired == 0) {
        return {"sample logs: no task paired" + (notes.empty() ? std::string() : " (" + notes.front() + ")") +
                "; the confidence comes from lm-eval's standard errors"};
    }
    std::vector<std::string> out{"sample logs: " + std::to_string(paired) + " of " + std::to_string(total) + " task" +
                                 (total == 1 ? "" : "s") + " paired"};
    out.insert(out.end(), notes.begin(), notes.end());
    return out;
}

// Two runs are the same run when the comparability check finds every task and score equal.
bool sameResults(const LmEvalResults& a, const LmEvalResults& b) {
    return checkComparability(a, b).identical;
}

// The candidates after the first: read, labelled, checked against the baseline and each other, with their judge
// scores and the paired tests of their logs against the baseline's; then the layer steps' paired tests.
Status addVariants(const ComparisonInputs& in, ComparisonDocument& doc, BuiltComparison& built,
                   const SampleProgressFn& progress) {
    const std::size_t n = 2 + in.moreCandidatePaths.size();
    if (n - 1 > kMaxCandidates)
        return Error{"compare takes " + std::to_string(kMaxCandidates) + " candidates at most (got " +
                     std::to_string(n - 1) + ")"};
    std::vector<RunRecord> runs;
    runs.push_back(doc.baseline);
    runs.push_back(doc.candidate);
    for (std::size_t k = 2; k < n; ++k) {
        const std::string which = "candidate " + std::to_string(k);
        auto run = readRun(in.moreCandidatePaths[k - 2], "", which.c_str());
        if (!run) return run.error();
        runs.push_back(std::move(run).value());
    }
    std::vector<Fp8Config> configs;
    for (const auto& r : runs) configs.push_back(detectFp8Config(r.results));
    auto labels = variantLabels(configs, in.labels);
    if (!labels) return labels.error();
    for (std::size_t k = 0; k < n; ++k) runs[k].label = (*labels)[k];
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b)
            if (sameResults(runs[a].results, runs[b].results) && !in.options.allowIncomparable)
                return Error{std::string(kIdenticalRunsMessage) + " (" + runs[a].label + " = " + runs[a].sourcePath +
                             " and " + runs[b].label + " = " + runs[b].sourcePath +
                             "; --allow-incomparable compares them anyway)"};
    if (!in.moreJudgeCandidatePaths.empty() && in.moreJudgeCandidatePaths.size() != n - 2)
        return Error{"judge: give one judge score file per candidate (" + std::to_string(n - 1) +
                     "), in the candidates' "
                     "order, or only the first's"};
    doc.baseline.label = runs[0].label;
    doc.candidate.label = runs[1].label;
    // The title names the variants (as compare's Markdown does), not the first candidate's label before relabelling.
    if (n > 2)
        doc.title = doc.baseline.label + " vs " + std::to_string(n - 1) + " variants" +
                    (doc.baseline.results.modelName.empty() ? "" : ": " + doc.baseline.results.modelName);
    built.inputs.clear();
    for (std::size_t k = 0; k < n; ++k) built.inputs.emplace_back(runs[k].label, runs[k].sourcePath);
    for (std::size_t k = 2; k < n; ++k) {
        CandidateRecord c{runs[k], {}, std::nullopt};
        if (!in.moreJudgeCandidatePaths.empty()) {
            const auto& path = in.moreJudgeCandidatePaths[k - 2];
            auto b = loadJudgeScores(in.judgeBaselinePath, in.judgeScale);
            if (!b) return aboutInput("judge baseline", b.error(), in.judgeBaselinePath);
            auto s = loadJudgeScores(path, in.judgeScale);
            if (!s) return aboutInput(("judge " + runs[k].label).c_str(), s.error(), path);
            JudgeSection section;
            section.options.scale = in.judgeScale;
            section.options.cautious = in.options.cautious;
            section.baseline = std::move(b).value();
            section.candidate = std::move(s).value();
            c.judge = std::move(section);
            built.inputs.emplace_back("judge " + runs[k].label, path.string());
        }
        doc.moreCandidates.push_back(std::move(c));
    }
    doc.recommendation = in.recommendation;
    if (!in.readSampleLogs) return success();
    // Each candidate's logs against the baseline's, then each layer step's two runs: all in one pass over the logs,
    // so that each run's log of a task is read once (the baseline's serves every candidate, a candidate's its steps).
    std::vector<ComparisonReport> reports;
    std::vector<PairedRunComparison> comparisons;
    for (std::size_t k = 1; k < n; ++k) {
        auto report = compareEvals(doc.baseline.results, runs[k].results, in.options, runs[0].label, runs[k].label);
        if (!report) return Error{runs[k].label + ": " + report.error().message};
        reports.push_back(std::move(report).value());
        comparisons.push_back({nullptr, 0, k});
    }
    const auto steps = findLayerSteps(configs);
    std::vector<const LayerStepPlan*> stepsCompared;
    for (const auto& plan : steps) {
        auto report = compareEvals(runs[plan.from].results, runs[plan.to].results, in.options, runs[plan.from].label,
                                   runs[plan.to].label);
        if (!report) continue;
        reports.push_back(std::move(report).value());
        comparisons.push_back({nullptr, plan.from, plan.to});
        stepsCompared.push_back(&plan);
    }
    for (std::size_t c = 0; c < comparisons.size(); ++c) comparisons[c].report = &reports[c];
    std::vector<const LmEvalResults*> results;
    for (const auto& r : runs) results.push_back(&r.results);
    auto computed = computePairedResultsAcrossRuns(results, comparisons, examplesOptions(in), progress);
    if (!computed) return Error{"sample logs: " + computed.error().message};
    std::size_t pairedTasks = 0, comparedTasks = 0;
    std::vector<std::string> notes;
    for (std::size_t k = 1; k < n; ++k) {
        auto& paired = (*computed)[k - 1];
        comparedTasks += reports[k - 1].tasks.size();
        pairedTasks += paired.results.size();
        for (const auto& note : paired.notes) notes.push_back(runs[k].label + ": " + note);
        if (k == 1)
            doc.paired = std::move(paired.results);
        else
            doc.moreCandidates[k - 2].paired = std::move(paired.results);
    }
    for (std::size_t s = 0; s < stepsCompared.size(); ++s) {
        auto& paired = (*computed)[n - 1 + s];
        const LayerStepPlan& plan = *stepsCompared[s];
        if (!paired.results.empty())
            doc.stepPaired.push_back({runs[plan.from].label, runs[plan.to].label, std::move(paired.results)});
    }
    built.pairingNotes = pairingNotes(pairedTasks, comparedTasks, notes);
    return success();
}

// The lm-eval runs, the control run and the paired tests of their sample logs, into a new document.
Result<ComparisonDocument> evalsDocument(const ComparisonInputs& in, BuiltComparison& built,
                                         const SampleProgressFn& progress) {
    if (in.baselinePath.empty() || in.candidatePath.empty())
        return Error{"compare needs both lm-eval runs, the baseline and the candidate"};
    const bool variants = !in.moreCandidatePaths.empty();
    if (!variants && !in.labels.empty() && in.labels.size() != 2)
        return Error{"--label given " + std::to_string(in.labels.size()) +
                     " times for 2 runs: give one label per run, the baseline's first, or none"};
    const std::string baselineLabel = !in.labels.empty() ? in.labels[0] : in.baselineLabel;
    const std::string candidateLabel = !in.labels.empty() ? in.labels[1] : in.candidateLabel;
    if (!variants && baselineLabel == candidateLabel)
        return Error{"--label \"" + baselineLabel + "\" is given twice: each run needs its own label"};
    auto baseline = readRun(in.baselinePath, baselineLabel, "baseline");
    if (!baseline) return baseline.error();
    auto candidate = readRun(in.candidatePath, candidateLabel, "candidate");
    if (!candidate) return candidate.error();
    built.inputs.emplace_back(baselineLabel, baseline->sourcePath);
    built.inputs.emplace_back(candidateLabel, candidate->sourcePath);
    ComparisonDocument doc =
        makeComparisonDocument(std::move(baseline).value(), std::move(candidate).value(), in.options);
    if (variants) {
        if (auto ok = addVariants(in, doc, built, progress); !ok) return ok.error();
        if (!in.controlPath.empty()) {
            auto control = readRun(in.controlPath, doc.baseline.label + " control", "control");
            if (!control) return control.error();
            built.inputs.emplace_back(control->label, control->sourcePath);
            doc.control = std::move(control).value();
        }
        auto checked = doc.evaluateVariants();
        if (!checked) return checked.error();
        return doc;
    }
    if (!in.controlPath.empty()) {
        auto control = readRun(in.controlPath, in.baselineLabel + " control", "control");
        if (!control) return control.error();
        built.inputs.emplace_back(control->label, control->sourcePath);
        doc.control = std::move(control).value();
    }
    auto report = doc.evaluate();
    if (!report) return report.error();  // an option problem (an override, an incomparable pair): not one file's
    if (in.readSampleLogs) {
        // The logs are found beside the results files the runs were read from.
        auto paired = computePairedResults(*report, in.baselinePath, in.candidatePath, examplesOptions(in), progress);
        if (!paired) return Error{"sample logs: " + paired.error().message};
        doc.paired = std::move(paired->results);
        built.pairingNotes = pairingNotes(doc.paired.size(), report->tasks.size(), paired->notes);
    }
    return doc;
}

// Both sides' judge scores, from files or from Langfuse.
Result<JudgeSection> judgeSection(const ComparisonInputs& in, BuiltComparison& built) {
    JudgeSection section;
    section.options.scale = in.judgeScale;
    section.options.cautious = in.options.cautious;
    std::string baselineSource = in.judgeBaselinePath.string(), candidateSource = in.judgeCandidatePath.string();
    if (in.judgeLangfuse) {
        const LangfuseJudgeInputs& lf = *in.judgeLangfuse;
        auto b = fetchJudgeScoresFromLangfuse(lf.settings, lf.baseline, in.judgeScale);
        if (!b) return Error{"judge baseline: " + b.error().message};
        auto c = fetchJudgeScoresFromLangfuse(lf.settings, lf.candidate, in.judgeScale);
        if (!c) return Error{"judge candidate: " + c.error().message};
        section.baseline = std::move(b).value();
        section.candidate = std::move(c).value();
        for (const auto* side : {&section.baseline, &section.candidate})
            built.judgeNotes.insert(built.judgeNotes.end(), side->warnings.begin(), side->warnings.end());
        // Two deployments' traces are different requests: pair by trace id only where the ids meet.
        section.options.pairById = haveCommonIds(section.baseline, section.candidate);
        if (!section.options.pairById)
            built.judgeNotes.emplace_back("no trace is scored on both sides; comparing the scores unpaired");
        baselineSource = section.baseline.source;
        candidateSource = section.candidate.source;
    } else {
        if (in.judgeBaselinePath.empty() || in.judgeCandidatePath.empty())
            return Error{"compare needs both judge score files, the baseline's and the candidate's"};
        auto b = loadJudgeScores(in.judgeBaselinePath, in.judgeScale);
        if (!b) return aboutInput("judge baseline", b.error(), in.judgeBaselinePath);
        auto c = loadJudgeScores(in.judgeCandidatePath, in.judgeScale);
        if (!c) return aboutInput("judge candidate", c.error(), in.judgeCandidatePath);
        section.baseline = std::move(b).value();
        section.candidate = std::move(c).value();
    }
    built.inputs.emplace_back("judge " + in.baselineLabel, baselineSource);
    built.inputs.emplace_back("judge " + in.candidateLabel, candidateSource);
    return section;
}

}  // namespace

namespace {

// The serving results of each run, read under the run's label (errors name the label and the path).
Result<ServingSection> servingSection(const ComparisonInputs& in, const ComparisonDocument& doc) {
    if (!doc.hasEvals) return Error{"serving: serving benchmarks are weighed beside the evals: give the lm-eval runs"};
    const std::vector<std::string> labels = doc.runLabels();
    ServingSection s;
    s.options = in.servingOptions;
    for (const auto& entry : in.servingPaths) {
        const std::string& label = entry.first;  // not a structured binding: Clang 14 cannot capture one
        const std::filesystem::path& path = entry.second;
        if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
            std::string names;
            for (const std::string& l : labels) names += (names.empty() ? "" : ", ") + l;
            return Error{"serving \"" + label + "\": no run has this label (the runs are " + names + ")"};
        }
        auto runs = readServingPath(path);
        if (!runs) return Error{"serving " + label + ": " + runs.error().message};
        auto it = std::find_if(s.variants.begin(), s.variants.end(),
                               [&](const ServingVariantInput& v) { return v.label == label; });
        if (it == s.variants.end()) {
            s.variants.push_back({label, {}});
            it = s.variants.end() - 1;
        }
        it->runs.insert(it->runs.end(), runs->begin(), runs->end());
    }
    return s;
}

}  // namespace

Result<BuiltComparison> buildComparison(const ComparisonInputs& in, const SampleProgressFn& progress) {
    if (!in.hasEvals() && !in.hasJudge())
        return Error{"nothing to compare: give two lm-eval runs, two judge score sources, or both"};
    if (!in.controlPath.empty() && !in.hasEvals())
        return Error{"a control run is the noise floor of the lm-eval runs: it needs the baseline and candidate runs"};
    if (in.judgeLangfuse && (!in.judgeBaselinePath.empty() || !in.judgeCandidatePath.empty()))
        return Error{"choose one judge source: score files or Langfuse"};
    BuiltComparison built;
    if (in.hasEvals()) {
        auto doc = evalsDocument(in, built, progress);
        if (!doc) return doc.error();
        built.document = std::move(doc).value();
    } else {
        built.document = makeComparisonDocument({in.baselineLabel, "", {}}, {in.candidateLabel, "", {}}, in.options);
        built.document.hasEvals = false;
        built.document.title = in.baselineLabel + " vs " + in.candidateLabel + ": domain judge";
    }
    if (in.hasJudge()) {
        auto section = judgeSection(in, built);
        if (!section) return section.error();
        built.document.judge = std::move(section).value();
    }
    if (!in.servingPaths.empty()) {
        auto section = servingSection(in, built.document);
        if (!section) return section.error();
        built.document.serving = std::move(section).value();
    }
    if (!in.title.empty()) built.document.title = in.title;
    auto decision = decide(built.document);
    if (!decision) return decision.error();
    built.decision = std::move(decision).value();
    return built;
}

}  // namespace fp8dash
