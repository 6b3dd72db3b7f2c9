#pragma once
// Private to core: the sample arrays of a comparison file's timeline (timeline.throughput / timeline.quality, their
// "t" and "v" lists) read straight from the text into doubles, so a file with millions of samples never becomes a
// JSON document of millions of values (a 10M-point timeline must load within 1.5x of Python's json.load and in under 3x
// its size: tests/benchmarks/README.md). The JSON reader lifts them out and leaves [] in their place; the timeline
// reader takes them from here. Plain data; one owner, not shared.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash::detail {

struct SeriesArrays {
    // Set when the file's "t" (or "v") of this series was lifted; the document then holds [] in its place.
    std::optional<std::vector<double>> t;  // JSON numbers, read as nlohmann reads them (exact decimal rounding)
    std::optional<std::vector<double>> v;  // numbers and the strings "NaN", "+Inf", "Inf", "-Inf", decoded
};

struct TimelineArrays {
    SeriesArrays throughput;
    SeriesArrays quality;
    bool empty() const { return !throughput.t && !throughput.v && !quality.t && !quality.v; }
};

// parseJsonText, also lifting out the timeline's sample arrays of a comparison file (only arrays that hold nothing
// but JSON numbers, or the value strings above in "v"; a repeated key is refused as parseJsonText refuses it). The
// document and every error are what parseJsonText gives for the same text.
Result<Json> parseJsonTextLiftingTimelineArrays(std::string_view text, const std::string& sourceName,
                                                TimelineArrays& arrays);

// The readers with the lifted arrays (nullptr: none). The arrays are consumed.
Result<TimelineData> parseTimelineJson(const Json& j, const std::string& where, TimelineArrays* arrays);
Result<ComparisonDocument> parseComparisonJson(Json j, const std::string& sourceName, TimelineArrays* arrays);

// The timeline section as the comparison file writes it: the same JSON as timelineToJson, pretty-printed with
// `indent` spaces before its closing brace (its members one level deeper), the sample lists on one line each.
std::string timelineJsonText(const TimelineData& data, int indent);

// One sample list entry as the file writes it: the shortest text that reads back as the same double, with ".0" on
// integral values as nlohmann writes them; "NaN", "+Inf", "-Inf" (quoted) for values JSON cannot hold.
void appendSampleNumber(std::string& out, double value);
void appendSampleValue(std::string& out, double value);

}  // namespace fp8dash::detail
