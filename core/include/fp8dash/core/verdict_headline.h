#pragma once
// The verdict's first line, one rule for every medium (the CLI's text and Markdown, the HTML and PDF report, JSON,
// the slides and the app's banner), so that none can tell another story (DESIGN.md "Degradation and the verdict"):
//   - with several candidates it names the deciding variant ("GO — enable FP8 W8A8 + FP8 KV (calibrated scales)";
//     when none passes the gate, "no variant passes the gate (GO only); the best is FP8 W8A8");
//   - a verdict reached past a blocking comparability problem, or for a candidate without a low-precision layer,
//     carries that caveat ("not comparable: different models, A vs B"), and such a verdict is never shown clean;
//   - a verdict that lacks a kind of evidence says what it rests on ("on offline evals; no domain judge, no
//     production data").
// Pure functions over a Decision; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {

struct VerdictHeadline {
    std::optional<Verdict> verdict;
    std::string title;     // "GO", "MONITOR", "INVESTIGATE"; "NO VERDICT" without one
    std::string basis;     // "on offline evals; no domain judge, no production data"; "" with every kind of evidence
    std::string subject;   // several candidates: what to enable ("enable FP8 W8A8 with quality monitoring"); else ""
    std::string deciding;  // several candidates: the deciding variant's label; else ""
    std::vector<std::string> caveats;  // "not comparable: different models, A vs B", "FP8 has no low-precision layer"
    bool clean() const { return caveats.empty(); }
    // "GO on offline evals; no domain judge, no production data — enable FP8 W8A8 — not comparable: …"
    std::string text() const;
    // text() without the title: what follows the verdict word where the word stands on its own (the banner's pill).
    std::string tail() const;
    // What to do, one sentence: with several candidates the subject ("Enable FP8 W8A8 with quality monitoring."),
    // else the verdict's advice (verdictAdvice); "" without a verdict.
    std::string advice() const;
    // "Reached on offline evals; no domain judge, no production data." and "⚠ Not comparable: …." for each caveat:
    // the sentences a report's banner adds after the advice; empty with every kind of evidence and no caveat.
    std::vector<std::string> notes() const;
};

Json verdictHeadlineToJson(const VerdictHeadline& h);  // {text, deciding_variant, basis, caveats, clean}

VerdictHeadline verdictHeadline(const Decision& decision);

// The caveats of one evals report (the candidate, or the deciding variant, against the baseline): a blocking
// comparability problem compared anyway, a candidate without a low-precision layer.
std::vector<std::string> verdictCaveats(const ComparisonReport& evals);

}  // namespace fp8dash
