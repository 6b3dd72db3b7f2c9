// How sure the verdict is (issue 29): the sentence beside the verdict, chosen from the deciding tasks' 95% intervals;
// no "-0.0σ" anywhere a σ is written; the readable metric names; the one worst-first order. Expected bands and
// figures are computed here from the inputs (lm-eval's standard errors: Δ ± 1.96·√(se_b² + se_c²) / |b|).
#include "fp8dash/core/verdict_certainty.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fp8dash/core/demo.h"
#include "fp8dash/core/report_format.h"

namespace fp8dash {
namespace {

struct Task {
    std::string name;
    double baseline, candidate, stderrBaseline, stderrCandidate;
};

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Two lm-eval runs of acc tasks with their standard errors.
ComparisonReport compareTasks(const std::vector<Task>& tasks, bool cautious = false) {
    std::string b = R"({"results": {)", c = R"({"results": {)";
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const Task& t = tasks[i];
        const std::string sep = i ? ", " : "";
        b += sep + "\"" + t.name + R"(": {"acc,none": )" + number(t.baseline) + R"(, "acc_stderr,none": )" +
             number(t.stderrBaseline) + "}";
        c += sep + "\"" + t.name + R"(": {"acc,none": )" + number(t.candidate) + R"(, "acc_stderr,none": )" +
             number(t.stderrCandidate) + "}";
    }
    b += "}}";
    c += "}}";
    auto baseline = parseLmEvalText(b, "baseline.json");
    auto candidate = parseLmEvalText(c, "candidate.json");
    EXPECT_TRUE(baseline && candidate);
    ComparisonOptions o;
    o.cautious = cautious;
    auto r = compareEvals(*baseline, *candidate, o);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return std::move(r).value();
}

// The band of a degradation by the default thresholds (DESIGN.md: < 0.5 go, 0.5–1.5 monitor, > 1.5 investigate).
std::string band(double degradation) {
    degradation = std::max(0.0, degradation);
    return degradation < 0.5 ? "go" : degradation <= 1.5 ? "monitor" : "investigate";
}

struct Interval {
    double degradation, low, high;
};
Interval intervalOf(const Task& t) {
    const double degradation = (t.baseline - t.candidate) / t.baseline * 100;
    const double half = 1.96 * std::sqrt(t.stderrBaseline * t.stderrBaseline + t.stderrCandidate * t.stderrCandidate) /
                        t.baseline * 100;
    return {degradation, degradation - half, degradation + half};
}

TEST(VerdictCertainty, AllDecidedSaysClearAndNamesTheBand) {
    const Task drop{"arc", 0.80, 0.70, 0.001, 0.001};
    const Interval i = intervalOf(drop);
    ASSERT_EQ(band(i.low), band(i.high));  // the case: one band
    const ComparisonReport r = compareTasks({drop, {"hella", 0.60, 0.60, 0.001, 0.001}});
    const VerdictCertainty c = verdictCertainty(r);
    EXPECT_FALSE(c.inconclusive);
    EXPECT_EQ(c.sentence(),
              "INVESTIGATE by the estimate, settled: arc's 95% interval lies inside the " + band(i.high) + " band");
}

// The issue's case, on the bundled demo: INVESTIGATE because of gsm8k, whose interval reaches from go to investigate
// and whose 1,319 samples cannot settle it.
TEST(VerdictCertainty, TheDemosDecidingTaskIsInconclusive) {
    auto doc = loadDemoComparison();
    ASSERT_TRUE(doc.ok());
    auto decision = decide(*doc);
    ASSERT_TRUE(decision.ok());
    const Json demo = Json::parse(demoComparisonText());
    const Json& b = demo["runs"]["baseline"]["results"];
    const Json& c = demo["runs"]["candidate"]["results"];
    const Task gsm8k{"gsm8k", b["results"]["gsm8k"]["exact_match,strict-match"].get<double>(),
                     c["results"]["gsm8k"]["exact_match,strict-match"].get<double>(),
                     b["results"]["gsm8k"]["exact_match_stderr,strict-match"].get<double>(),
                     c["results"]["gsm8k"]["exact_match_stderr,strict-match"].get<double>()};
    const Interval i = intervalOf(gsm8k);
    ASSERT_EQ(band(i.degradation), "investigate");
    const VerdictCertainty sure = verdictCertainty(*decision, doc->options.thresholds, doc->options.cautious);
    EXPECT_TRUE(sure.inconclusive);
    const std::string size = std::to_string(b["n-samples"]["gsm8k"]["original"].get<int>());
    const std::string grouped = size.substr(0, size.size() - 3) + "," + size.substr(size.size() - 3);
    EXPECT_EQ(sure.sentence(), "INVESTIGATE by the estimate — unsettled: gsm8k's 95% interval reaches from " +
                                   band(i.low) + " to " + band(i.high) +
                                   "; more samples cannot settle it (the task has " + grouped +
                                   "); the cautious policy (the worst band reached) gives INVESTIGATE too");
    // The same sentence in the text report, the Markdown and the full (HTML/PDF) report's verdict section.
    const std::string text = decisionToText(*decision, *doc, "demo");
    std::string flat = text;
    for (std::size_t at = flat.find("\n  "); at != std::string::npos; at = flat.find("\n  ")) flat.replace(at, 3, " ");
    EXPECT_NE(flat.find("How sure: " + sure.sentence() + "."), std::string::npos) << text;
    EXPECT_NE(decisionToMarkdown(*decision, *doc, "demo").find("How sure:"), std::string::npos);
}

TEST(VerdictCertainty, SeveralInconclusiveTasksAreNamedWithTheirRanges) {
    const Task a{"a", 0.80, 0.792, 0.01, 0.01}, b{"b", 0.60, 0.594, 0.004, 0.004};
    const Interval ia = intervalOf(a), ib = intervalOf(b);
    ASSERT_EQ(band(ia.degradation), "monitor");
    ASSERT_EQ(band(ib.degradation), "monitor");
    const ComparisonReport r = compareTasks({a, b, {"c", 0.5, 0.5, 0.0001, 0.0001}});
    ASSERT_EQ(r.verdict, Verdict::Monitor);
    const VerdictCertainty c = verdictCertainty(r);
    EXPECT_TRUE(c.inconclusive);
    const std::string worst =
        band(ia.high) == "investigate" || band(ib.high) == "investigate" ? "INVESTIGATE" : "MONITOR";
    EXPECT_EQ(c.sentence(), "MONITOR by the estimate — unsettled: a's 95% interval reaches from " + band(ia.low) +
                                " to " + band(ia.high) + " and b's from " + band(ib.low) + " to " + band(ib.high) +
                                "; the cautious policy (the worst band reached) would make it " + worst);
}

TEST(VerdictCertainty, CautiousSaysWhatTheEstimateAloneGives) {
    const Task a{"a", 0.80, 0.792, 0.01, 0.01};
    const Interval i = intervalOf(a);
    ASSERT_EQ(band(i.degradation), "monitor");
    ASSERT_EQ(band(i.high), "investigate");  // the cautious policy takes it to investigate
    const ComparisonReport r = compareTasks({a}, true);
    ASSERT_EQ(r.verdict, Verdict::Investigate);
    const VerdictCertainty c = verdictCertainty(r);
    EXPECT_EQ(c.sentence(),
              "INVESTIGATE under the cautious policy (the estimate alone gives MONITOR) — unsettled: a's 95% "
              "interval reaches from " +
                  band(i.low) + " to investigate");
}

// "−0.0σ" is never written: a σ that rounds to zero has no sign, in the table cell and in the reason.
TEST(NegativeZero, SigmasThatRoundToZeroHaveNoSign) {
    for (double v : {-0.04, -0.0, 0.04, 0.0}) {
        EXPECT_EQ(formatSigmas(v), "0.0σ") << v;
    }
    EXPECT_EQ(formatSigmas(-0.06), "-0.1σ");
    EXPECT_EQ(formatSigmas(0.06), "+0.1σ");
    EXPECT_EQ(formatSigmas(-1.24), "-1.2σ");
    // The reason of a task whose σ is -0.04 (b 0.8, c 0.7999, se 0.0025 each: -0.0001 / 0.0035 = -0.028).
    const Task t{"t", 0.8, 0.7999, 0.0025, 0.0025};
    const double sigmas = (t.candidate - t.baseline) / std::sqrt(2 * 0.0025 * 0.0025);
    ASSERT_LT(sigmas, 0);
    ASSERT_GT(sigmas, -0.05);
    const ComparisonReport r = compareTasks({t});
    ASSERT_EQ(r.tasks.size(), 1u);
    EXPECT_NE(r.tasks[0].reason.find("; 0.0σ (well inside the noise"), std::string::npos) << r.tasks[0].reason;
    EXPECT_EQ(r.tasks[0].reason.find("-0.0σ"), std::string::npos) << r.tasks[0].reason;
    EXPECT_EQ(reportToText(r).find("-0.0σ"), std::string::npos);
}

TEST(ReadableMetric, KeysReadAsWords) {
    EXPECT_EQ(readableMetric("exact_match", "strict-match"), "exact match (strict)");
    EXPECT_EQ(readableMetric("exact_match", "flexible-extract"), "exact match (flexible)");
    EXPECT_EQ(readableMetric("acc_norm", "none"), "acc (norm)");
    EXPECT_EQ(readableMetric("acc", "none"), "acc");
    EXPECT_EQ(readableMetric("acc", ""), "acc");
    EXPECT_EQ(readableMetric("pass@1", "create_test"), "pass@1 (create test)");
    EXPECT_EQ(readableMetric("word_perplexity", "none"), "word perplexity");
}

// The slides' order, for the table and the chart: the worse verdict, then the larger degradation, file order among
// equals (a stable sort).
TEST(WorseFirst, VerdictThenDegradationThenFileOrder) {
    struct Row {
        Verdict v;
        std::optional<double> d;
        int file;
    };
    std::vector<Row> rows{{Verdict::Go, 0.2, 0},          {Verdict::Investigate, 2.0, 1}, {Verdict::Monitor, 1.0, 2},
                          {Verdict::Go, std::nullopt, 3}, {Verdict::Investigate, 3.0, 4}, {Verdict::Go, 0.2, 5}};
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return worseFirst(a.v, a.d, b.v, b.d); });
    std::vector<int> order;
    for (const Row& r : rows) order.push_back(r.file);
    EXPECT_EQ(order, (std::vector<int>{4, 1, 2, 0, 5, 3}));
}

}  // namespace
}  // namespace fp8dash
