#include "fp8dash/ui/loaded_comparison.h"

#include <QFile>
#include <QFileInfo>

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
    return LoadedComparison{std::move(document), std::move(report), std::move(decision).value()};
}

Result<LoadedComparison> buildNewComparison(const NewComparisonRequest& request) {
    auto readSide = [](const QString& path, const char* side) -> Result<LmEvalResults> {
        auto run = readLmEvalPath(toFsPath(path));
        if (!run) {
            return Error{std::string(side) + " run: " + namingFile(run.error(), path).message};
        }
        return run;
    };
    auto baseline = readSide(request.baselinePath, "Baseline");
    if (!baseline) return baseline.error();
    auto candidate = readSide(request.candidatePath, "Candidate");
    if (!candidate) return candidate.error();

    const std::string baselineLabel = request.baselineLabel.toStdString();
    const std::string candidateLabel = request.candidateLabel.toStdString();
    auto sourceOf = [](const LmEvalResults& run, const QString& given) {
        return run.sourcePath.empty() ? given.toStdString() : run.sourcePath;
    };
    RunRecord baselineRun{baselineLabel, sourceOf(*baseline, request.baselinePath), std::move(baseline).value()};
    RunRecord candidateRun{candidateLabel, sourceOf(*candidate, request.candidatePath), std::move(candidate).value()};
    ComparisonDocument document =
        makeComparisonDocument(std::move(baselineRun), std::move(candidateRun), request.options);
    if (!request.title.trimmed().isEmpty()) document.title = request.title.trimmed().toStdString();
    auto decision = decide(document);
    if (!decision) return decision.error();  // an option problem (e.g. an override): not about one file
    ComparisonReport report = decision->evals ? *decision->evals : ComparisonReport{};
    return LoadedComparison{std::move(document), std::move(report), std::move(decision).value()};
}

}  // namespace fp8dash::ui
