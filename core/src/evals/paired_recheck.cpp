// A stored paired result held to what it can be checked against (issue 26: a comparison file is untrusted; its paired
// section once showed "equivalence shown, p = 1" beside a 16.7 % drop). The decision, in short: what follows from the
// record's own figures is re-derived and replaces what the file says; what contradicts the runs' own figures (or the
// record itself, where no figure can be trusted over another) leaves the record out of the comparison, with the reason.
//
// Re-derived: the McNemar p-value from the discordant counts; Δ from the two means; Δ in points and in % and their
// intervals from Δ's interval; the equivalence check at the report's "go" margin, its standard error from the
// discordant counts (a 0/1 metric: the per-document differences are +1, -1 or 0, so their spread is known) or from
// the width of the stored 90 % interval; the summary line. (The confidence answer is re-derived from the interval by
// deriveStatistics, eval_comparison.cpp.) Not re-derivable without the per-document values: the Wilcoxon p-value and
// the bootstrap interval itself; they are checked for consistency only (the interval holds Δ; for a 0/1 metric its
// width is within a factor of 2 of the normal approximation's).
//
// Checked against the runs: each mean against the run's score of the task (the results file), allowing what the
// documents left out of the test can move a mean of values in [0, 1]; a group's pooled mean against the range of its
// subtasks' scores (a weighted mean of them lies inside it).
#include <algorithm>
#include <cmath>

#include "evals/paired_stages.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/paired_tasks.h"

