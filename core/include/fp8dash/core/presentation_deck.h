#pragma once
// The content of the presentation mode (for reviewers and stakeholders): the steps of the decision a
// comparison holds evidence for, in the order of the decision (DESIGN.md: offline evals, domain judge, production
// timeline, local benchmarks, capacity, verdict) behind a cover slide, and for each step the few facts a stakeholder
// needs, one line of talking points generated from those facts, and the comparison's notes that go with it:
//   - a note about a task goes with the offline evals slide (with the cover when there is none);
//   - every other note goes with the cover, where the presenter sets the scene (sources, how the runs were made);
//   - the verdict slide carries the review decision in force, its warnings, and decide()'s reasons in full.
// A step without data is left out; the cover and the verdict slide are always there. Pure functions over values;
// thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/review.h"
#include "fp8dash/core/verdict.h"

namespace fp8dash {

// LongContext: the per-length (RULER) comparison, after the evals it belongs to; only when there is one.
// Variants: "Which FP8 layers to enable", after the evals, only with several candidates: each variant's worst
// degradation against the go/monitor/investigate bands, the recommended one marked, what it buys.
// LayerCosts: "What each FP8 layer costs", after Variants, only with several candidates and a layer step among them:
// each step's tasks (SlideStepRow) with their figure and 95% interval; it carries no verdict of its own.
// ChangedAnswer: "One answer FP8 changed", right after the evals: one lost answer of the worst task as a talking point
// (PresentationOptions::answerSlide); it carries no verdict of its own.
enum class PresentationStep {
    Cover,
    Evals,
    Variants,
    LongContext,
    Judge,
    Timeline,
    Benchmarks,
    Capacity,
    Verdict,
    ChangedAnswer,
    LayerCosts,
    Serving,
};

// "Cover", "Offline evals", "Which FP8 layers to enable", "Long context", "Domain judge", "Production timeline", "Local
// benchmarks", "KV-cache capacity", "Verdict", "Changed answer", "What each FP8 layer costs", "What FP8 buys on your
// server"
std::string_view presentationStepName(PresentationStep step);

// One big figure of a slide.
struct SlideFigure {
    std::string label;             // "FP8 speedup"
    std::string value;             // "×1.88"
    std::string detail;            // "o projection at 1 token per batch"
    std::optional<Verdict> level;  // the figure's colour; nullopt: neutral
};

// A row of the offline evals slide's table.
struct SlideTaskRow {
    std::string task;
    std::string metric;  // bare metric name, e.g. "acc_norm"
    double baseline = 0;
    double candidate = 0;
    std::optional<double> deltaPct;        // (candidate - baseline) / |baseline| * 100
    std::optional<double> degradationPct;  // the loss in the metric's good direction, 0 for an improvement
    Verdict verdict = Verdict::Go;
    bool fp8Sensitive = false;          // math, formal reasoning or code (isFp8SensitiveTask)
    std::optional<double> recoveryPct;  // candidate / baseline * 100 (TaskComparison::recoveryPct)
};

// A row of the layer-costs slide: one task of one layer step (variant_comparison.h: LayerStepTask), the steps in
// their order, each step's tasks worst first.
struct SlideStepRow {
    std::string step;      // "FP8 W8A8 → FP8 W8A8 + FP8 KV (scales 1.0)"
    std::string layer;     // the step's description: "adding the FP8 KV cache (scales 1.0)"
    std::string task;      // "gsm8k"
    std::string figure;    // "costs 2.65%" or "changes by +0.18%" (variant_text::stepFigure)
    std::string interval;  // the 95% interval on the figure's scale, "1.32 to 4.10%"; "" without one
    Verdict verdict = Verdict::Go;
    bool firstOfStep = false;  // the step's first row (the table names the step there)
};

// A bar of the capacity slide: the KV-cache tokens one configuration holds.
struct SlideBar {
    std::string label;      // "BF16", "FP8"
    double value = 0;       // tokens; 0 when it does not fit
    std::string valueText;  // "1,234,567 tokens"
};

// One side of the answer slide's document.
struct SlideAnswerSide {
    std::string label;      // the run's label, "BF16"
    std::string answer;     // the filtered answer, a short excerpt (kSlideAnswerExcerptChars, "…" where cut)
    std::string response;   // the raw response, a short excerpt
    std::string valueText;  // "exact_match 1"
    bool better = false;    // this side's value is the better one (the baseline's, for a lost answer)
};

// The answer slide's document (PresentationStep::ChangedAnswer): the first lost answer the file keeps of the worst
// task that has one. Texts are model output and data-set text, cut to short excerpts on one line; a view shows them as
// plain text with their controls shown.
struct SlideAnswer {
    std::string task;
    long long docId = 0;
    std::string subtask;   // a group's: the subtask the document belongs to
    std::string question;  // a short excerpt
    std::string target;
    SlideAnswerSide baseline;
    SlideAnswerSide candidate;
};
inline constexpr std::size_t kSlideAnswerExcerptChars = 200;

struct PresentationSlide {
    PresentationStep step = PresentationStep::Cover;
    std::string title;     // the slide's message: "Should Meta-Llama-3-8B-Instruct run in FP8?", "gsm8k drops 2.59%"
    std::string subtitle;  // one line under it
    std::optional<Verdict> verdict;  // the step's verdict (the overall one on the verdict slide); nullopt: none
    // The big figures. The verdict slide: one per step with a verdict (label: the step's name, value: its verdict,
    // detail: its summary), worst first: the top reasons in stakeholder words.
    std::vector<SlideFigure> figures;
    std::vector<SlideTaskRow> tasks;  // offline evals: every compared task, largest degradation first
    // cover: the runs compared; verdict: what FP8 buys (the steps' gains joined), when any step measured a gain.
    std::vector<std::string> points;
    std::vector<SlideBar> bars;          // capacity: BF16 first, then the chosen dtypes (when they differ)
    std::vector<SlideStepRow> stepRows;  // layer costs: every step's tasks
    std::vector<std::string> charts;     // chart snapshot keys (ui/chart_snapshots.h) shown, in display order
    std::string talkingPoints;           // one line for the presenter, from the facts above
    // A step with a verdict: the step's news in one clause, for the verdict slide ("gsm8k drops 2.59%").
    std::string summary;
    // What FP8 buys by this step's evidence, in a few words ("+50.0% throughput in production"); "" when none.
    std::string gain;
    std::vector<Note> notes;  // the comparison's notes that go with this slide, in document order
    // The verdict slide: the review decision in force (reviewSummary; "" when none) and assessReview's warnings.
    std::string review;
    std::optional<ReviewOutcome> reviewOutcome;
    std::vector<std::string> reviewWarnings;
    std::vector<std::string> moreReasons;  // the verdict slide: decide()'s reasons in full (presenter only)
    // The verdict slide: what the verdict rests on and its caveats (verdict_headline.h's notes), shown in the band;
    // `clean` false draws the band so that it cannot pass for a clean verdict.
    std::vector<std::string> headlineNotes;
    bool clean = true;
    std::optional<SlideAnswer> answer;  // the answer slide's document
};

struct PresentationDeck {
    std::string model;  // the model in question, without its organisation ("Meta-Llama-3-8B-Instruct"); "" unknown
    std::string date;   // "2026-11-29": the day the comparison was made; "" when the document does not say
    std::string baselineLabel = "BF16";        // the sides compared, as the runs name them
    std::string candidateLabel = "FP8";        // the first candidate
    std::vector<std::string> candidateLabels;  // every candidate (one, or several variants), in order
    // The sides for a footer: "BF16 vs FP8", with several candidates every one of them, shortened to
    // kDeckRunsChars where long (variant_text::runsLineShort; the cover lists them all).
    std::string runs;
    std::vector<PresentationSlide> slides;  // cover first, verdict last, the steps with data between

