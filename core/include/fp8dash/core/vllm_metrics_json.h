#pragma once
// The comparison file's "kv_scales_risk" object ({"since", "cache_dtype", "where"}) and "detected_switches", read and
// written by the timeline's JSON (and the CLI's timeline JSON). Pure functions; thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"  // Json
#include "fp8dash/core/result.h"
#include "fp8dash/core/vllm_metrics.h"

namespace fp8dash {

Json kvScalesRiskToJson(const KvScalesRisk& risk);
// Errors name `where` and the field, e.g. "timeline.kv_scales_risk.where must be a list of strings".
Result<KvScalesRisk> kvScalesRiskFromJson(const Json& j, const std::string& where);

// The timeline's "detected_switches": [{"at", "from", "to", "model", "engine", "deployment"}, ...].
Json engineSwitchesToJson(const std::vector<EngineSwitch>& switches);
Result<std::vector<EngineSwitch>> engineSwitchesFromJson(const Json& j, const std::string& where);

}  // namespace fp8dash
