// The FP8 switch in vllm:cache_config_info as the timeline's change time: each engine's switch, the model behind it
// (V1's cache_config_info has no model_name; the engine's vllm:generation_tokens_total series has), the rolling
// update from the first engine's switch to the last, and the words for all of them.
#include "production/kv_cache_switch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "fp8dash/core/timeline.h"
#include "fp8dash/core/vllm_metrics.h"
#include "fp8dash/core/vllm_metrics_json.h"

namespace fp8dash {
namespace {

// The labels that tell one deployment (and engine) from another, as detectKvCacheSwitch groups them.
Labels switchGroupKey(const Labels& labels) {
    Labels key;
    for (const char* name : {"job", "model_name", "engine"})
        if (auto it = labels.find(name); it != labels.end()) key.insert(*it);
    return key;
}

// A label set agrees with a model series where every label both carry is equal, and they share one at least.
bool sharesEngineLabels(const Labels& series, const Labels& model) {
    bool shared = false;
    for (const auto& [k, v] : model) {
        if (k == "model_name" || k == "__name__") continue;
        auto it = series.find(k);
        if (it == series.end()) continue;
        if (it->second != v) return false;
        shared = true;
    }
    return shared;
}

// The one model the series' engine serves, or "" where none or several match.
std::string modelOfSwitchGroup(const std::vector<Series>& group, const std::vector<Series>& modelSeries) {
    std::set<std::string> models;
    for (const auto& s : group) {
        if (auto it = s.labels.find("model_name"); it != s.labels.end()) models.insert(it->second);
        for (const auto& m : modelSeries)
            if (auto name = m.labels.find("model_name");
                name != m.labels.end() && sharesEngineLabels(s.labels, m.labels))
                models.insert(name->second);
    }
    return models.size() == 1 ? *models.begin() : std::string();
}

// "14:02:00 UTC" from formatTimeUtc's "2026-11-20 14:02:00 UTC".
std::string switchClock(double t) {
    const std::string full = formatTimeUtc(t);
    return full.size() > 11 ? full.substr(11) : full;
}

std::string switchClockNoZone(double t) {
    std::string clock = switchClock(t);
    if (const auto space = clock.find(' '); space != std::string::npos) clock.erase(space);
    return clock;
}

std::string switchDuration(double seconds) {
    char buf[48];
    if (seconds < 120)
        std::snprintf(buf, sizeof buf, "%.0f s", seconds);
    else if (seconds < 7200)
        std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
    else
        std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
    return buf;
}

}  // namespace

std::vector<EngineSwitch> detectKvCacheSwitches(const std::vector<Series>& cacheConfigInfo, const Labels& pick,
                                                const std::vector<Series>& modelSeries) {
    std::map<Labels, std::vector<Series>> groups;
    for (const auto& s : cacheConfigInfo) {
        bool keep = true;  // a pick label the series lacks narrows nothing here (the model is checked below)
        for (const auto& [k, v] : pick)
            if (auto it = s.labels.find(k); it != s.labels.end() && it->second != v) keep = false;
        if (keep) groups[switchGroupKey(s.labels)].push_back(s);
    }
    std::vector<EngineSwitch> out;
    for (const auto& [key, series] : groups) {
        const auto change = detectCacheDtypeChange(series);
        if (!change) continue;
        EngineSwitch sw{change->at, change->from, change->to, modelOfSwitchGroup(series, modelSeries), {}, {}};
        // V1's series carry no model_name: a model pick narrows them by the model their engine serves.
        if (auto want = pick.find("model_name"); want != pick.end() && !sw.model.empty() && sw.model != want->second)
            continue;
        Labels rest = key;
        if (auto e = rest.find("engine"); e != rest.end()) sw.engine = e->second, rest.erase(e);
        rest.erase("model_name");
        if (!rest.empty()) sw.deployment = labelsToString(rest);
        out.push_back(std::move(sw));
    }
    std::stable_sort(out.begin(), out.end(), [](const EngineSwitch& a, const EngineSwitch& b) { return a.at < b.at; });
    return out;
}

std::vector<std::vector<EngineSwitch>> kvCacheSwitchesByModel(const std::vector<EngineSwitch>& switches) {
    std::vector<std::vector<EngineSwitch>> groups;
    std::map<std::string, std::size_t> index;  // the model, or the deployment where no model is known
    for (const auto& s : switches) {           // earliest first, so groups come in order of their first switch
        const std::string key = s.model.empty() ? "\x01" + s.deployment : s.model;
        auto [it, added] = index.emplace(key, groups.size());
        if (added) groups.emplace_back();
        groups[it->second].push_back(s);
    }
    return groups;
}

std::string engineSwitchWho(const EngineSwitch& s) {
    const std::string of = !s.model.empty() ? s.model : s.deployment;
    if (!s.engine.empty()) return "engine " + s.engine + (of.empty() ? "" : " of " + of);
    return of.empty() ? std::string("vLLM") : of;
}

std::string detectedSwitchText(const std::vector<EngineSwitch>& modelSwitches) {
    if (modelSwitches.empty()) return {};
    const auto& first = modelSwitches.front();
    return "change at " + formatTimeUtc(first.at) + " from cache_config_info: " + engineSwitchWho(first) +
           " switched to " + first.to;
}

std::optional<double> kvCacheRolloutEnd(const std::vector<EngineSwitch>& modelSwitches) {
    if (modelSwitches.size() < 2 || !(modelSwitches.back().at > modelSwitches.front().at)) return std::nullopt;
    return modelSwitches.back().at;
}

std::string kvCacheRolloutText(const std::vector<EngineSwitch>& modelSwitches) {
    const auto end = kvCacheRolloutEnd(modelSwitches);
    if (!end) return {};
    const double start = modelSwitches.front().at;
    std::string out = "rollout from " + switchClockNoZone(start) + " to " + switchClock(*end) + " (" +
                      switchDuration(*end - start) + "): ";
    // An engine is named by its number alone unless two switches share it (two deployments of one model).
    std::map<std::string, int> engineCount;
    for (const auto& s : modelSwitches) ++engineCount[s.engine];
    for (std::size_t i = 0; i < modelSwitches.size(); ++i) {
        const auto& s = modelSwitches[i];
        std::string name =
            s.engine.empty() ? (s.deployment.empty() ? std::string("vLLM") : s.deployment) : "engine " + s.engine;
        if (!s.engine.empty() && engineCount[s.engine] > 1 && !s.deployment.empty()) name += " " + s.deployment;
        out += (i ? ", " : "") + name + " at " + switchClockNoZone(s.at);
    }
    return out;
}

std::string kvCacheSwitchModelsText(const std::vector<EngineSwitch>& firstOfEachModel) {
    std::string out;
    for (const auto& s : firstOfEachModel) {
        const std::string model = !s.model.empty()        ? s.model
                                  : !s.deployment.empty() ? s.deployment
                                                          : std::string("a deployment without labels");
        out += (out.empty() ? "" : ", ") + model + " (" + (s.engine.empty() ? "" : "engine " + s.engine + " ") +
               "switched to " + s.to + " at " + formatTimeUtc(s.at) + ")";
    }
    return out;
}

Json engineSwitchesToJson(const std::vector<EngineSwitch>& switches) {
    Json out = Json::array();
    for (const auto& s : switches)
        out.push_back({{"at", s.at},
                       {"from", s.from},
                       {"to", s.to},
                       {"model", s.model},
                       {"engine", s.engine},
                       {"deployment", s.deployment}});
    return out;
}

Result<std::vector<EngineSwitch>> engineSwitchesFromJson(const Json& j, const std::string& where) {
    if (!j.is_array()) return Error{where + " must be a list of switches"};
    std::vector<EngineSwitch> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const auto& e = j[i];
        const std::string w = where + "[" + std::to_string(i) + "]";
        if (!e.is_object()) return Error{w + " must be an object"};
        EngineSwitch s;
        const auto at = e.find("at");
        if (at == e.end() || !at->is_number() || !std::isfinite(at->get<double>()))
            return Error{w + ".at must be a finite number (unix seconds)"};
        s.at = at->get<double>();
        for (auto [key, field] : {std::pair<const char*, std::string*>{"from", &s.from},
                                  {"to", &s.to},
                                  {"model", &s.model},
                                  {"engine", &s.engine},
                                  {"deployment", &s.deployment}}) {
            auto it = e.find(key);
            if (it == e.end() || it->is_null()) continue;
            if (!it->is_string()) return Error{w + "." + key + " must be a string"};
            *field = it->get<std::string>();
        }
        out.push_back(std::move(s));
    }
    return out;
}

