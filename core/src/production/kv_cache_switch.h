#pragma once
// The timeline's use of the switch found in vllm:cache_config_info (kv_cache_switch.cpp): the change time where none
// was given, the rollout, and the report's words for them. Synchronous; call from the fetching thread.

#include <string>
#include <vector>

#include "fp8dash/core/prometheus_client.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash::detail {

// Finds each engine's switch in `cacheConfigInfo`, asking `prom` which model each engine serves, and uses them
// (useDetectedSwitches). A failed model lookup leaves the engines unnamed (the switch is still used).
void useKvCacheSwitch(TimelineData& data, const PrometheusClient& prom, const std::vector<Series>& cacheConfigInfo,
                      const Labels& pick, const Progress& progress);

// Reads the timeline's "detected_change", "detected_switches" and settings' "change_at_source" into data (its
// settings already read); errors name `where` and the field.
Status readKvCacheSwitchJson(const Json& timeline, const Json& settings, const std::string& where, TimelineData& data);

// The report's changeSource, changeDetail, rolloutEnd and rollout, from data (see TimelineReport).
void describeChangeSource(const TimelineData& data, TimelineReport& report);

}  // namespace fp8dash::detail
