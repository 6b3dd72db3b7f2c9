// One sign convention, statements chosen from the numbers, samples needed within the task's size, recovery, and the
// presentation of the statistics (issue 13, findings 1, 2, 3 and 6). The real-file cases read
// tests/data/lm-eval-signs/ (the real qwen2.5-7b results file with a few values replaced; SOURCES.md there says
// which) and the shared lm-eval fixtures; every expected figure is computed here from the files' own numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_format.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

fs::path signsFixture(const std::string& name) {
    return test::testData() / "lm-eval-signs" / name;
}

LmEvalResults load(const fs::path& p) {
    auto r = readLmEvalPath(p);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

Json rawJson(const fs::path& p) {
    std::ifstream in(p);
    return Json::parse(in);
}

ComparisonReport signCompare(const LmEvalResults& b, const LmEvalResults& c, ComparisonOptions o = {}) {
    auto r = compareEvals(b, c, o);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(r).value();
}

const TaskComparison& row(const ComparisonReport& r, const std::string& task) {
    for (const auto& t : r.tasks)
        if (t.task == task) return t;
    throw std::runtime_error("no row " + task);
}

const Json& jsonRow(const Json& j, const std::string& task) {
    for (const auto& t : j["tasks"])
        if (t["task"] == task) return t;
    throw std::runtime_error("no JSON row " + task);
}

// The file's value and stderr of a metric key, read from the raw JSON (not through the reader).
double value(const fs::path& p, const std::string& task, const std::string& key) {
    return rawJson(p)["results"][task][key].get<double>();
}
double stderrOf(const fs::path& p, const std::string& task, const std::string& key) {
    const auto comma = key.find(',');
    return rawJson(p)["results"][task][key.substr(0, comma) + "_stderr" + key.substr(comma)].get<double>();
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// Expected figures of one unpaired row, from the two files' numbers: Δ, its 95 % and 90 % intervals.
struct Expected {
    double delta, half95, half90;
};
Expected signExpected(const fs::path& bp, const fs::path& cp, const std::string& task, const std::string& key) {
    const double b = value(bp, task, key), c = value(cp, task, key);
    const double seB = stderrOf(bp, task, key), seC = stderrOf(cp, task, key);
    const double sePct = std::sqrt(seB * seB + seC * seC) / std::fabs(b) * 100;
    return {(c - b) / std::fabs(b) * 100, 1.96 * sePct, 1.6448536269514722 * sePct};
}

// ---- Finding 1: a negative baseline flips nothing

TEST(SignConvention, NegativeBaselineImprovementIsAnImprovementEverywhere) {
    const fs::path bp = signsFixture("qwen2.5-7b_signs_baseline.json"),
                   cp = signsFixture("qwen2.5-7b_signs_candidate.json");
    const auto report = signCompare(load(bp), load(cp));
    const auto& cola = row(report, "cola");
    const Expected e = signExpected(bp, cp, "cola", "mcc,none");
    EXPECT_NEAR(e.delta, (0.2186 + 0.0914) / 0.0914 * 100, 1e-9);  // +339 %, an improvement
    ASSERT_TRUE(cola.deltaPct && cola.degradationPct);
    EXPECT_NEAR(*cola.deltaPct, e.delta, 1e-9);
    EXPECT_EQ(*cola.degradationPct, 0.0);
    EXPECT_EQ(cola.verdict, Verdict::Go);
    ASSERT_TRUE(cola.confidence);
    EXPECT_EQ(cola.confidence->confidence, Confidence::Clear);
    EXPECT_EQ(cola.confidence->change, ChangeFinding::SignificantImprovement);
    EXPECT_TRUE(contains(cola.confidence->explanation, "a significant improvement"));
    EXPECT_TRUE(contains(cola.confidence->explanation, "inside the go band"));
    EXPECT_FALSE(contains(cola.confidence->explanation, "investigate"));

    const Json j = jsonRow(reportToJson(report), "cola");
    EXPECT_NEAR(j["delta_pct"].get<double>(), e.delta, 1e-9);
    // Δ's interval on Δ's scale, holding Δ; the degradation's holds the degradation (0).
    EXPECT_NEAR(j["delta_ci95_pct"][0].get<double>(), e.delta - e.half95, 1e-6);
    EXPECT_NEAR(j["delta_ci95_pct"][1].get<double>(), e.delta + e.half95, 1e-6);
    EXPECT_GT(j["delta_ci95_pct"][0].get<double>(), 0);
    EXPECT_EQ(j["degradation_ci95_pct"], Json::array({0.0, 0.0}));
    EXPECT_NEAR(j["equivalence_ci90_pct"][0].get<double>(), e.delta - e.half90, 1e-6);
    EXPECT_NEAR(j["equivalence_ci90_pct"][1].get<double>(), e.delta + e.half90, 1e-6);
    EXPECT_EQ(j["change"], "significant_improvement");
    EXPECT_EQ(j["equivalent"], false);
    EXPECT_TRUE(contains(j["equivalence_statement"].get<std::string>(), "a significant improvement"));
    EXPECT_TRUE(j["recovery_pct"].is_null());  // a negative baseline has no "share kept"
}

TEST(SignConvention, NegativeBaselineDropIsADropEvenUnderTheCautiousPolicy) {
    const fs::path bp = signsFixture("qwen2.5-7b_signs_baseline.json"),
                   cp = signsFixture("qwen2.5-7b_signs_reverse_candidate.json");
    ComparisonOptions cautious;
    cautious.cautious = true;
    for (const bool isCautious : {false, true}) {
        const auto report = signCompare(load(bp), load(cp), isCautious ? cautious : ComparisonOptions{});
        const auto& cola = row(report, "cola");
        const Expected e = signExpected(bp, cp, "cola", "mcc,none");
        EXPECT_NEAR(e.delta, (-0.2 + 0.0914) / 0.0914 * 100, 1e-9);  // -118.8 %
        EXPECT_NEAR(*cola.deltaPct, e.delta, 1e-9);
        EXPECT_NEAR(*cola.degradationPct, -e.delta, 1e-9);
        EXPECT_EQ(cola.verdict, Verdict::Investigate);
        EXPECT_EQ(cola.confidence->change, ChangeFinding::SignificantDrop);
        EXPECT_TRUE(contains(cola.confidence->explanation, "inside the investigate band"));
        const Json j = jsonRow(reportToJson(report), "cola");
        EXPECT_NEAR(j["degradation_ci95_pct"][0].get<double>(), -e.delta - e.half95, 1e-6);
        EXPECT_NEAR(j["degradation_ci95_pct"][1].get<double>(), -e.delta + e.half95, 1e-6);
        EXPECT_NEAR(j["delta_ci95_pct"][1].get<double>(), e.delta + e.half95, 1e-6);
        EXPECT_TRUE(contains(j["equivalence_statement"].get<std::string>(), "not shown: a significant drop"));
        EXPECT_EQ(report.verdict, Verdict::Investigate);
    }
}

// Seeded random signs and magnitudes: every figure follows the convention, every interval holds its own estimate,
// nothing is NaN or infinite, and the sentences agree with the intervals.
TEST(SignConvention, PropertiesOverRandomSignsAndMagnitudes) {
    std::mt19937_64 rng(20261201);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const Thresholds th;
    for (int i = 0; i < 600; ++i) {
        const double sign = unit(rng) < 0.4 ? -1.0 : 1.0;
        double b = sign * std::pow(10.0, -3 + 5 * unit(rng));
        if (i % 50 == 0) b = 0;  // the zero baseline: no relative figure, never Inf or NaN
        const double c = unit(rng) < 0.1 ? b : b + (unit(rng) - 0.5) * 2 * std::fabs(b == 0 ? 1 : b) * unit(rng);
        const double se = unit(rng) < 0.1 ? 0.0 : std::fabs(b == 0 ? 1 : b) * 0.05 * unit(rng);
        const bool hib = unit(rng) < 0.7;
        const int n = 50 + static_cast<int>(unit(rng) * 5000);
        char text[1024];
        auto side = [&](double v) {
            std::snprintf(text, sizeof text,
                          R"({"results": {"t": {"score,none": %.17g, "score_stderr,none": %.17g}},)"
                          R"( "higher_is_better": {"t": {"score": %s}}, "n-samples": {"t": {"original": %d,)"
                          R"( "effective": %d}}})",
                          v, se, hib ? "true" : "false", n, n);
            auto r = parseLmEvalText(text, "random.json");
            if (!r) throw std::runtime_error(r.error().message);
            return std::move(r).value();
        };
        ComparisonOptions options;
        options.allowIncomparable = c == b;  // an unchanged score is a case too; identical runs are refused otherwise
        const auto report = signCompare(side(b), side(c), options);
        const auto& t = report.tasks.at(0);
        SCOPED_TRACE("case " + std::to_string(i) + ": b=" + std::to_string(b) + " c=" + std::to_string(c) +
                     " se=" + std::to_string(se) + (hib ? " higher" : " lower"));
        const Json j = reportToJson(report)["tasks"][0];
        EXPECT_FALSE(contains(j.dump(), "nan") || contains(j.dump(), "inf")) << j.dump();
        if (b == 0) {
            EXPECT_FALSE(t.deltaPct || t.degradationPct || t.recoveryPct || t.confidence);
            const bool worse = hib ? c < b : c > b;
            EXPECT_EQ(t.verdict, worse ? Verdict::Investigate : Verdict::Go);
            EXPECT_TRUE(contains(t.reason, "absolute difference"));
            continue;
        }
        const double delta = (c - b) / std::fabs(b) * 100;
        const double degradation = std::max(0.0, hib ? -delta : delta);
        ASSERT_TRUE(t.deltaPct && t.degradationPct);
        EXPECT_NEAR(*t.deltaPct, delta, 1e-9 * std::max(1.0, std::fabs(delta)));
        EXPECT_TRUE((c > b && *t.deltaPct > 0) || (c < b && *t.deltaPct < 0) || (c == b && *t.deltaPct == 0));
        EXPECT_NEAR(*t.degradationPct, degradation, 1e-9 * std::max(1.0, degradation));
        const Verdict band = degradation < th.goBelow - 1e-9             ? Verdict::Go
                             : degradation <= th.investigateAbove + 1e-9 ? Verdict::Monitor
                                                                         : Verdict::Investigate;
        EXPECT_EQ(t.pointVerdict, band);
        if (b > 0 && (hib ? c >= 0 : c > 0)) {
            ASSERT_TRUE(t.recoveryPct);
            EXPECT_NEAR(*t.recoveryPct, hib ? c / b * 100 : b / c * 100, 1e-9 * std::max(1.0, *t.recoveryPct));
        } else {
            EXPECT_FALSE(t.recoveryPct);
        }
        if (se == 0) continue;
        ASSERT_TRUE(t.confidence && t.equivalence);
        const double slack = 1e-9 * std::max(1.0, std::fabs(delta));
        EXPECT_LE(j["delta_ci95_pct"][0].get<double>(), delta + slack);
        EXPECT_GE(j["delta_ci95_pct"][1].get<double>(), delta - slack);
        EXPECT_LE(j["degradation_ci95_pct"][0].get<double>(), degradation + slack);
        EXPECT_GE(j["degradation_ci95_pct"][1].get<double>(), degradation - slack);
        EXPECT_LE(t.equivalence->lowPct, delta + slack);
        EXPECT_GE(t.equivalence->highPct, delta - slack);
        // The finding from the loss interval, as the test reads it.
        const double lossLow = hib ? -j["delta_ci95_pct"][1].get<double>() : j["delta_ci95_pct"][0].get<double>();
        const double lossHigh = hib ? -j["delta_ci95_pct"][0].get<double>() : j["delta_ci95_pct"][1].get<double>();
        const std::string change = lossLow > 0    ? "significant_drop"
                                   : lossHigh < 0 ? "significant_improvement"
                                                  : "no_significant_change";
        EXPECT_EQ(j["change"], change);
        if (change == "significant_drop") {
            EXPECT_FALSE(contains(j["equivalence_statement"].get<std::string>(), "no significant drop"));
        }
        // Samples needed: never beyond the task's size.
        if (t.confidence->samplesNeeded) {
            EXPECT_LE(*t.confidence->samplesNeeded, static_cast<std::uint64_t>(n));
        }
        if (t.confidence->confidence == Confidence::Clear) {
            EXPECT_EQ(j["decidable"], true);
        }
        // The cautious policy takes the worst band the interval reaches.
        ComparisonOptions o = options;
        o.cautious = true;
        const auto cautious = signCompare(side(b), side(c), o).tasks.at(0);
        const double worstLoss = std::max(0.0, lossHigh);
        const Verdict reached = worstLoss < th.goBelow - 1e-9             ? Verdict::Go
                                : worstLoss <= th.investigateAbove + 1e-9 ? Verdict::Monitor
                                                                          : Verdict::Investigate;
        EXPECT_EQ(cautious.verdict, worst(band, reached));
    }
}

// ---- Statements chosen from the numbers: every combination

TEST(Statements, EquivalenceSentenceForEveryInterval) {
    struct Case {
        double low, high;  // the 90 % interval of Δ
        bool hib;
        const char* starts;
    };
    const Case cases[] = {
        {-0.3, 0.2, true, "equivalence shown"},
        {-0.3, 0.2, false, "equivalence shown"},
        {-10.3, -5.9, true, "equivalence not shown: a significant drop"},
        {5.9, 10.3, false, "equivalence not shown: a significant drop"},
        {5.9, 10.3, true, "equivalence not shown: a significant improvement"},
        {-10.3, -5.9, false, "equivalence not shown: a significant improvement"},
        {-1.2, 0.8, true, "equivalence not shown: no significant change"},
        {-1.2, 0.8, false, "equivalence not shown: no significant change"},
        {0.1, 0.9, true, "equivalence not shown: a significant improvement"},
        {-0.9, -0.1, true, "equivalence not shown: a significant drop"},
    };
    for (const auto& c : cases) {
        EquivalenceResult e;
        e.lowPct = c.low;
        e.highPct = c.high;
        e.equivalent = c.low > -e.marginPct && c.high < e.marginPct;
        const std::string s = equivalenceStatement(e, c.hib);
        SCOPED_TRACE(s);
        EXPECT_EQ(s.rfind(c.starts, 0), 0u);
        // "only no significant drop" exactly where the interval holds 0 and reaches beyond the margin.
        EXPECT_EQ(contains(s, "only \"no significant drop\""), !e.equivalent && c.low <= 0 && c.high >= 0);
    }
}

TEST(Statements, ConfidenceSentenceForEveryBandAndChange) {
    struct Case {
        double point, low, high;  // the loss interval
        std::optional<std::uint64_t> taskSize;
        Confidence confidence;
        ChangeFinding change;
        const char* words;  // in the explanation
        std::optional<bool> decidable;
    };
    using C = Confidence;
    using F = ChangeFinding;
    const Case cases[] = {
        {-3, -4, -2, std::nullopt, C::Clear, F::SignificantImprovement, "inside the go band", true},
        {0.2, 0.1, 0.3, std::nullopt, C::Clear, F::SignificantDrop, "inside the go band", true},
        {1.0, 0.6, 1.4, std::nullopt, C::Clear, F::SignificantDrop, "inside the monitor band", true},
        {5, 3, 7, std::nullopt, C::Clear, F::SignificantDrop, "inside the investigate band", true},
        {0.1, -0.2, 0.4, std::nullopt, C::Clear, F::NoSignificantChange, "inside the go band", true},
        {0.3, -0.2, 0.8, 100000, C::Inconclusive, F::NoSignificantChange, "would decide it", true},
        {0.49, -0.5, 1.48, 1000, C::Inconclusive, F::NoSignificantChange, "more samples than the task has (1,000)",
         false},
        {1.2, 0.6, 1.8, 100000, C::Inconclusive, F::SignificantDrop, "would decide it", true},
        {0.5, 0.25, 0.75, 100000, C::Inconclusive, F::SignificantDrop, "on the edge itself", false},
    };
    for (const auto& c : cases) {
        ConfidenceContext ctx;
        ctx.taskSize = c.taskSize;
        const ConfidenceAnswer a = confidenceAnswer(c.point, c.low, c.high, 100, 0.5, 1.5, ctx);
        SCOPED_TRACE(a.explanation);
        EXPECT_EQ(a.confidence, c.confidence);
        EXPECT_EQ(a.change, c.change);
        EXPECT_TRUE(contains(a.explanation, changeFindingWords(c.change)));
        EXPECT_TRUE(contains(a.explanation, c.words));
        EXPECT_EQ(a.decidable, c.decidable);
        if (a.samplesNeeded) {
            // Independently: n (h / d)^2 for the nearer crossed edge, within the task's size.
            ASSERT_TRUE(c.taskSize);
            EXPECT_LE(*a.samplesNeeded, *c.taskSize);
        }
    }
}

// ---- Findings 2 and 3 on real files

TEST(Statements, RealDropsAndImprovementsAreNamedSo) {
    const fs::path bp = signsFixture("qwen2.5-7b_signs_baseline.json"),
                   cp = signsFixture("qwen2.5-7b_signs_candidate.json");
    const auto report = signCompare(load(bp), load(cp));
    const Expected lambada = signExpected(bp, cp, "lambada_openai", "acc,none");
    ASSERT_LT(lambada.delta + lambada.half90, 0);  // the file's own numbers: a drop at 90 %
    const auto& l = row(report, "lambada_openai");
    EXPECT_EQ(l.confidence->change, ChangeFinding::SignificantDrop);
    const std::string text = reportToText(report);
    EXPECT_TRUE(contains(text, "lambada_openai: Δ -8.200%"));
    const std::string stats = text.substr(text.find("\nStatistics\n"));
    const std::string lambadaStats = stats.substr(stats.find("lambada_openai:"), 400);
    EXPECT_TRUE(contains(lambadaStats, "a significant drop"));
    EXPECT_FALSE(contains(lambadaStats.substr(0, lambadaStats.find("\n  - ")), "no significant drop"));
    const std::string arcStats = stats.substr(stats.find("arc_easy:"), 400);
    EXPECT_TRUE(contains(arcStats.substr(0, arcStats.find("\n  - ")), "a significant improvement"));
}

TEST(SamplesNeeded, NeverBeyondTheTasksSize) {
    const fs::path bp = signsFixture("qwen2.5-7b_signs_baseline.json"),
                   cp = signsFixture("qwen2.5-7b_signs_candidate.json");
    const auto report = signCompare(load(bp), load(cp));
    const auto& h = row(report, "hellaswag");
    // The extrapolated count, computed here: n (h / d)^2 against the go edge; far beyond the task's 10,042.
    const Expected e = signExpected(bp, cp, "hellaswag", "acc_norm,none");
    const double d = 0.5 + e.delta;  // the loss is -Δ; its distance to the 0.5 % edge
    const double extrapolated = 10042 * std::pow(e.half95 / d, 2);
    ASSERT_GT(extrapolated, 10042 * 100.0);
    ASSERT_TRUE(h.confidence);
    EXPECT_EQ(h.confidence->confidence, Confidence::Inconclusive);
    EXPECT_FALSE(h.confidence->samplesNeeded);
    EXPECT_EQ(h.confidence->decidable, false);
    const Json j = jsonRow(reportToJson(report), "hellaswag");
    EXPECT_TRUE(j["samples_needed"].is_null());
    EXPECT_EQ(j["decidable"], false);
    EXPECT_TRUE(contains(j["confidence_explanation"].get<std::string>(),
                         "more samples than the task has (10,042): too close to the band edge to decide"));
    EXPECT_TRUE(contains(reportToText(report), "more samples than the task has (10,042)"));
}

TEST(SamplesNeeded, TheDemosMmluNoLongerAsksForBillions) {
    auto doc = loadDemoComparison();
    ASSERT_TRUE(doc) << doc.error().message;
    auto decision = decide(*doc);
    ASSERT_TRUE(decision && decision->evals);
    const auto& mmlu = row(*decision->evals, "mmlu");
    ASSERT_TRUE(mmlu.confidence);
    EXPECT_FALSE(mmlu.confidence->samplesNeeded);
    EXPECT_EQ(mmlu.confidence->decidable, false);
    EXPECT_EQ(mmlu.confidence->taskSize, std::optional<std::uint64_t>(14042));
    EXPECT_EQ(confidenceSummary(mmlu), "unsettled (too close to settle)");
    for (const auto& t : decision->evals->tasks) {
        if (t.confidence && t.confidence->samplesNeeded && t.taskSize) {
            EXPECT_LE(*t.confidence->samplesNeeded, *t.taskSize) << t.task;
        }
    }
}

// ---- Recovery

TEST(Recovery, PerTaskAndAverageFromTheFilesNumbers) {
    const fs::path bp = signsFixture("qwen2.5-7b_signs_baseline.json"),
                   cp = signsFixture("qwen2.5-7b_signs_candidate.json");
    const auto report = signCompare(load(bp), load(cp));
    EXPECT_NEAR(*row(report, "lambada_openai").recoveryPct,
                value(cp, "lambada_openai", "acc,none") / value(bp, "lambada_openai", "acc,none") * 100, 1e-9);
    EXPECT_NEAR(*row(report, "lambada_openai").recoveryPct, 91.8, 1e-9);
    EXPECT_NEAR(*row(report, "arc_easy").recoveryPct, 105.0, 1e-9);
    // The average: mean candidate / mean baseline over the compared higher-is-better tasks, from the raw files.
    const Json b = rawJson(bp), c = rawJson(cp);
    double sb = 0, sc = 0;
    for (const auto& t : report.tasks) {
        ASSERT_TRUE(t.higherIsBetter);
        sb += b["results"][t.task][t.metric].get<double>();
        sc += c["results"][t.task][t.metric].get<double>();
    }
    ASSERT_TRUE(report.averageRecoveryPct);
    EXPECT_NEAR(*report.averageRecoveryPct, sc / sb * 100, 1e-9);
    const Json j = reportToJson(report);
    EXPECT_NEAR(j["average_recovery_pct"].get<double>(), sc / sb * 100, 1e-9);
    EXPECT_TRUE(contains(reportToText(report), "Average recovery: "));
    EXPECT_TRUE(contains(reportToMarkdown(report), "Average recovery: **"));
}

TEST(Recovery, TheDemosEvalsSlideShowsTheAverage) {
    auto doc = loadDemoComparison();
    ASSERT_TRUE(doc) << doc.error().message;
    auto decision = decide(*doc);
    ASSERT_TRUE(decision && decision->evals);
    // mean(FP8) / mean(BF16) over the demo's six tasks (all higher-is-better), from the file's raw results.
    const Json raw = Json::parse(std::string(demoComparisonText()));
    double sb = 0, sc = 0;
    for (const auto& t : decision->evals->tasks) {
        sb += raw["runs"]["baseline"]["results"]["results"][t.task][t.metric].get<double>();
        sc += raw["runs"]["candidate"]["results"]["results"][t.task][t.metric].get<double>();
    }
    const PresentationDeck deck = buildPresentationDeck(*doc, *decision);
    const SlideFigure* figure = nullptr;
    for (const auto& slide : deck.slides)
        for (const auto& f : slide.figures)
            if (f.label == "Average recovery") figure = &f;
    ASSERT_NE(figure, nullptr);
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.2f%%", sc / sb * 100);
    EXPECT_EQ(figure->value, expected);
}

// ---- Finding 6: presentation

TEST(Presentation, MarkdownHasATitleADegradationColumnAndTheMethodOnce) {
    FP8DASH_REQUIRE_FIXTURE(base, "llama3-8b-base_mmlu_v0.4.2.json");
    FP8DASH_REQUIRE_FIXTURE(instruct, "llama3-8b-instruct_mmlu_v0.4.2.json");
    ComparisonOptions anyway;  // two models (base and instruct): compared anyway for the rendering
    anyway.allowIncomparable = true;
    const auto report = signCompare(load(base), load(instruct), anyway);
    Decision d;
    d.evals = report;
    ComparisonDocument doc;
    const std::string heading = "BF16 = " + base.string() + "\nFP8 = " + instruct.string();
    const std::string md = decisionToMarkdown(d, doc, heading);
    const std::string first = md.substr(0, md.find('\n'));
    EXPECT_EQ(first.rfind("# BF16 vs FP8", 0), 0u) << first;
    EXPECT_FALSE(contains(first, base.string()) || contains(first, instruct.string()))
        << "the title is not a file path: " << first;
    // The file names are escaped as CommonMark text: each '_' of the fixture names (their only Markdown punctuation)
    // with a backslash.
    std::string escapedBase;
    for (char ch : base.string()) escapedBase += ch == '_' ? std::string("\\_") : std::string(1, ch);
    EXPECT_TRUE(contains(md, "- BF16 = " + escapedBase)) << md;
    EXPECT_TRUE(contains(md, "| Degradation | Recovery |"));
    std::size_t methods = 0;
    for (std::size_t at = md.find("Method:"); at != std::string::npos; at = md.find("Method:", at + 1)) ++methods;
    EXPECT_EQ(methods, 1u);
    // One line per task with a confidence answer (no paired warnings here).
    std::size_t withConfidence = 0;
    for (const auto& t : report.tasks) withConfidence += t.confidence ? 1 : 0;
    const std::string stats = md.substr(md.find("### Statistics"));
    const std::string statsBody = stats.substr(0, stats.find("\n### ", 5));
    std::size_t bullets = 0;
    std::istringstream in(statsBody);
    for (std::string line; std::getline(in, line);) bullets += line.rfind("- ", 0) == 0 ? 1 : 0;
    EXPECT_EQ(bullets, withConfidence);
    EXPECT_FALSE(contains(statsBody, "From lm-eval's standard errors"));  // no boilerplate per task
    // Subtask rows: a verdict in parentheses, and the legend says they do not count.
    ASSERT_FALSE(report.tasks.at(0).subtasks.empty());
    std::istringstream rows(md);
    std::size_t subtaskRows = 0;
    for (std::string line; std::getline(rows, line);) {
        if (line.rfind("| ↳", 0) != 0) continue;
        ++subtaskRows;
        EXPECT_FALSE(contains(line, "| INVESTIGATE |") || contains(line, "| MONITOR |") || contains(line, "| GO |"))
            << line;
        EXPECT_TRUE(contains(line, "| (go) |") || contains(line, "| (monitor) |") ||
                    contains(line, "| (investigate) |"))
            << line;
    }
    EXPECT_GT(subtaskRows, 50u);
    EXPECT_TRUE(contains(md, "not counted toward the verdict"));
}

TEST(Presentation, TextWrapsEveryLineOutsideTheTable) {
    ComparisonOptions cautious;
    cautious.cautious = true;  // many inconclusive tasks listed in one reason: the longest reason line
    const auto report = signCompare(load(signsFixture("qwen2.5-7b_signs_baseline.json")),
                                    load(signsFixture("qwen2.5-7b_signs_candidate.json")), cautious);
    std::size_t longest = 0;
    for (const auto& r : report.reasons) longest = std::max(longest, r.size());
    ASSERT_GT(longest, 200u);  // the real reasons are long enough to need wrapping
    const std::string text = reportToText(report);
    std::istringstream in(text);
    bool inTable = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Tasks (", 0) == 0)
            inTable = true;
        else if (inTable && line.empty())
            inTable = false;
        if (inTable) continue;
        std::size_t columns = 0;
        for (char ch : line) columns += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
        EXPECT_LE(columns, 110u) << line;
    }
}

}  // namespace
}  // namespace fp8dash