namespace detail {

void useKvCacheSwitch(TimelineData& data, const PrometheusClient& prom, const std::vector<Series>& cacheConfigInfo,
                      const Labels& pick, const Progress& progress) {
    const auto& st = data.settings;
    std::vector<Series> models;
    if (!cacheConfigInfo.empty()) {
        // A coarse step: the lookup needs each engine's label set once, not its samples.
        const double step = std::max(st.step, std::ceil((st.to - st.from) / 200));
        if (auto m = prom.queryRange(kEngineModelQuery, st.from, st.to, step, progress)) models = std::move(m->series);
    }
    useDetectedSwitches(data, detectKvCacheSwitches(cacheConfigInfo, pick, models));
}

}  // namespace detail

void useDetectedSwitches(TimelineData& data, const std::vector<EngineSwitch>& switches) {
    const auto groups = kvCacheSwitchesByModel(switches);
    if (groups.empty()) return;
    data.detectedSwitches = groups.front();
    const auto& first = groups.front().front();
    data.detectedChange = DetectedChange{first.at, first.from, first.to};
    if (data.settings.changeAt) return;  // a given time wins (describeChangeSource says so where it differs)
    if (groups.size() > 1) {
        for (const auto& g : groups) data.switchModels.push_back(g.front());
        return;
    }
    data.settings.changeAt = first.at;
    data.settings.changeAtDetected = true;
}

