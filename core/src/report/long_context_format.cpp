// The long-context section of every output: one table of the per-length means, the worst length named.
#include "report/long_context_format.h"

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/untrusted_text.h"

#include <algorithm>
#include <cstdio>

namespace fp8dash {
namespace {

Json longContextOptionalNumber(const std::optional<double>& v) {
    return v ? Json(*v) : Json(nullptr);
}

std::string score(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string degradation(const std::optional<double>& v) {
    if (!v) return "n/a (baseline 0)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f%%", *v);
    return buf;
}

std::size_t columns(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

Json byLengthToJson(const std::vector<LengthComparison>& lengths, bool means) {
    Json out = Json::array();
    for (const auto& l : lengths) {
        Json row = {{"length", l.length},
                    {"baseline", l.baseline},
                    {"candidate", l.candidate},
                    {"delta_pct", longContextOptionalNumber(l.deltaPct)},
                    {"degradation_pct", longContextOptionalNumber(l.degradationPct)},
                    {"verdict", verdictName(l.verdict)}};
        if (means) row["tasks"] = l.tasks;
        out.push_back(std::move(row));
    }
    return out;
}

Json longContextToJson(const std::optional<LongContextSummary>& s) {
    if (!s) return nullptr;
    Json lengths = Json::array();
    for (const auto& l : s->lengths) lengths.push_back(l.length);
    return Json{{"lengths", std::move(lengths)},
                {"tasks", s->tasks},
                {"by_length", byLengthToJson(s->lengths, true)},
                {"worst_length", s->worstLength},
                {"verdict", verdictName(s->verdict)}};
}

std::vector<std::vector<std::string>> longContextTable(const LongContextSummary& s, const std::string& baselineLabel,
                                                       const std::string& candidateLabel) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"Length", "Tokens", baselineLabel, candidateLabel, "Δ", "Degradation", "Verdict"});
    for (const auto& l : s.lengths)
        rows.push_back({contextLengthLabel(l.length), std::to_string(l.length), score(l.baseline), score(l.candidate),
                        formatPercent(l.deltaPct, 2), degradation(l.degradationPct),
                        std::string(verdictName(l.verdict)) + (l.length == s.worstLength ? " (worst)" : "")});
    return rows;
}

std::string longContextHeadline(const LongContextSummary& s) {
    return "Per context length, the mean score of " + std::to_string(s.tasks) + " per-length task" +
           (s.tasks == 1 ? "" : "s") +
           " (RULER and the like) evaluated at that length in both runs; each such task's "
           "verdict is its worst length. The worst length here is " +
           contextLengthLabel(s.worstLength) + " (" + std::to_string(s.worstLength) +
           " tokens): " + std::string(verdictName(s.verdict)) + ".";
}

std::string longContextText(const ComparisonReport& r) {
    if (!r.longContext) return "";
    auto rows = longContextTable(*r.longContext, r.baselineLabel, r.candidateLabel);
    for (auto& row : rows)
        for (auto& cell : row) cell = oneLine(cell);  // a cell is one line (the labels and task names are data)
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], columns(row[i]));
    std::string out = "\nLong context\n" + wrapText(longContextHeadline(*r.longContext), 110, "  ");
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::size_t gap = widths[i] - columns(row[i]);
            const bool right = i >= 1 && i <= 5;
            line += ' ';
            line += right ? std::string(gap, ' ') + row[i] : row[i] + std::string(gap, ' ');
        }
        out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    }
    return out;
}

std::string longContextMarkdown(const ComparisonReport& r) {
    if (!r.longContext) return "";
    const auto rows = longContextTable(*r.longContext, r.baselineLabel, r.candidateLabel);
    using markdown::Align;
    std::vector<std::vector<std::string>> cells;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        std::vector<std::string> row;
        for (const auto& cell : rows[i]) row.push_back(markdown::escape(cell, markdown::Where::TableCell));
        cells.push_back(std::move(row));
    }
    return "\n### Long context\n\n" + markdown::escape(longContextHeadline(*r.longContext)) + "\n\n" +
           markdown::table(
               rows.front(),
               {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Left}, cells);
}

}  // namespace fp8dash
