// Fuzz target: LLM-as-judge score files (parseJudgeScores: JSON Lines, CSV, JSON array; by extension, by content, or
// as asked), their comparison-file section (judgeSectionToJson / parseJudgeSection must give the scores back) and the
// comparison of a file with itself (no degradation, by definition). The first input byte picks the file name and
// format.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "fp8dash/core/judge_scores.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const std::pair<const char*, JudgeFileFormat> kWays[] = {
        {"fuzz/scores.jsonl", JudgeFileFormat::Auto},    {"fuzz/scores.csv", JudgeFileFormat::Auto},
        {"fuzz/scores.json", JudgeFileFormat::Auto},     {"fuzz/scores.txt", JudgeFileFormat::Auto},
        {"fuzz/scores.dat", JudgeFileFormat::JsonLines}, {"fuzz/scores.dat", JudgeFileFormat::Csv},
        {"fuzz/scores.dat", JudgeFileFormat::JsonArray},
    };
    const auto& [name, format] = kWays[data[0] % std::size(kWays)];
    const std::string source = name;
    const JudgeScale scale = (data[0] / std::size(kWays)) % 2 ? JudgeScale{0, 10} : JudgeScale{1, 5};
    const auto text = fuzz::text(data + 1, size - 1);

    auto scores = parseJudgeScores(text, source, scale, format);
    if (!scores) {
        fuzz::checkErrorNames(scores.error().message, source);
        return 0;
    }
    fuzz::check(!scores->samples.empty(), "a score file read without samples");
    for (const JudgeScore& s : scores->samples) {
        fuzz::check(std::isfinite(s.score) && s.score >= scale.min && s.score <= scale.max,
                    "a score outside the scale was accepted");
        fuzz::check(s.id.empty() != scores->hasIds, "ids on some samples only");
    }

    JudgeSection section{*scores, *scores, {}};
    section.options.scale = scale;
    section.options.bootstrapIterations = 50;  // the figures are not checked here; the time per input is
    auto back = parseJudgeSection(Json::parse(judgeSectionToJson(section).dump()), "fuzz.fp8cmp: judge");
    fuzz::check(back.ok(), "a judge section does not read back", back.ok() ? "" : back.error().message);
    fuzz::check(back->baseline.samples == scores->samples, "a judge section reads back other samples");

    auto c = compareJudgeScores(*scores, *scores, section.options);
    if (!c.ok()) {
        // The one refusal of a file compared with itself: a degradation in % of a mean of 0 (every score at the
        // bottom of a 0-10 scale; regressions/judge_scores/all-zero-on-0-10), said with the file's name.
        double sum = 0;
        for (const JudgeScore& s : scores->samples) sum += s.score;
        fuzz::check(sum <= 0, "comparing scores with themselves fails", c.error().message);
        fuzz::checkErrorNames(c.error().message, source);
        return 0;
    }
    fuzz::check(c->degradationPct == 0 && c->meanDiff == 0, "scores compared with themselves show a change");
    (void)judgeComparisonToJson(*c).dump();
    return 0;
}
