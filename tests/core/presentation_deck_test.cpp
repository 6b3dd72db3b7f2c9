// The presentation deck (core, no widgets): which steps a document gets, which notes go where, the facts and the
// talking points of each step against figures computed here, and documents that hold little or nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/presentation_deck.h"

namespace fp8dash {
namespace {

using S = PresentationStep;

std::string v1File(const std::string& name) {
    return std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/" + name;
}

ComparisonDocument load(const std::string& name) {
    auto doc = loadComparisonFile(v1File(name));
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message);
    return doc.ok() ? std::move(doc).value() : ComparisonDocument{};
}

PresentationDeck deckOf(const ComparisonDocument& doc, const LocalDeviceStatus* local = nullptr) {
    auto decision = decide(doc);
    EXPECT_TRUE(decision.ok()) << (decision.ok() ? "" : decision.error().message);
    return buildPresentationDeck(doc, decision.ok() ? decision.value() : Decision{}, local);
}

std::vector<S> steps(const PresentationDeck& deck) {
    std::vector<S> out;
    for (const auto& s : deck.slides) out.push_back(s.step);
    return out;
}

const SlideFigure* figure(const PresentationSlide& slide, const std::string& label) {
    for (const auto& f : slide.figures)
        if (f.label == label) return &f;
    return nullptr;
}

Note note(const std::string& id, const std::string& text, const std::string& task = "") {
    return Note{id, text, "Ana", "2026-11-30T09:00:00Z", "", task};
}

TEST(PresentationDeck, StepNamesAndGroupedDigits) {
    EXPECT_EQ(presentationStepName(S::Evals), "Offline evals");
    EXPECT_EQ(presentationStepName(S::Capacity), "KV-cache capacity");
    EXPECT_EQ(groupedDigits(0), "0");
    EXPECT_EQ(groupedDigits(999), "999");
    EXPECT_EQ(groupedDigits(1000), "1,000");
    EXPECT_EQ(groupedDigits(1234567), "1,234,567");
}

TEST(PresentationDeck, EvalsSlideIsWorstFirstWithTheWorstCalledOut) {
    const ComparisonDocument doc = load("demo-llama3-8b-instruct-fp8.fp8cmp");
    const PresentationDeck deck = deckOf(doc);
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Evals, S::Verdict}));
    EXPECT_EQ(deck.model, "Meta-Llama-3-8B-Instruct");
    EXPECT_EQ(deck.date, doc.created.substr(0, 10));
    EXPECT_EQ(deck.slides[0].title, "Should Meta-Llama-3-8B-Instruct run in FP8?");
    ASSERT_EQ(deck.slides[0].points.size(), 2u);  // the two runs
    EXPECT_EQ(deck.slides[0].points[0].rfind("BF16: meta-llama/Meta-Llama-3-8B-Instruct", 0), 0u);

    const PresentationSlide& evals = deck.slides[1];
    ASSERT_EQ(evals.tasks.size(), 6u);
    // gsm8k: (0.7399 - 0.7596) / 0.7596 (the demo's model-card figures), the one investigate.
    EXPECT_EQ(evals.tasks[0].task, "gsm8k");
    EXPECT_NEAR(*evals.tasks[0].deltaPct, (0.7399 - 0.7596) / 0.7596 * 100, 1e-9);
    EXPECT_TRUE(evals.tasks[0].fp8Sensitive);
    EXPECT_EQ(evals.tasks[1].task, "arc_challenge");  // the monitor next
    for (std::size_t i = 1; i < evals.tasks.size(); ++i) {
        EXPECT_GE(evals.tasks[i - 1].verdict, evals.tasks[i].verdict);
        if (evals.tasks[i - 1].verdict == evals.tasks[i].verdict) {
            EXPECT_GE(evals.tasks[i - 1].degradationPct.value_or(0), evals.tasks[i].degradationPct.value_or(0));
        }
    }
    EXPECT_EQ(evals.title, "gsm8k drops 2.59%, the most of 6 tasks");
    ASSERT_NE(figure(evals, "Worst task"), nullptr);
    EXPECT_EQ(figure(evals, "Worst task")->value, "-2.59%");
    EXPECT_EQ(figure(evals, "Worst task")->level, Verdict::Investigate);
    EXPECT_EQ(figure(evals, "Within go")->value, "4 of 6");
    // The talking points say the counts and why the worst task matters.
    EXPECT_NE(evals.talkingPoints.find("4 go, 1 monitor, 1 investigate"), std::string::npos) << evals.talkingPoints;
    EXPECT_NE(evals.talkingPoints.find("gsm8k at -2.59%"), std::string::npos);
    EXPECT_NE(evals.talkingPoints.find("FP8-sensitive"), std::string::npos);
}

