#pragma once
// How sure a verdict is, in one sentence beside it (README "Statistics beside each verdict"), the same words in the
// CLI's text and Markdown, the HTML and PDF report and the app's banner. The verdict follows the estimate; the
// sentence says whether the 95% intervals of the evidence that decides it (the tasks, or the domain judge, whose
// verdict is the overall one) stay inside that band, and where they do not: which bands each reaches, whether more
// samples could decide it, and what --cautious (the worst band each interval reaches) gives, or, under the cautious
// policy, what the estimate alone gives. Pure functions; thread-safe.

#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/eval_comparison.h"

namespace fp8dash {

struct VerdictCertainty {
    std::string verdict;    // "INVESTIGATE"; empty without a verdict (then the rest is empty too)
    std::string qualifier;  // what follows the verdict: "by the estimate — inconclusive: gsm8k's 95% interval …"
    bool inconclusive = false;  // an interval of the deciding evidence crosses a band edge
    // "INVESTIGATE by the estimate — inconclusive: …" (no final full stop); empty without a verdict.
    std::string sentence() const { return verdict.empty() ? std::string() : verdict + " " + qualifier; }
};

// The whole comparison: the overall verdict and the evidence that gives it (decide()). Several candidates (variants)
// and a verdict from production alone give no interval: the qualifier says what the verdict rests on instead.
// `cautious` and `thresholds` are the comparison's options (doc.options).
VerdictCertainty verdictCertainty(const Decision& decision, const Thresholds& thresholds, bool cautious);
// The offline evals alone (their own verdict, thresholds and policy).
VerdictCertainty verdictCertainty(const ComparisonReport& evals);

}  // namespace fp8dash
