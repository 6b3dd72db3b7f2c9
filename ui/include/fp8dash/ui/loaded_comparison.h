#pragma once
// A comparison document together with its evaluated report, and the background jobs that produce one: loading a
// *.fp8cmp file, and building a new comparison from two lm-eval runs. The jobs are synchronous, pure functions over
// values, meant to run on a QtConcurrent worker; they return errors as values naming the file.

#include <filesystem>
#include <string>
#include <string_view>

#include <QMetaType>
#include <QString>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/result.h"

namespace fp8dash::ui {

struct LoadedComparison {
    ComparisonDocument document;
    ComparisonReport report;  // the offline evals; empty (no tasks) for a timeline-only document
    Decision decision;        // the overall verdict over the evals and the production timeline
};

// Loads and evaluates a comparison file. Thread-safe.
Result<LoadedComparison> loadComparisonForDisplay(const QString& path);

// Evaluates a document already in memory (the demo, a freshly built comparison, a document whose timeline was just
// fetched). Fast enough for the GUI thread: the evals and the timeline's figures are linear in the data. Thread-safe.
Result<LoadedComparison> evaluateForDisplay(ComparisonDocument document, const QString& sourceName);

struct NewComparisonRequest {
    QString baselinePath;  // an lm-eval results file or output directory
    QString candidatePath;
    QString baselineLabel = QStringLiteral("BF16");
    QString candidateLabel = QStringLiteral("FP8");
    QString title;  // empty: "<model>: <baseline label> vs <candidate label>"
    ComparisonOptions options;
};

// Reads both runs and compares them. Errors say which side failed and name the file. Thread-safe.
Result<LoadedComparison> buildNewComparison(const NewComparisonRequest& request);

// UTF-8 conversions between Qt and the std/filesystem types of core.
std::filesystem::path toFsPath(const QString& path);
inline QString toQString(const std::string& utf8) {
    return QString::fromStdString(utf8);
}
inline QString toQString(std::string_view utf8) {
    return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
}

}  // namespace fp8dash::ui
