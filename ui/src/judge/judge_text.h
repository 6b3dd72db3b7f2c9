#pragma once
// Texts of the Domain judge tab shared by the view and its drops model: the fields a score file may use for the
// drill-down (prompt, answers, judge comment) and how a score, a change of score and a one-line cell read.
// GUI thread only.

#include <QString>

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "fp8dash/core/lm_eval_results.h"  // Json
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/number_text.h"

namespace fp8dash::ui::judge_text {

// Field names a score file may use for the texts of the drill-down, first match wins.
inline const std::initializer_list<const char*> kPromptKeys = {"prompt", "question", "input"};
inline const std::initializer_list<const char*> kAnswerKeys = {"answer", "response", "output", "completion"};
inline const std::initializer_list<const char*> kCommentKeys = {"comment", "judge_comment", "rationale", "reason",
                                                                "explanation"};

inline QString fieldValueText(const Json& value) {
    if (value.is_string()) return toQString(value.get<std::string>());
    return toQString(value.dump());
}

// The first present, non-null field of `keys`, and its key (empty when none).
inline std::pair<QString, std::string> findField(const Json& fields, std::initializer_list<const char*> keys) {
    if (!fields.is_object()) return {};
    for (const char* key : keys) {
        const auto it = fields.find(key);
        if (it == fields.end() || it->is_null()) continue;
        return {fieldValueText(*it), key};
    }
    return {};
}

inline QString fieldText(const Json& fields, std::initializer_list<const char*> keys) {
    return findField(fields, keys).first;
}

inline QString score(double v) {
    return QString::number(v, 'g', 4);
}

// A change of score: whole points as integers ("−2"), otherwise two decimals.
inline QString changeText(double diff) {
    const bool whole = std::abs(diff - std::round(diff)) < 1e-9;
    return signedText(diff, whole ? 0 : 2);
}

// A cell's text: one line, at most 160 characters (the cell elides anyway; the full text is in the detail pane).
inline QString oneLine(QString text) {
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    constexpr int kMax = 160;
    if (text.size() > kMax) text = text.left(kMax) + QStringLiteral("…");
    return text;
}

}  // namespace fp8dash::ui::judge_text