TEST(PresentationDeck, TaskNotesGoWithTheEvalsAndTheRestWithTheCover) {
    ComparisonDocument doc = load("demo-llama3-8b-instruct-fp8.fp8cmp");
    doc.notes = {note("n1", "general one"), note("n2", "about gsm8k", "gsm8k"), note("n3", "general two"),
                 note("n4", "about a task not compared", "humaneval")};
    PresentationDeck deck = deckOf(doc);
    const auto texts = [](const PresentationSlide& s) {
        std::vector<std::string> out;
        for (const Note& n : s.notes) out.push_back(n.text);
        return out;
    };
    EXPECT_EQ(texts(deck.slides[0]), (std::vector<std::string>{"general one", "general two"}));
    EXPECT_EQ(texts(deck.slides[1]), (std::vector<std::string>{"about gsm8k", "about a task not compared"}));
    EXPECT_TRUE(deck.slides[2].notes.empty());

    // Without an evals slide, a task's note has nowhere better than the cover.
    ComparisonDocument judgeOnly = load("judge-bench.fp8cmp");
    judgeOnly.notes = {note("n1", "about gsm8k", "gsm8k"), note("n2", "general")};
    deck = deckOf(judgeOnly);
    EXPECT_EQ(texts(deck.slides[0]), (std::vector<std::string>{"about gsm8k", "general"}));
}

TEST(PresentationDeck, JudgeOnlyWithACpuBenchmarkRun) {
    const ComparisonDocument doc = load("judge-bench.fp8cmp");
    const PresentationDeck deck = deckOf(doc);
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Judge, S::Benchmarks, S::Verdict}));
    // Means computed here from the saved scores (every id on both sides: paired on all of them).
    double b = 0, c = 0;
    for (const auto& s : doc.judge->baseline.samples) b += s.score;
    for (const auto& s : doc.judge->candidate.samples) c += s.score;
    b /= static_cast<double>(doc.judge->baseline.samples.size());
    c /= static_cast<double>(doc.judge->candidate.samples.size());
    const PresentationSlide& judge = deck.slides[1];
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", b);
    EXPECT_EQ(figure(judge, "BF16 mean")->value, buf);
    std::snprintf(buf, sizeof buf, "%.2f", c);
    EXPECT_EQ(figure(judge, "FP8 mean")->value, buf);
    std::snprintf(buf, sizeof buf, "%.2f%%", std::max(0.0, (b - c) / b * 100));
    EXPECT_EQ(figure(judge, "Degradation")->value, buf);
    EXPECT_EQ(judge.charts, (std::vector<std::string>{"judge-distribution"}));

    // The CPU run: no GEMM (no GPU), the KV sweep at 1024 tokens.
    const PresentationSlide& bench = deck.slides[2];
    EXPECT_EQ(figure(bench, "FP8 GEMM speedup")->value, "not measured");
    // Saved by fp8dash 0.1, before the attention-output error: the slide shows per_tensor's K/V rel RMSE (read
    // here from the file's JSON) and says the file predates the metric; the old attention figure is not shown.
    double perTensor = NAN, oldAttention = NAN;
    for (const auto& k : doc.benchmarks->raw["kv"])
        if (k["scaling"] == "per_tensor") perTensor = k["rel_rmse"].get<double>(), oldAttention = k["attn_rel_error"];
    ASSERT_TRUE(std::isfinite(perTensor));
    const SlideFigure* kv = figure(bench, "FP8 KV cache: K/V rel. RMSE");
    ASSERT_NE(kv, nullptr);
    std::snprintf(buf, sizeof buf, "%.1f%%", perTensor * 100);
    EXPECT_EQ(kv->value, buf);
    EXPECT_NE(kv->detail.find("per_tensor"), std::string::npos) << kv->detail;
    EXPECT_NE(kv->detail.find("synthetic cache"), std::string::npos) << kv->detail;
    EXPECT_NE(kv->detail.find("saved before fp8dash measured the attention-output error"), std::string::npos);
    EXPECT_EQ(figure(bench, "FP8 KV cache: attention-output error"), nullptr);
    std::snprintf(buf, sizeof buf, "%.1f%%", oldAttention * 100);
    EXPECT_EQ(bench.talkingPoints.find(buf), std::string::npos) << bench.talkingPoints;
    EXPECT_NE(bench.talkingPoints.find("predate"), std::string::npos) << bench.talkingPoints;
    EXPECT_EQ(bench.charts, (std::vector<std::string>{"bench-kv"}));
    EXPECT_NE(bench.subtitle.find("the CPU (no GPU)"), std::string::npos);

    // Without eval runs the model comes from the benchmarks' shapes.
    EXPECT_EQ(deck.model, "llama-3.1-8b");
}