    // The position of a step's slide, or nullopt when the deck leaves it out.
    std::optional<std::size_t> indexOf(PresentationStep step) const;
};

inline constexpr std::size_t kDeckRunsChars = 90;

struct PresentationOptions {
    // The answer slide ("One answer FP8 changed"): true shows it wherever a compared task's paired result keeps a lost
    // answer, false never; nullopt (the default) decides by answerSlideByDefault.
    std::optional<bool> answerSlide;
};

// Whether the answer slide is shown when the options leave it open: only when the overall verdict is monitor or
// investigate. A lost answer is a talking point for a degradation the audience is asked to weigh; beside a go verdict
// one flipped document (flips both ways happen in every comparison, README "The answers FP8 changed") would draw the
// discussion toward noise the statistics already weighed. No verdict: no slide either.
bool answerSlideByDefault(const Decision& decision);

// `decision` is decide(doc). `local` is this machine's GPU query for capacity settings on "local" GPUs (nullptr: such
// settings cannot be planned and the capacity step is left out, as it is for settings that cannot be planned).
PresentationDeck buildPresentationDeck(const ComparisonDocument& doc, const Decision& decision,
                                       const LocalDeviceStatus* local = nullptr,
                                       const PresentationOptions& options = {});

// 1234567 -> "1,234,567" (the deck's big numbers).
std::string groupedDigits(unsigned long long v);

}  // namespace fp8dash