namespace detail {

Status readKvCacheSwitchJson(const Json& j, const Json& settings, const std::string& where, TimelineData& d) {
    if (auto dc = j.find("detected_change"); dc != j.end() && dc->is_object()) {
        DetectedChange c;
        const auto at = dc->find("at");
        if (at == dc->end() || !at->is_number() || !std::isfinite(at->get<double>()))
            return Error{where + ".detected_change.at must be a finite number (unix seconds)"};
        c.at = at->get<double>();
        if (auto f = dc->find("from"); f != dc->end() && f->is_string()) c.from = f->get<std::string>();
        if (auto t = dc->find("to"); t != dc->end() && t->is_string()) c.to = t->get<std::string>();
        d.detectedChange = c;
    }
    if (auto sw = j.find("detected_switches"); sw != j.end() && !sw->is_null()) {
        auto switches = engineSwitchesFromJson(*sw, where + ".detected_switches");
        if (!switches) return switches.error();
        d.detectedSwitches = std::move(switches).value();
    }
    if (auto src = settings.find("change_at_source"); src != settings.end() && !src->is_null()) {
        if (*src != "cache_config_info" || !d.settings.changeAt)
            return Error{where + ".settings.change_at_source must be \"cache_config_info\", with change_at set"};
        d.settings.changeAtDetected = true;
    }
    return success();
}

void describeChangeSource(const TimelineData& data, TimelineReport& report) {
    const auto& st = data.settings;
    if (!st.changeAt) return;
    report.changeSource = st.changeAtDetected ? "cache_config_info" : "given";
    if (st.changeAtDetected && !data.detectedSwitches.empty()) {
        report.changeDetail = detectedSwitchText(data.detectedSwitches);
        report.rolloutEnd = kvCacheRolloutEnd(data.detectedSwitches);
        report.rollout = kvCacheRolloutText(data.detectedSwitches);
    } else if (st.changeAtDetected && data.detectedChange) {
        report.changeDetail = "change at " + formatTimeUtc(data.detectedChange->at) +
                              " from cache_config_info: the KV cache switched to " + data.detectedChange->to;
    } else if (data.detectedChange && data.detectedChange->at != *st.changeAt) {
        report.changeDetail = "the change time given (" + formatTimeUtc(*st.changeAt) +
                              ") overrides the switch found in cache_config_info at " +
                              formatTimeUtc(data.detectedChange->at) + " (" +
                              (data.detectedSwitches.empty() ? std::string("the KV cache")
                                                             : engineSwitchWho(data.detectedSwitches.front())) +
                              " switched to " + data.detectedChange->to + ")";
    }
}

}  // namespace detail
}  // namespace fp8dash