// A KV row of the sweep contract, with the figures the slide reads.
Json kvRow(const std::string& scaling, int context, double attnOut, std::uint64_t keySaturated,
           const std::string& sourceKind) {
    return Json{{"scaling", scaling},
                {"context", context},
                {"source", {{"kind", sourceKind}, {"description", "d"}, {"shape", Json::array({2, 2, 65536, 64})}}},
                {"rel_rmse", 0.027},
                {"key", {{"rel_rmse", 0.027}, {"saturated", keySaturated}, {"scales", Json::array({1.0})}}},
                {"value", {{"rel_rmse", 0.027}, {"saturated", 0}, {"scales", Json::array({1.0})}}},
                {"attn_out_rel_rmse", attnOut},
                {"attn_weight_tvd", attnOut / 2}};
}

ComparisonDocument kvOnlyDocument(const Json& kv) {
    Json j = {{"created", "2026-12-01T10:00:00Z"},
              {"backend", "cpu"},
              {"model", "llama-3.1-8b"},
              {"device", {{"available", false}, {"reason", "no GPU"}}},
              {"gemm", Json::array()},
              {"gemm_skipped", "no usable GPU"},
              {"bandwidth", Json::array()},
              {"kv", kv},
              {"kv_backend", "cpu"}};
    auto bench = parseBenchResults(j, "kv.json");
    EXPECT_TRUE(bench.ok()) << (bench.ok() ? "" : bench.error().message);
    ComparisonDocument doc;
    doc.hasEvals = false;
    if (bench.ok()) doc.benchmarks = std::move(bench).value();
    return doc;
}

TEST(PresentationDeck, KvSlideShowsTheHeadlineItsMeaningAndTheSyntheticNote) {
    // per_tensor at 64K (its longest) is the headline: 2.13% -> "2.1%"; none at 64K saturates 1,234 keys.
    const Json kv = Json::array(
        {kvRow("none", 4096, 0.02, 0, "synthetic"), kvRow("none", 65536, 0.031, 1234, "synthetic"),
         kvRow("per_tensor", 4096, 0.0199, 0, "synthetic"), kvRow("per_tensor", 65536, 0.0213, 0, "synthetic"),
         kvRow("per_head", 65536, 0.0190, 0, "synthetic")});
    PresentationDeck deck = deckOf(kvOnlyDocument(kv));
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Benchmarks, S::Verdict}));
    const PresentationSlide& bench = deck.slides[1];
    EXPECT_EQ(bench.title, "What an FP8 KV cache costs in accuracy");
    const SlideFigure* f = figure(bench, "FP8 KV cache: attention-output error");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->value, "2.1%");
    EXPECT_EQ(f->detail.rfind("per_tensor scaling, 64K tokens · synthetic cache", 0), 0u) << f->detail;
    EXPECT_NE(f->detail.find("E4M3 rounding alone: about 2–3 %"), std::string::npos) << f->detail;
    EXPECT_NE(f->detail.find("scale 1.0 saturates 1,234 values"), std::string::npos) << f->detail;
    EXPECT_NE(bench.talkingPoints.find("2.1% RMS (per_tensor scaling, 64K tokens, synthetic cache)"), std::string::npos)
        << bench.talkingPoints;
    EXPECT_NE(bench.talkingPoints.find("without scales 1,234 values saturate"), std::string::npos)
        << bench.talkingPoints;

    // The model's own K/V (a dump): no "synthetic cache"; no saturation, no note.
    const Json dump = Json::array({kvRow("per_tensor", 8192, 0.0347, 0, "dump")});
    deck = deckOf(kvOnlyDocument(dump));
    f = figure(deck.slides[1], "FP8 KV cache: attention-output error");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->value, "3.5%");
    EXPECT_EQ(f->detail.find("synthetic"), std::string::npos) << f->detail;
    EXPECT_NE(f->detail.find("the model's own K/V"), std::string::npos) << f->detail;
    EXPECT_EQ(f->detail.find("saturates"), std::string::npos) << f->detail;
}

