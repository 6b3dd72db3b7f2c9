#include "cli_compare.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli.h"
#include "cli_common.h"
#include "cli_serving.h"
#include "fp8dash/core/changed_answers.h"
#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/comparison_merge.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/langfuse_judge.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/timeline.h"
#include "fp8dash/core/untrusted_text.h"
#include "fp8dash/core/variant_comparison.h"
#include "terminal_stream.h"

namespace fp8dash::cli {
namespace {

// --judge-scale MIN-MAX, e.g. "1-5" or "0-10" (the separator is the first '-' after the first character, so a
// negative minimum reads too: "-1-1").
JudgeScale parseJudgeScale(const std::string& text) {
    const auto bad = [&] { return UsageError{"--judge-scale \"" + text + "\": expected MIN-MAX such as 1-5"}; };
    const auto dash = text.find('-', 1);
    if (text.empty() || dash == std::string::npos) throw bad();
    JudgeScale scale;
    for (auto [part, out] :
         {std::pair{text.substr(0, dash), &scale.min}, std::pair{text.substr(dash + 1), &scale.max}}) {
        const auto v = strictDouble(part);
        if (!v) throw bad();
        *out = *v;
    }
    if (auto ok = scale.validate(); !ok) throw UsageError{"--judge-scale \"" + text + "\": " + ok.error().message};
    return scale;
}

// --judge-langfuse: each side's selection checked, the keys from the environment, notices to stderr.
LangfuseSettings langfuseJudgeSettings(const std::string& url, const LangfuseJudgeQuery& baseline,
                                       const LangfuseJudgeQuery& candidate, std::ostream& err) {
    for (const auto* q : {&baseline, &candidate})
        if (q->traceTags.empty() && q->environments.empty())
            throw UsageError{std::string("compare: --judge-langfuse needs --judge-") +
                             (q == &baseline ? "baseline" : "candidate") + "-tag or -env"};
    if (baseline.traceTags == candidate.traceTags && baseline.environments == candidate.environments)
        throw UsageError{
            "compare: the baseline and candidate select the same Langfuse scores (same tags and environments)"};
    const TimelineCredentials cred = credentialsFromEnvironment();
    std::string missing;
    if (cred.langfusePublicKey.empty()) missing = "LANGFUSE_PUBLIC_KEY";
    if (cred.langfuseSecretKey.empty())
        missing += (missing.empty() ? "" : " and ") + std::string("LANGFUSE_SECRET_KEY");
    if (!missing.empty()) throw UsageError{"compare: --judge-langfuse needs " + missing + " in the environment"};
    LangfuseSettings langfuse{url, cred.langfusePublicKey, cred.langfuseSecretKey, cred.httpTemplate, {}};
    // Deprecated endpoints, a long fetch ahead, rate-limit waits: one line each on stderr. (The judge needs every
    // score: it has no aggregate mode.)
    langfuse.notice = [&err](const std::string& text) { err << "fp8dash: " << oneLine(text) << "\n" << std::flush; };
    return langfuse;
}

// --save onto a file that is there: it is read before the runs are (a file that is no comparison is refused before
// any work), and updated after (its evals and judge replaced, everything else kept and named on stderr); --replace
// starts over. A file that is there but is no comparison is never overwritten.
std::optional<ComparisonDocument> existingToUpdate(const std::string& path, bool replace, bool& refused,
                                                   std::ostream& err) {
    refused = false;
    std::error_code ec;
    if (replace || !std::filesystem::exists(path, ec)) return std::nullopt;
    auto existing = loadComparisonFile(path);
    if (!existing) {
        err << "fp8dash: cannot save: " << errorText(existing.error().message) << "\n"
            << "fp8dash: " << oneLine(path)
            << " is there and is not a comparison this fp8dash can update; it is left as it was (--replace "
               "overwrites it)\n";
        refused = true;
        return std::nullopt;
    }
    return std::move(existing).value();
}

bool saveOrUpdate(const ComparisonDocument& doc, std::optional<ComparisonDocument> existing, const std::string& path,
                  std::optional<Verdict> printed, std::ostream& err) {
    ComparisonDocument toSave = doc;
    std::vector<std::string> kept;
    bool evidenceChanged = false;
    const bool update = existing.has_value();
    if (update) {
        EvidenceUpdate updated = updateEvidence(std::move(*existing), doc);
        toSave = std::move(updated.document);
        kept = std::move(updated.kept);
        evidenceChanged = updated.decisionEvidenceChanged;
    }
    if (auto saved = saveComparisonFile(toSave, path); !saved) {
        err << "fp8dash: cannot save: " << errorText(saved.error().message) << "\n";
        return false;
    }
    // Privacy (README "The answers FP8 changed"): what the file holds of the logs' questions and responses.
    const std::string examples = answerExamplesNotice(answerExamplesHeld(toSave), true);
    const auto notice = [&] {
        if (!examples.empty()) err << "fp8dash: " << oneLine(examples) << "\n";
    };
    if (!update) {
        err << "fp8dash: saved the comparison to " << oneLine(path) << "\n";
        notice();
        return true;
    }
    const std::string shown = oneLine(path);
    err << "fp8dash: updated the comparison in " << shown << "\n";
    if (!kept.empty())
        err << "fp8dash: kept " << oneLine(joinInWords(kept)) << " of " << shown << "; --replace starts over\n";
    notice();
    if (evidenceChanged)
        err << "fp8dash: the review decision in force was recorded under another verdict: it shows as "
               "\"evidence changed\"\n";
    // What is printed and what --fail-on gates is this comparison's verdict; a kept section (a fired quality alert in
    // the timeline) can make the saved file's overall verdict another one: say so, so that nobody reads one for the
    // other.
    if (auto whole = decide(toSave); whole && whole->verdict && whole->verdict != printed)
        err << "fp8dash: with what was kept, the saved comparison's overall verdict is "
            << verdictTitle(*whole->verdict) << " (fp8dash report " << shown << ")\n";
    return true;
}

}  // namespace

int cmdCompare(Args& a, std::ostream& out, std::ostream& err) {
    std::vector<std::string> positional;
    ComparisonOptions options;
    Format format = Format::Text;
    std::optional<Verdict> failOn;
    std::string savePath, baselineLabel = "BF16", candidateLabel = "FP8", value;
    std::string judgeBaselinePath, controlPath;
    std::vector<std::string> judgeCandidatePaths, labels;
    std::vector<std::pair<std::string, std::string>> servingPaths;
    ServingOptions servingOptions;
    RecommendationOptions recommendation;
    bool recommendationGiven = false, sideLabels = false;
    JudgeScale scale;
    std::string judgeLangfuseUrl;  // scores from Langfuse instead of files
    LangfuseJudgeQuery judgeLfBaseline, judgeLfCandidate;
    bool sampleLogs = true, replace = false;
    std::uint64_t answerExamples = kDefaultAnswerExamples;
    while (!a.done()) {
        if (a.option("--metric", value)) {
            auto o = MetricOverride::parse(value);
            if (!o) throw UsageError{o.error().message};
            options.overrides.push_back(std::move(o).value());
        } else if (a.option("--go-below", value)) {
            options.thresholds.goBelow = parsePercent("--go-below", value);
        } else if (a.option("--investigate-above", value)) {
            options.thresholds.investigateAbove = parsePercent("--investigate-above", value);
        } else if (a.option("--format", value)) {
            format = parseFormat(value);
        } else if (a.option("--save", value)) {
            if (value.empty()) throw UsageError{"--save needs a comparison file (FILE.fp8cmp)"};
            savePath = value;
        } else if (a.flag("--replace")) {
            replace = true;
        } else if (a.option("--fail-on", value)) {
            failOn = parseFailOn(value);
        } else if (a.option("--baseline-label", value)) {
            baselineLabel = value;
            sideLabels = true;
        } else if (a.option("--candidate-label", value)) {
            candidateLabel = value;
            sideLabels = true;
        } else if (a.option("--judge-baseline", value)) {
            judgeBaselinePath = value;
        } else if (a.option("--judge-candidate", value)) {
            judgeCandidatePaths.push_back(value);
        } else if (a.option("--serving", value)) {
            const auto eq = value.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
                throw UsageError{"compare: --serving \"" + value +
                                 "\": expected LABEL=PATH (a run's label, its results)"};
            servingPaths.emplace_back(value.substr(0, eq), value.substr(eq + 1));
        } else if (servingOption(a, servingOptions, "compare")) {
        } else if (a.option("--label", value)) {
            if (value.empty()) throw UsageError{"--label: a label may not be empty"};
            labels.push_back(value);
        } else if (a.option("--accept", value)) {
            const auto v = parseVerdict(value);
            if (!v || *v == Verdict::Investigate)
                throw UsageError{"--accept \"" + value + "\": expected go or monitor"};
            recommendation.accept = *v;
            recommendationGiven = true;
        } else if (a.option("--min-recovery", value)) {
            const auto v = strictDouble(value);
            if (!v || !(*v > 0) || *v > 1000)
                throw UsageError{"--min-recovery \"" + value + "\": expected a percentage such as 95"};
            recommendation.minRecoveryPct = *v;
            recommendationGiven = true;
        } else if (a.option("--judge-scale", value)) {
            scale = parseJudgeScale(value);
        } else if (a.option("--judge-langfuse", value)) {
            judgeLangfuseUrl = value;
        } else if (a.option("--judge-score", value)) {
            judgeLfBaseline.scoreName = judgeLfCandidate.scoreName = value;
        } else if (a.option("--judge-baseline-tag", value)) {
            judgeLfBaseline.traceTags.push_back(value);
        } else if (a.option("--judge-candidate-tag", value)) {
            judgeLfCandidate.traceTags.push_back(value);
        } else if (a.option("--judge-baseline-env", value)) {
            judgeLfBaseline.environments.push_back(value);
        } else if (a.option("--judge-candidate-env", value)) {
            judgeLfCandidate.environments.push_back(value);
        } else if (a.option("--control", value)) {
            controlPath = value;
        } else if (a.flag("--cautious")) {
            options.cautious = true;
        } else if (a.flag("--allow-incomparable")) {
            options.allowIncomparable = true;
        } else if (a.option("--map", value)) {
            auto m = TaskMapping::parse(value);
            if (!m) throw UsageError{m.error().message};
            options.taskMap.push_back(std::move(m).value());
        } else if (a.flag("--no-sample-logs")) {
            sampleLogs = false;
        } else if (a.option("--answer-examples", value)) {
            answerExamples = parseAnswerExamples(value);
        } else if (a.peek().size() > 1 && a.peek()[0] == '-') {
            throw UsageError{"compare: unknown option " + a.peek()};
        } else {
            positional.push_back(a.next());
        }
    }
    const std::string judgeCandidatePath = judgeCandidatePaths.empty() ? std::string() : judgeCandidatePaths.front();
    const bool langfuseJudge = !judgeLangfuseUrl.empty();
    const bool judgeSelectors = !judgeLfBaseline.traceTags.empty() || !judgeLfBaseline.environments.empty() ||
                                !judgeLfCandidate.traceTags.empty() || !judgeLfCandidate.environments.empty();
    if (judgeSelectors && !langfuseJudge)
        throw UsageError{"compare: --judge-baseline-tag/-env and --judge-candidate-tag/-env need --judge-langfuse URL"};
    if (langfuseJudge && (!judgeBaselinePath.empty() || !judgeCandidatePath.empty()))
        throw UsageError{
            "compare: choose one judge source: score files (--judge-baseline, --judge-candidate) or "
            "--judge-langfuse"};
    LangfuseSettings langfuse;
    if (langfuseJudge) langfuse = langfuseJudgeSettings(judgeLangfuseUrl, judgeLfBaseline, judgeLfCandidate, err);
    const bool judge = langfuseJudge || !judgeBaselinePath.empty() || !judgeCandidatePath.empty();
    if (judge && !langfuseJudge && judgeCandidatePath.empty())
        throw UsageError{"compare: --judge-baseline needs --judge-candidate"};
    if (judge && !langfuseJudge && judgeBaselinePath.empty())
        throw UsageError{"compare: --judge-candidate needs --judge-baseline"};
    if (positional.empty() && !judge)
        throw UsageError{
            "compare needs BASELINE CANDIDATE (two lm-eval results), --judge-baseline F "
            "--judge-candidate F (two judge score files) or --judge-langfuse URL, or both"};
    if (positional.size() == 1) throw UsageError{"compare needs BASELINE and at least one CANDIDATE (got one path)"};
    if (positional.size() > 1 + kMaxCandidates)
        throw UsageError{"compare takes one baseline and " + std::to_string(kMaxCandidates) +
                         " candidates at most (got " + std::to_string(positional.size() - 1) + " candidates)"};
    if (!labels.empty() && labels.size() != positional.size())
        throw UsageError{"compare: --label given " + std::to_string(labels.size()) + " time" +
                         (labels.size() == 1 ? "" : "s") + " for " + std::to_string(positional.size()) +
                         " runs: give one per run, the baseline's first"};
    if (!labels.empty() && sideLabels)
        throw UsageError{"compare: give --label for every run, or --baseline-label and --candidate-label, not both"};
    if (judgeCandidatePaths.size() > 1 && judgeCandidatePaths.size() + 1 != positional.size())
        throw UsageError{"compare: --judge-candidate given " + std::to_string(judgeCandidatePaths.size()) +
                         " times for " + std::to_string(positional.size() - 1) +
                         " candidates: give one per candidate, in their order"};
    if (recommendationGiven && positional.size() < 3)
        throw UsageError{"compare: --accept and --min-recovery choose among several candidates (give two or more)"};
    if (!controlPath.empty() && positional.empty())
        throw UsageError{"compare: --control needs BASELINE and CANDIDATE (it is the noise floor of the lm-eval runs)"};
    if (auto ok = options.thresholds.validate(); !ok) throw UsageError{ok.error().message};
    if (replace && savePath.empty()) throw UsageError{"compare: --replace goes with --save FILE"};

    ComparisonInputs inputs;
    inputs.baselineLabel = baselineLabel;
    inputs.candidateLabel = candidateLabel;
    inputs.controlPath = controlPath;
    inputs.readSampleLogs = sampleLogs;
    inputs.answerExamples = answerExamples;
    inputs.judgeBaselinePath = judgeBaselinePath;
    inputs.judgeCandidatePath = judgeCandidatePath;
    if (langfuseJudge) inputs.judgeLangfuse = LangfuseJudgeInputs{langfuse, judgeLfBaseline, judgeLfCandidate};
    inputs.judgeScale = scale;
    inputs.options = options;
    if (!positional.empty()) {
        inputs.baselinePath = positional[0];
        inputs.candidatePath = positional[1];
        for (std::size_t k = 2; k < positional.size(); ++k) inputs.moreCandidatePaths.emplace_back(positional[k]);
    }
    inputs.labels = labels;
    for (std::size_t k = 1; k < judgeCandidatePaths.size(); ++k)
        inputs.moreJudgeCandidatePaths.emplace_back(judgeCandidatePaths[k]);
    inputs.recommendation = recommendation;
    for (const auto& [label, path] : servingPaths) inputs.servingPaths.emplace_back(label, path);
    inputs.servingOptions = servingOptions;
    std::optional<ComparisonDocument> existing;
    if (!savePath.empty()) {
        bool refused = false;
        existing = existingToUpdate(savePath, replace, refused, err);
        if (refused) return kExitBadInput;
    }
    int lastTenth = -1;
    auto built = buildComparison(inputs, sampleLogProgress(err, lastTenth));
    if (!built) {
        err << "fp8dash: " << errorText(built.error().message) << "\n";
        return kExitBadInput;
    }
    // The pairing's summary goes to stderr in text and Markdown (JSON shows "paired"); in words only when something
    // was paired are the unpaired tasks listed.
    if (format != Format::Json) {
        for (std::size_t i = 0; i < built->pairingNotes.size(); ++i)
            err << (i == 0 ? "fp8dash: " : "fp8dash:   ") << oneLine(built->pairingNotes[i]) << "\n";
    }
    for (const std::string& note : built->judgeNotes) err << "fp8dash: judge: " << oneLine(note) << "\n";
    const ComparisonDocument& doc = built->document;
    std::string heading;
    for (const auto& [label, source] : built->inputs)
        heading += (heading.empty() ? "" : "\n") + oneLine(label + " = " + source);  // one line each
    if (!savePath.empty() && !saveOrUpdate(doc, std::move(existing), savePath, built->decision.verdict, err))
        return kExitBadInput;
    printDecision(built->decision, doc, format, heading, out);
    return exitFor(built->decision, failOn);
}

}  // namespace fp8dash::cli
