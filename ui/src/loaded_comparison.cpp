#include "fp8dash/ui/loaded_comparison.h"

#include <QFile>
#include <QFileInfo>

#include "fp8dash/core/judge_scores.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash::ui {

std::filesystem::path toFsPath(const QString& path) {
    // Local 8-bit encoding is what the OS takes for file names (UTF-8 on every supported system).
    return std::filesystem::path(QFile::encodeName(path).toStdString());
}

namespace {

// Core's messages normally name the file already; when one does not, say which file it was about.
Error namingFile(const Error& error, const QString& path) {
    const QString name = QFileInfo(path).fileName();
    const QString message = toQString(error.message);
    if (name.isEmpty() || message.contains(name)) return error;
    return Error{(path + QStringLiteral(": ") + message).toStdString()};
}

}  // namespace

Result<LoadedComparison> loadComparisonForDisplay(const QString& path) {
    auto document = loadComparisonFile(toFsPath(path));
    if (!document) return namingFile(document.error(), path);
    return evaluateForDisplay(std::move(document).value(), path);
}

Result<LoadedComparison> evaluateForDisplay(ComparisonDocument document, const QString& sourceName) {
    auto decision = decide(document);
    if (!decision) return namingFile(decision.error(), sourceName);
    ComparisonReport report = decision->evals ? *decision->evals : ComparisonReport{};
    return LoadedComparison{std::move(document), std::move(report), std::move(decision).value(), {}};
}

Status NewComparisonRequest::validate() const {
    if (!hasEvals() && !hasJudge()) {
        return Error{
            "Choose what to compare: the lm-eval runs of the baseline and the candidate, their judge score "
            "files, or both."};
    }
    if (hasEvals() && baselinePath.isEmpty()) return Error{"Choose the baseline run: a results file or folder."};
    if (hasEvals() && candidatePath.isEmpty()) return Error{"Choose the candidate run: a results file or folder."};
    if (hasJudge() && judgeBaselinePath.isEmpty()) return Error{"Choose the baseline's judge score file."};
    if (hasJudge() && judgeCandidatePath.isEmpty()) return Error{"Choose the candidate's judge score file."};
    if (!controlPath.isEmpty() && !hasEvals()) {
        return Error{
            "A control run is the noise floor of the lm-eval runs: choose the baseline and candidate runs "
            "too, or clear the control run."};
    }
    return success();
}

Result<LoadedComparison> buildNewComparison(const NewComparisonRequest& request, const SampleProgressFn& progress) {
    if (const Status valid = request.validate(); !valid) return valid.error();
    auto readRun = [](const QString& path, const char* which) -> Result<LmEvalResults> {
        auto run = readLmEvalPath(toFsPath(path));
        if (!run) return Error{std::string(which) + " run: " + namingFile(run.error(), path).message};
        return run;
    };
    auto sourceOf = [](const LmEvalResults& run, const QString& given) {
        return run.sourcePath.empty() ? given.toStdString() : run.sourcePath;
    };
    const std::string baselineLabel = request.baselineLabel.toStdString();
    const std::string candidateLabel = request.candidateLabel.toStdString();

    ComparisonDocument document;
    QStringList notes;
    if (request.hasEvals()) {
        auto baseline = readRun(request.baselinePath, "Baseline");
        if (!baseline) return baseline.error();
        auto candidate = readRun(request.candidatePath, "Candidate");
        if (!candidate) return candidate.error();
        RunRecord baselineRun{baselineLabel, sourceOf(*baseline, request.baselinePath), std::move(baseline).value()};
        RunRecord candidateRun{candidateLabel, sourceOf(*candidate, request.candidatePath),
                               std::move(candidate).value()};
        document = makeComparisonDocument(std::move(baselineRun), std::move(candidateRun), request.options);
        if (!request.controlPath.isEmpty()) {
            auto control = readRun(request.controlPath, "Control");
            if (!control) return control.error();
            const std::string source = sourceOf(*control, request.controlPath);
            document.control = RunRecord{baselineLabel + " control", source, std::move(control).value()};
        }
        auto report = document.evaluate();
        if (!report) return report.error();  // an option problem (e.g. an override): not about one file
        if (request.readSampleLogs) {
            // The logs are found beside the results files the runs were read from.
            auto paired = computePairedResults(*report, toFsPath(request.baselinePath), toFsPath(request.candidatePath),
                                               {}, progress);
            if (!paired) return Error{"Sample logs: " + paired.error().message};
            document.paired = std::move(paired->results);
            const std::size_t total = report->tasks.size();
            notes
                << (document.paired.empty()
                        ? QStringLiteral("Sample logs: no task paired; the confidence comes from lm-eval's "
                                         "standard errors.")
                        : QStringLiteral("Sample logs: %1 of %2 tasks paired.").arg(document.paired.size()).arg(total));
            for (const std::string& note : paired->notes) notes << toQString(note);
        }
    } else {
        document = makeComparisonDocument({baselineLabel, "", {}}, {candidateLabel, "", {}}, request.options);
        document.hasEvals = false;
        document.title = baselineLabel + " vs " + candidateLabel + ": domain judge";
    }
    if (request.hasJudge()) {
        JudgeSection section;
        section.options.cautious = request.options.cautious;
        auto readScores = [&](const QString& path, const char* which) -> Result<JudgeScores> {
            auto scores = loadJudgeScores(toFsPath(path), section.options.scale);
            if (!scores)
                return Error{std::string(which) + " judge scores: " + namingFile(scores.error(), path).message};
            return scores;
        };
        auto baseline = readScores(request.judgeBaselinePath, "Baseline");
        if (!baseline) return baseline.error();
        auto candidate = readScores(request.judgeCandidatePath, "Candidate");
        if (!candidate) return candidate.error();
        section.baseline = std::move(baseline).value();
        section.candidate = std::move(candidate).value();
        document.judge = std::move(section);
    }
    if (!request.title.trimmed().isEmpty()) document.title = request.title.trimmed().toStdString();
    auto decision = decide(document);
    if (!decision) return decision.error();
    ComparisonReport report = decision->evals ? *decision->evals : ComparisonReport{};
    return LoadedComparison{std::move(document), std::move(report), std::move(decision).value(), std::move(notes)};
}

}  // namespace fp8dash::ui