TEST(PresentationDeck, CapacityNeedsSettingsThatCanBePlanned) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.capacity = CapacitySettings{};  // llama-3.1-8b on one h100-sxm, FP8 weights and KV
    doc.capacity->vllmVersion.clear();  // saved before vLLM's accounting: the flat overhead, as saved
    PresentationDeck deck = deckOf(doc);
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Capacity, S::Verdict}));
    const PresentationSlide& capacity = deck.slides[1];
    ASSERT_EQ(capacity.bars.size(), 2u);
    // BF16: (79.19 GiB (what an H100 80GB reports) × 0.92 − 2 × 8,030,261,248 − 2 GiB) / (2 × 32 layers × 8 KV heads ×
    // 128 × 2 bytes).
    const auto bf16 =
        static_cast<unsigned long long>((79.19 * (1ull << 30) * 0.92 - 8030261248.0 * 2 - 2.0 * (1ull << 30)) / 131072);
    EXPECT_EQ(capacity.bars[0].label, "BF16");
    EXPECT_EQ(capacity.bars[0].value, static_cast<double>(bf16));
    EXPECT_EQ(figure(capacity, "BF16")->value, groupedDigits(bf16));
    EXPECT_EQ(capacity.bars[1].label, "FP8");
    // FP8 weights and KV: more room and half the bytes per token, so more than twice the tokens.
    EXPECT_GT(capacity.bars[1].value, 2 * capacity.bars[0].value);
    char gain[32];
    std::snprintf(gain, sizeof gain, "×%.2f", capacity.bars[1].value / capacity.bars[0].value);
    EXPECT_EQ(figure(capacity, "Gain")->value, gain);
    EXPECT_EQ(capacity.title, std::string("FP8 fits ") + gain + " as many tokens as BF16");

    // Settings made now follow vLLM's accounting, as `fp8dash capacity` does: 79.19 GiB (85,029,615,043 B) x 0.92 =
    // 78,227,245,840 requested, less 16,060,522,496 of BF16 weights, the sampler's activation peak (3.75 x 1,024
    // rows x 128,256 x 4 B + 8,192 x 4,096 x 2 B = 2,037,121,024) and 0.25 GiB non-torch = 59,861,166,864 B; whole
    // blocks of 16 x 131,072 B: 28,544 blocks = 456,704 tokens.
    doc.capacity = CapacitySettings{};
    deck = deckOf(doc);
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Capacity, S::Verdict}));
    EXPECT_EQ(deck.slides[1].bars[0].value, 456704.0);
    EXPECT_EQ(figure(deck.slides[1], "BF16")->value, "456,704");

    // "local" GPUs: left out without this machine's query, planned with it.
    doc.capacity->gpu = "local";
    EXPECT_EQ(steps(deckOf(doc)), (std::vector<S>{S::Cover, S::Verdict}));
    LocalDeviceStatus local;
    local.backend = "cuda";
    local.available = true;
    local.gpus.push_back(LocalGpu{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85520809984ull, 80000000000ull, true});
    EXPECT_EQ(steps(deckOf(doc, &local)), (std::vector<S>{S::Cover, S::Capacity, S::Verdict}));

    // Llama-3.1-70B on one H100: 141 GB of BF16 weights do not fit at all; FP8's 71 GB do. Said, not divided by zero.
    doc.capacity = CapacitySettings{};
    doc.capacity->model = "llama-3.1-70b";
    doc.capacity->gpus = 1;
    deck = deckOf(doc);
    ASSERT_EQ(deck.slides.size(), 3u);
    EXPECT_EQ(figure(deck.slides[1], "BF16")->value, "does not fit");
    EXPECT_EQ(deck.slides[1].title, "FP8 fits where BF16 does not");
}