namespace fp8dash {
namespace {

using detail::scaledCi;
using numfmt::general;

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// The sample standard deviation of n differences of which b01 are +1, b10 are -1 and the rest 0.
double discordantSd(std::uint64_t n, std::uint64_t b01, std::uint64_t b10) {
    if (n < 2) return 0;
    const double nd = static_cast<double>(n), up = static_cast<double>(b01), down = static_cast<double>(b10);
    const double mean = (up - down) / nd;
    const double ss = up * (1 - mean) * (1 - mean) + down * (1 + mean) * (1 + mean) + (nd - up - down) * mean * mean;
    return std::sqrt(ss / (nd - 1));
}

// Every score of a row and its subtasks, nested groups included.
void collectScores(const TaskComparison& row, bool baseline, double& lo, double& hi) {
    const double v = baseline ? row.baseline : row.candidate;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    for (const auto& sub : row.subtasks) collectScores(sub, baseline, lo, hi);
}

}  // namespace

std::string recheckStoredPaired(PairedTaskResult& r, const TaskComparison& row, const Thresholds& thresholds,
                                const std::string& baselineLabel, const std::string& candidateLabel) {
    std::vector<std::string> wrong;     // contradictions: the record is left out
    std::vector<std::string> replaced;  // figures that did not follow from the record's own: re-derived
    PairedOptions o;
    o.thresholds = thresholds;
    o.equivalenceMarginPct = thresholds.goBelow;
    o.baselineLabel = baselineLabel;
    o.candidateLabel = candidateLabel;

    const bool tested = r.test != "none";
    if (!tested) {
        if (r.n != 0) wrong.push_back("it names no test but counts " + std::to_string(r.n) + " pairs");
    } else if (r.n == 0) {
        wrong.push_back("it names a test (" + r.test + ") but counts no pairs");
    } else if (r.test != "mcnemar_exact" && r.test != "wilcoxon_signed_rank") {
        wrong.push_back("its test \"" + r.test + "\" is not one fp8dash runs");
    } else if ((r.test == "mcnemar_exact") != r.binary) {
        wrong.push_back("its test (" + r.test + ") does not fit its metric's values (" +
                        (r.binary ? "0 or 1" : "not 0 or 1") + ")");
    }
    if (!std::isfinite(r.baselineMean) || !std::isfinite(r.candidateMean))
        wrong.push_back("its means are not finite numbers");

    if (wrong.empty() && tested) {
        const double nd = static_cast<double>(r.n);
        // Δ from the means (silently: files before "delta" lack it). A figure that agrees with its derivation is kept
        // as stored, to the last digit, so that a file reads back exactly as it was written.
        if (!close(r.candidateMean - r.baselineMean, r.delta)) r.delta = r.candidateMean - r.baselineMean;
        const double delta = r.delta;
        // A file written before "ci95" holds only the interval in %: take it back to the metric's units.
        if (r.deltaCi.low == 0 && r.deltaCi.high == 0 && r.deltaPctCi && r.baselineMean != 0)
            r.deltaCi = scaledCi(*r.deltaPctCi, std::fabs(r.baselineMean) / 100.0);
        if (!(r.deltaCi.low <= r.deltaCi.high) || !std::isfinite(r.deltaCi.low) || !std::isfinite(r.deltaCi.high))
            wrong.push_back("its 95 % interval of Δ [" + general(r.deltaCi.low) + ", " + general(r.deltaCi.high) +
                            "] is not an interval");
        else if (delta < r.deltaCi.low - 1e-9 || delta > r.deltaCi.high + 1e-9)
            wrong.push_back("its 95 % interval of Δ [" + general(r.deltaCi.low) + ", " + general(r.deltaCi.high) +
                            "] does not hold its Δ " + general(delta));

        double sePct = -1;  // the standard error of Δ in %, for the equivalence check; < 0: not known
        const double toPct = r.baselineMean != 0 ? 100.0 / std::fabs(r.baselineMean) : 0.0;
        if (r.binary) {
            if (r.b01 > r.n || r.b10 > r.n - r.b01) {
                wrong.push_back("its discordant counts (" + std::to_string(r.b01) + ", " + std::to_string(r.b10) +
                                ") exceed its " + std::to_string(r.n) + " pairs");
            } else {
                const double countsDelta = (static_cast<double>(r.b01) - static_cast<double>(r.b10)) / nd;
                if (!close(countsDelta, delta) || r.baselineMean < 0 || r.baselineMean > 1 || r.candidateMean < 0 ||
                    r.candidateMean > 1)
                    wrong.push_back("its discordant counts (" + std::to_string(r.b01) + " right only in " +
                                    candidateLabel + ", " + std::to_string(r.b10) + " only in " + baselineLabel +
                                    " of " + std::to_string(r.n) + ") give Δ " + general(countsDelta) +
                                    ", its means (" + general(r.baselineMean) + " → " + general(r.candidateMean) +
                                    ") give " + general(delta));
                const double p = mcnemarExactPValue(r.b01, r.b10);
                if (!close(p, r.pValue)) replaced.push_back("p-value (" + general(r.pValue) + " in the file)");
                r.pValue = p;
                const double sd = discordantSd(r.n, r.b01, r.b10);
                if (r.n >= 2) sePct = sd / std::sqrt(nd) * toPct;  // as testPairs: sampleSd(diffs) / sqrt(n)
                // The bootstrap interval is not re-drawn (the documents' order is not stored); its width must be
                // near the normal approximation's (within a factor of 2) once there are enough pairs to tell.
                const double normalHalf = 1.96 * sd / std::sqrt(nd);
                const double half = (r.deltaCi.high - r.deltaCi.low) / 2;
                if (r.n >= 10 && wrong.empty() &&
                    (normalHalf == 0 ? half > 1e-9 : (half < normalHalf / 2 || half > normalHalf * 2)))
                    wrong.push_back("its 95 % interval of Δ (± " + general(half) +
                                    ") does not fit its discordant counts (± " + general(normalHalf) +
                                    " by the normal approximation)");
            }
        } else if (r.equivalence && r.deltaPct) {
            const double z = normalQuantile(0.95);
            sePct = (r.equivalence->highPct - r.equivalence->lowPct) / (2 * z);
            if (!std::isfinite(sePct) || sePct < 0) {
                wrong.push_back("its 90 % equivalence interval is not an interval");
                sePct = -1;
            }
        }

        // Δ in points and in %, and their intervals, from Δ and its interval.
        const auto rederive = [&](std::optional<double>& value, std::optional<ConfidenceInterval>& ci, double factor,
                                  const char* what) {
            const double want = delta * factor;
            const ConfidenceInterval wantCi = scaledCi(r.deltaCi, factor);
            if (!value || !close(*value, want)) {
                if (value) replaced.push_back(std::string(what) + " (" + general(*value) + " in the file)");
                value = want;
            }
            if (!ci || !close(ci->low, wantCi.low) || !close(ci->high, wantCi.high)) {
                if (ci)
                    replaced.push_back(std::string("the interval of ") + what + " ([" + general(ci->low) + ", " +
                                       general(ci->high) + "] in the file)");
                ci = wantCi;
            }
        };
        if (r.deltaPoints || r.binary) rederive(r.deltaPoints, r.deltaPointsCi, 100.0, "Δ in points");
        if (r.baselineMean != 0) {
            rederive(r.deltaPct, r.deltaPctCi, toPct, "Δ in %");
            if (sePct >= 0) {
                const EquivalenceResult want = equivalenceCheck(*r.deltaPct, sePct, o.equivalenceMarginPct);
                const bool claimed = r.equivalence && r.equivalence->equivalent;
                if (claimed != want.equivalent)
                    replaced.push_back(std::string("equivalence check (") + (claimed ? "shown" : "not shown") +
                                       " in the file)");
                if (!r.equivalence || claimed != want.equivalent || !close(r.equivalence->lowPct, want.lowPct) ||
                    !close(r.equivalence->highPct, want.highPct) || r.equivalence->marginPct != want.marginPct)
                    r.equivalence = want;
            } else {
                r.equivalence.reset();
            }
        } else {
            r.deltaPct.reset();
            r.deltaPctCi.reset();
            r.equivalence.reset();
            r.confidence.reset();
        }
    }

    // Against the runs' own figures. A mean over the tested pairs may differ from the run's score by what the
    // documents left out of the test move it: at most k / (n + k) for values in [0, 1] (the other way, nothing).
    if (wrong.empty() && tested && row.byLength.empty()) {
        const bool unitValues = r.binary || (r.deltaPoints.has_value() && r.baselineMean >= 0 && r.baselineMean <= 1 &&
                                             r.candidateMean >= 0 && r.candidateMean <= 1);
        const std::uint64_t common = r.hashMismatches + r.missingValues;
        const auto check = [&](bool baseline) {
            const double mean = baseline ? r.baselineMean : r.candidateMean;
            const std::uint64_t k = common + (baseline ? r.onlyInBaseline : r.onlyInCandidate);
            double lo = baseline ? row.baseline : row.candidate, hi = lo;
            if (!row.subtasks.empty()) collectScores(row, baseline, lo, hi);  // a group: pooled over its subtasks
            double slack = 1e-6 * std::max(1.0, std::fabs(lo) + std::fabs(hi));
            if (k > 0) {
                if (!unitValues) return;  // values of unknown range: what k documents move is unbounded
                slack += static_cast<double>(k) / (static_cast<double>(r.n) + static_cast<double>(k));
            }
            if (mean >= lo - slack && mean <= hi + slack) return;
            const std::string label = baseline ? baselineLabel : candidateLabel;
            const std::string runs = lo == hi ? general(lo) : "between " + general(lo) + " and " + general(hi);
            wrong.push_back(
                "its " + label + " mean " + general(mean) + " over " + std::to_string(r.n) +
                " pairs does not match the run's " + row.metric + " " + runs +
                (k > 0 ? " (by more than its " + std::to_string(k) + " document(s) left out can explain)" : ""));
        };
        check(true);
        check(false);
    }

    if (!wrong.empty()) {
        std::string out;
        for (const auto& w : wrong) out += (out.empty() ? "" : "; ") + w;
        return out;
    }
    if (!replaced.empty()) {
        std::string s;
        for (const auto& w : replaced) s += (s.empty() ? "" : ", ") + w;
        r.warnings.push_back(
            "re-derived from its own counts and means, as the comparison file's figures did not follow "
            "from them: " +
            s);
    }
    r.summary = detail::pairedSummary(r, o);
    return "";
}

}  // namespace fp8dash
