#pragma once
// Private to core: the timeline's quality from Langfuse (raw scores or the Metrics API's minutes), and the JSON of
// the aggregate mode's buckets.

#include "fp8dash/core/timeline.h"

namespace fp8dash::detail {

// Fills data.quality (and data.qualityBuckets in the aggregate mode) and data.settings.langfuseMode (the mode used).
Status fetchLangfuseQuality(TimelineData& data, const TimelineCredentials& credentials, const Progress& progress);

// "quality_buckets": {"t": [...], "sum": [...], "count": [...]}, each list on one line.
void appendBucketsText(std::string& out, const std::vector<ScoreBucket>& buckets, int indent);
Result<std::vector<ScoreBucket>> bucketsFromJson(const Json& j, const std::string& where);

}  // namespace fp8dash::detail