TEST(PresentationDeck, TheVerdictSlideListsEachStepWorstFirstAndTheReview) {
    ComparisonDocument doc = load("paired-judge-control.fp8cmp");
    auto decision = decide(doc);
    ASSERT_TRUE(decision.ok());
    PresentationDeck deck = buildPresentationDeck(doc, *decision);
    const PresentationSlide& verdict = deck.slides.back();
    ASSERT_EQ(verdict.step, S::Verdict);
    ASSERT_TRUE(decision->verdict);
    EXPECT_EQ(verdict.verdict, decision->verdict);
    EXPECT_EQ(verdict.title, verdictTitle(*decision->verdict));
    EXPECT_EQ(verdict.subtitle, verdictAdvice(*decision->verdict));
    ASSERT_EQ(verdict.figures.size(), 2u);  // the evals and the judge give verdicts
    EXPECT_GE(*verdict.figures[0].level, *verdict.figures[1].level);
    EXPECT_EQ(verdict.figures[0].level, decision->verdict);  // the worst step is the overall verdict
    EXPECT_EQ(verdict.moreReasons, decision->reasons);       // decide()'s reasons in full, for the presenter
    EXPECT_TRUE(verdict.review.empty());
    EXPECT_NE(verdict.talkingPoints.find("No review decision is recorded yet"), std::string::npos);

    ReviewDecision approved;
    approved.outcome = ReviewOutcome::ApprovedGo;
    approved.by = "Ana Ruiz";
    approved.at = "2026-12-01T14:03:05Z";
    approved.why = "fine for our traffic";
    doc.decisions.push_back(approved);
    deck = buildPresentationDeck(doc, *decision);
    EXPECT_EQ(deck.slides.back().review, reviewSummary(approved));
    EXPECT_EQ(deck.slides.back().reviewOutcome, ReviewOutcome::ApprovedGo);
    // Approving go is an override unless the evidence says go.
    EXPECT_EQ(deck.slides.back().reviewWarnings.empty(), *decision->verdict == Verdict::Go);
}

