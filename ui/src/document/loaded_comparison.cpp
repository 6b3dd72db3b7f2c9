#include "fp8dash/ui/loaded_comparison.h"

#include <regex>

#include <QFile>
#include <QFileInfo>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/lm_eval_results.h"

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

// Core's messages and notes start in lower case ("baseline: ...", "sample logs: 3 of 4 tasks paired"): the GUI
// shows them as sentences, capitalised, notes with a full stop.
std::string asSentence(std::string text, bool fullStop) {
    if (!text.empty() && text.front() >= 'a' && text.front() <= 'z')
        text.front() = static_cast<char>(text.front() - 'a' + 'A');
    if (fullStop && !text.empty() && text.back() != '.') text += '.';
    return text;
}

// Core's advice names the CLI's flags; the dialog has a field for each: the task-pairing editor for --map, the
// "not comparable anyway" box for --allow-incomparable.
std::string dialogAdvice(std::string message) {
    static const std::regex kPairAdvice(
        "pair them with --map BASE_TASK=CAND_TASK(, e\\.g\\. --map ([^=\\s]+)=([^\\s]+))?");
    std::smatch m;
    if (std::regex_search(message, m, kPairAdvice)) {
        std::string advice = "pair them under Task pairing";
        if (m[1].matched) advice += " (e.g. " + m[2].str() + " \u2192 " + m[3].str() + ")";
        message = m.prefix().str() + advice + m.suffix().str();
    }
    static const std::regex kMapPair("--map ([^=\\s]+)=([^:\\s]+):");
    message = std::regex_replace(message, kMapPair, "Task pairing $1 \u2192 $2:");
    static const std::string kAllow = "(--allow-incomparable compares tasks that are not comparable anyway)";
    if (const auto at = message.find(kAllow); at != std::string::npos)
        message.replace(at, kAllow.size(), "(\u201cCompare runs that are not comparable anyway\u201d compares them)");
    static const std::string kAllowShort = "--allow-incomparable compares them anyway";
    if (const auto at = message.find(kAllowShort); at != std::string::npos)
        message.replace(at, kAllowShort.size(),
                        "\u201cCompare runs that are not comparable anyway\u201d compares them");
    return message;
}

// Core names the failed input in the CLI's words ("judge candidate: ..."); the dialog names its fields.
std::string inDialogWords(const std::string& coreMessage) {
    const std::string message = dialogAdvice(coreMessage);
    static const std::pair<const char*, const char*> kInputs[] = {{"baseline: ", "Baseline run: "},
                                                                  {"candidate: ", "Candidate run: "},
                                                                  {"control: ", "Control run: "},
                                                                  {"sample logs: ", "Sample logs: "},
                                                                  {"judge baseline: ", "Baseline judge scores: "},
                                                                  {"judge candidate: ", "Candidate judge scores: "}};
    for (const auto& [core, dialog] : kInputs)
        if (message.rfind(core, 0) == 0) return dialog + message.substr(std::char_traits<char>::length(core));
    // The candidates after the first: "candidate 2: ..." -> "Candidate 2 run: ...".
    static const std::regex kNumbered("^candidate ([0-9]+): ");
    if (std::smatch m; std::regex_search(message, m, kNumbered))
        return "Candidate " + m[1].str() + " run: " + m.suffix().str();
    return asSentence(message, false);
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

namespace {

// The runs' labels as the comparison will name them, the baseline first: with several candidates a label left empty
// is derived from the run's layers (variantLabels, as the builder derives it); the results files are read for that
// (small: their sample logs are not). The serving results are filed under these labels.
Result<std::vector<std::string>> servingRunLabels(const NewComparisonRequest& request, const ComparisonInputs& in) {
    if (request.moreCandidatePaths.isEmpty()) return std::vector<std::string>{in.baselineLabel, in.candidateLabel};
    std::vector<std::filesystem::path> paths{in.baselinePath, in.candidatePath};
    paths.insert(paths.end(), in.moreCandidatePaths.begin(), in.moreCandidatePaths.end());
    std::vector<Fp8Config> configs;
    for (const auto& path : paths) {
        auto run = readLmEvalPath(path);
        if (!run) return run.error();
        configs.push_back(detectFp8Config(*run));
    }
    return variantLabels(configs, in.labels);
}

}  // namespace

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
    if (hasServing() && !hasEvals()) {
        return Error{
            "Serving results are weighed beside the lm-eval runs: choose the baseline and candidate runs too, or "
            "clear the serving results."};
    }
    if (!controlPath.isEmpty() && !hasEvals()) {
        return Error{
            "A control run is the noise floor of the lm-eval runs: choose the baseline and candidate runs "
            "too, or clear the control run."};
    }
    return success();
}

Result<LoadedComparison> buildNewComparison(const NewComparisonRequest& request, const SampleProgressFn& progress) {
    if (const Status valid = request.validate(); !valid) return valid.error();
    ComparisonInputs inputs;
    inputs.baselineLabel = request.baselineLabel.toStdString();
    inputs.candidateLabel = request.candidateLabel.toStdString();
    inputs.baselinePath = toFsPath(request.baselinePath);
    inputs.candidatePath = toFsPath(request.candidatePath);
    inputs.controlPath = toFsPath(request.controlPath);
    inputs.readSampleLogs = request.readSampleLogs;
    inputs.answerExamples = request.answerExamples;
    inputs.judgeBaselinePath = toFsPath(request.judgeBaselinePath);
    inputs.judgeCandidatePath = toFsPath(request.judgeCandidatePath);
    inputs.options = request.options;
    if (!request.moreCandidatePaths.isEmpty()) {
        inputs.labels = {inputs.baselineLabel, inputs.candidateLabel};
        for (qsizetype k = 0; k < request.moreCandidatePaths.size(); ++k) {
            inputs.moreCandidatePaths.push_back(toFsPath(request.moreCandidatePaths[k]));
            inputs.labels.push_back(k < request.moreCandidateLabels.size()
                                        ? request.moreCandidateLabels[k].trimmed().toStdString()
                                        : std::string());
        }
        inputs.recommendation = request.recommendation;
    }
    inputs.title = request.title.trimmed().toStdString();
    if (request.hasServing()) {
        auto labels = servingRunLabels(request, inputs);
        if (!labels) return Error{inDialogWords(labels.error().message)};
        if (!request.moreCandidatePaths.isEmpty()) inputs.labels = *labels;  // the same labels the serving files get
        for (qsizetype k = 0; k < request.servingPaths.size() && k < static_cast<qsizetype>(labels->size()); ++k) {
            const QString path = request.servingPaths[k].trimmed();
            if (!path.isEmpty())
                inputs.servingPaths.emplace_back((*labels)[static_cast<std::size_t>(k)], toFsPath(path));
        }
        inputs.servingOptions = request.serving;
    }
    auto built = buildComparison(inputs, progress);
    if (!built) return Error{inDialogWords(built.error().message)};
    QStringList notes;
    for (const std::string& note : built->pairingNotes) notes << toQString(asSentence(note, true));
    for (const std::string& note : built->judgeNotes) notes << toQString(asSentence("judge: " + note, true));
    ComparisonReport report = built->decision.evals ? *built->decision.evals : ComparisonReport{};
    return LoadedComparison{std::move(built->document), std::move(report), std::move(built->decision),
                            std::move(notes)};
}

}  // namespace fp8dash::ui
