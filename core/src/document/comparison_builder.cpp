#include "fp8dash/core/comparison_builder.h"

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace {

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

// The lm-eval runs, the control run and the paired tests of their sample logs, into a new document.
Result<ComparisonDocument> evalsDocument(const ComparisonInputs& in, BuiltComparison& built,
                                         const SampleProgressFn& progress) {
    if (in.baselinePath.empty() || in.candidatePath.empty())
        return Error{"compare needs both lm-eval runs, the baseline and the candidate"};
    auto baseline = readRun(in.baselinePath, in.baselineLabel, "baseline");
    if (!baseline) return baseline.error();
    auto candidate = readRun(in.candidatePath, in.candidateLabel, "candidate");
    if (!candidate) return candidate.error();
    built.inputs.emplace_back(in.baselineLabel, baseline->sourcePath);
    built.inputs.emplace_back(in.candidateLabel, candidate->sourcePath);
    ComparisonDocument doc =
        makeComparisonDocument(std::move(baseline).value(), std::move(candidate).value(), in.options);
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
        auto paired = computePairedResults(*report, in.baselinePath, in.candidatePath, {}, progress);
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
    if (!in.title.empty()) built.document.title = in.title;
    auto decision = decide(built.document);
    if (!decision) return decision.error();
    built.decision = std::move(decision).value();
    return built;
}

}  // namespace fp8dash