// Several candidates (the generated ladder, tests/data/lm-eval-ladder): a "Which FP8 layers to enable" slide after
// the evals, one figure per variant with its worst degradation ((0.76 - x) / 0.76 on gsm8k from expected.json's
// means 0.756, 0.736, 0.754), the passing most aggressive one (--accept monitor) marked and its buys said.
TEST(PresentationDeck, SeveralCandidatesGetAWhichLayersSlideWithTheRecommendedOneMarked) {
    const std::filesystem::path ladder = std::filesystem::path(FP8DASH_TEST_DATA) / "lm-eval-ladder";
    ComparisonInputs in;
    in.baselinePath = ladder / "bf16";
    in.candidatePath = ladder / "w8a8";
    in.moreCandidatePaths = {ladder / "w8a8-kv", ladder / "w8a8-kv-cal"};
    in.recommendation.accept = Verdict::Monitor;
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    // The generated logs keep lost answers and the verdict is not go: by default one of them follows the evals
    // (answerSlideByDefault), from the first candidate's paired examples. The rest of the test leaves it out.
    ASSERT_TRUE(built->decision.verdict);
    ASSERT_NE(*built->decision.verdict, Verdict::Go);
    const auto byDefault = steps(buildPresentationDeck(built->document, built->decision));
    ASSERT_GE(byDefault.size(), 5u);
    EXPECT_EQ(byDefault[2], S::ChangedAnswer);
    EXPECT_EQ(byDefault[3], S::Variants);
    PresentationOptions noAnswer;
    noAnswer.answerSlide = false;
    const PresentationDeck deck = buildPresentationDeck(built->document, built->decision, nullptr, noAnswer);
    const auto order = steps(deck);
    ASSERT_GE(order.size(), 4u);
    EXPECT_EQ(order[1], S::Evals);
    EXPECT_EQ(order[2], S::Variants);
    EXPECT_EQ(order.back(), S::Verdict);
    const PresentationSlide& slide = deck.slides[2];
    EXPECT_EQ(slide.title, "Enable FP8 W8A8 + FP8 KV (calibrated scales)");
    EXPECT_EQ(slide.verdict, Verdict::Monitor);
    const std::pair<const char*, double> variants[] = {{"FP8 W8A8", 0.756},
                                                       {"FP8 W8A8 + FP8 KV (scales 1.0)", 0.736},
                                                       {"FP8 W8A8 + FP8 KV (calibrated scales)", 0.754}};
    ASSERT_EQ(slide.figures.size(), 3u);
    for (const auto& [label, gsm8k] : variants) {
        const SlideFigure* f = figure(slide, label);
        ASSERT_NE(f, nullptr) << label;
        char value[16];
        std::snprintf(value, sizeof value, "%.2f%%", (0.76 - gsm8k) / 0.76 * 100);
        EXPECT_EQ(f->value, value) << label;
        EXPECT_NE(f->detail.find("worst: gsm8k"), std::string::npos) << f->detail;
    }
    EXPECT_EQ(figure(slide, "FP8 W8A8 + FP8 KV (calibrated scales)")->detail.rfind("✓ recommended", 0), 0u);
    EXPECT_EQ(figure(slide, "FP8 W8A8 + FP8 KV (scales 1.0)")->level, Verdict::Investigate);
    EXPECT_NE(figure(slide, "FP8 W8A8 + FP8 KV (scales 1.0)")->detail.find("does not pass"), std::string::npos);
    EXPECT_EQ(figure(slide, "FP8 W8A8")->detail.find("recommended"), std::string::npos);
    EXPECT_NE(slide.gain.find("twice the KV-cache tokens"), std::string::npos) << slide.gain;
    EXPECT_NE(slide.talkingPoints.find("FP8 W8A8 + FP8 KV (scales 1.0) does not pass"), std::string::npos)
        << slide.talkingPoints;

    // One candidate: no such slide.
    ComparisonInputs two = in;
    two.moreCandidatePaths.clear();
    auto pair = buildComparison(two);
    ASSERT_TRUE(pair.ok()) << pair.error().message;
    EXPECT_FALSE(buildPresentationDeck(pair->document, pair->decision).indexOf(S::Variants));
}

// The ladder's deck names every run: the cover lists the baseline and each variant with its model and layers, the
// footer's line names them all (87 characters fit kDeckRunsChars). After "Which FP8 layers to enable" comes "What each
// FP8 layer costs": every layer step's tasks (make_ladder.py: BF16 → W8A8, W8A8 → either KV variant, KV scales
// 1.0 → calibrated; two tasks each) with the figure -Δ% of its two runs from expected.json, each step's tasks worst
// first, and a title that names the costliest (the KV cache with scales 1.0 on gsm8k).
TEST(PresentationDeck, LadderDeckNamesEveryRunAndShowsWhatEachLayerCosts) {
    const std::filesystem::path ladder = std::filesystem::path(FP8DASH_TEST_DATA) / "lm-eval-ladder";
    ComparisonInputs in;
    in.baselinePath = ladder / "bf16";
    in.candidatePath = ladder / "w8a8";
    in.moreCandidatePaths = {ladder / "w8a8-kv", ladder / "w8a8-kv-cal"};
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    PresentationOptions noAnswer;
    noAnswer.answerSlide = false;
    const PresentationDeck deck = buildPresentationDeck(built->document, built->decision, nullptr, noAnswer);
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"BF16", "bf16"},
        {"FP8 W8A8", "w8a8"},
        {"FP8 W8A8 + FP8 KV (scales 1.0)", "w8a8-kv"},
        {"FP8 W8A8 + FP8 KV (calibrated scales)", "w8a8-kv-cal"}};
    EXPECT_EQ(deck.runs, "BF16 vs FP8 W8A8, FP8 W8A8 + FP8 KV (scales 1.0), FP8 W8A8 + FP8 KV (calibrated scales)");
    const PresentationSlide& cover = deck.slides.front();
    ASSERT_EQ(cover.points.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        EXPECT_EQ(cover.points[i].rfind(runs[i].first + ": ", 0), 0u) << cover.points[i];
    EXPECT_NE(cover.points[3].find("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-KV"), std::string::npos);

    const auto costsAt = deck.indexOf(S::LayerCosts);
    const auto variantsAt = deck.indexOf(S::Variants);
    ASSERT_TRUE(costsAt && variantsAt);
    EXPECT_EQ(*costsAt, *variantsAt + 1);
    const PresentationSlide& slide = deck.slides[*costsAt];
    EXPECT_FALSE(slide.verdict);  // the variants' verdicts are the Which-layers slide's
    EXPECT_TRUE(slide.summary.empty());
    EXPECT_EQ(slide.title, "Adding the FP8 KV cache (scales 1.0) costs 2.65% on gsm8k");
    std::ifstream file(ladder / "expected.json");
    const nlohmann::json e = nlohmann::json::parse(file);
    std::map<std::string, std::string> dirOf;
    for (const auto& [label, dir] : runs) dirOf[label] = dir;
    ASSERT_EQ(slide.stepRows.size(), 8u);
    std::string previousStep;
    for (const SlideStepRow& r : slide.stepRows) {
        const auto arrow = r.step.find(" → ");
        ASSERT_NE(arrow, std::string::npos) << r.step;
        const std::string key =
            dirOf[r.step.substr(0, arrow)] + ">" + dirOf[r.step.substr(arrow + 5)] + "/" + r.task;  // "→" is 3 bytes
        ASSERT_TRUE(e["pairs"].contains(key)) << key;
        const double delta = e["pairs"][key]["delta_pct"].get<double>();
        char expected[64];
        if (-delta > 0.005)
            std::snprintf(expected, sizeof expected, "costs %.2f%%", -delta);
        else
            std::snprintf(expected, sizeof expected, "changes by %s%.2f%%", delta > 0.005 ? "+" : "", delta);
        EXPECT_EQ(r.figure, expected) << key;
        double lo = 0, hi = 0;  // the interval holds the figure
        ASSERT_EQ(std::sscanf(r.interval.c_str(), "%lf to %lf%%", &lo, &hi), 2) << r.interval;
        const double figure = -delta > 0.005 ? -delta : delta;
        EXPECT_LE(lo, figure + 0.005) << key;
        EXPECT_GE(hi, figure - 0.005) << key;
        EXPECT_EQ(r.firstOfStep, r.step != previousStep) << key;
        previousStep = r.step;
    }
    // Each step's first row is its worst: the KV step (scales 1.0) leads with gsm8k, investigate.
    for (std::size_t i = 0; i < slide.stepRows.size(); ++i)
        if (slide.stepRows[i].step == "FP8 W8A8 → FP8 W8A8 + FP8 KV (scales 1.0)" && slide.stepRows[i].firstOfStep) {
            EXPECT_EQ(slide.stepRows[i].task, "gsm8k");
            EXPECT_EQ(slide.stepRows[i].verdict, Verdict::Investigate);
        }
    EXPECT_NE(slide.talkingPoints.find("costs 2.65% on gsm8k"), std::string::npos) << slide.talkingPoints;
    // The Which-layers slide shows each variant's forest plot under its figure.
    EXPECT_EQ(deck.slides[*variantsAt].charts,
              (std::vector<std::string>{"evals-forest-1", "evals-forest-2", "evals-forest-3"}));
}

TEST(PresentationDeck, ADocumentWithNothingStillHasACoverAndAVerdict) {
    ComparisonDocument doc;
    doc.hasEvals = false;
    const PresentationDeck deck = buildPresentationDeck(doc, Decision{});
    ASSERT_EQ(steps(deck), (std::vector<S>{S::Cover, S::Verdict}));
    EXPECT_EQ(deck.slides[0].title, "Should this deployment run in FP8?");
    EXPECT_EQ(deck.slides[1].title, "NO VERDICT");
    EXPECT_FALSE(deck.slides[1].verdict);
    EXPECT_TRUE(deck.slides[1].figures.empty());
    EXPECT_TRUE(deck.slides[1].points.empty());
    EXPECT_TRUE(deck.date.empty());
}

}  // namespace
}  // namespace fp8dash
