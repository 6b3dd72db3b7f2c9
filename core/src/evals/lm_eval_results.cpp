// lm-eval results reader. Format notes: shared/notes/data-formats.md §1 (key grammar "<metric>,<filter>", "N/A"
// stderrs, group_subtasks, model_args as string or object).
#include "fp8dash/core/lm_eval_results.h"

#include "evals/lm_eval_settings.h"
#include "text_util.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fp8dash {

using text::lower;
using text::trim;
namespace {

std::string typeName(const Json& j) {
    return j.type_name();
}

// Values a results file can hold for a number: a JSON number, or the strings our NaN rewriting produced.
std::optional<double> numberOf(const Json& j) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

// lm-eval's non-metric keys inside a task entry.
bool isBookkeepingKey(const std::string& key) {
    return key == "alias" || key == "samples" || key == " " || key == "name" || key == "sample_len" ||
           key == "sample_count";
}

std::string scalarToString(const Json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return "None";
    return v.dump();
}

// "pretrained=x,dtype=auto" -> pairs. lm-eval's own parser splits on ',' then on the first '='.
std::vector<std::pair<std::string, std::string>> parseModelArgsString(std::string_view s) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        auto end = s.find(',', start);
        if (end == std::string_view::npos) end = s.size();
        std::string_view part = s.substr(start, end - start);
        if (!trim(part).empty()) {
            auto eq = part.find('=');
            if (eq == std::string_view::npos)
                out.emplace_back(trim(part), "");
            else
                out.emplace_back(trim(part.substr(0, eq)), trim(part.substr(eq + 1)));
        }
        start = end + 1;
    }
    return out;
}

std::optional<long long> integerOf(const Json& j) {
    if (j.is_number_integer()) return j.get<long long>();
    if (j.is_number_float()) {
        const double d = j.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) return static_cast<long long>(d);
    }
    return std::nullopt;
}

}  // namespace

const MetricValue* TaskResult::find(std::string_view metricName, std::string_view filterName) const {
    for (const auto& m : metrics)
        if (m.name == metricName && m.filter == filterName) return &m;
    return nullptr;
}

std::optional<bool> TaskResult::higherIsBetterFor(std::string_view metric) const {
    for (const auto& [name, hib] : higherIsBetter)
        if (name == metric) return hib;
    return std::nullopt;
}

const TaskResult* LmEvalResults::task(std::string_view name) const {
    for (const auto& t : tasks)
        if (t.name == name) return &t;
    return nullptr;
}

const std::vector<std::string>* LmEvalResults::subtasksOf(std::string_view group) const {
    for (const auto& [name, subs] : groupSubtasks)
        if (name == group) return &subs;
    return nullptr;
}

std::optional<std::string> LmEvalResults::modelArg(std::string_view key) const {
    for (const auto& [k, v] : modelArgs)
        if (k == key) return v;
    return std::nullopt;
}

Result<LmEvalResults> parseLmEvalJson(const Json& doc, const std::string& src) {
    if (!doc.is_object())
        return Error{src + ": expected a JSON object (an lm-eval results file) at the top level, found " +
                     typeName(doc)};
    const auto resultsIt = doc.find("results");
    if (resultsIt == doc.end())
        return Error{src + ": field \"results\" is missing; this is not an lm-eval results file"};
    if (!resultsIt->is_object())
        return Error{src + ": field \"results\" must be an object of tasks, found " + typeName(*resultsIt)};

    LmEvalResults run;
    run.sourcePath = src;

    // v0.4.x keys are "<metric>,<filter>"; v0.3 keys have no comma. Decide once per file.
    bool v04 = false;
    for (const auto& [task, entry] : resultsIt->items()) {
        if (!entry.is_object())
            return Error{src + ": field results." + task + " must be an object of metrics, found " + typeName(entry)};
        for (const auto& [key, value] : entry.items())
            if (key.find(',') != std::string::npos) v04 = true;
    }
    run.formatLabel = v04 ? "v0.4" : "v0.3";

    const Json* hibAll = nullptr;
    if (auto it = doc.find("higher_is_better"); it != doc.end() && it->is_object()) hibAll = &*it;
    const Json* nShotAll = nullptr;
    if (auto it = doc.find("n-shot"); it != doc.end() && it->is_object()) nShotAll = &*it;
    const Json* nSamplesAll = nullptr;
    if (auto it = doc.find("n-samples"); it != doc.end() && it->is_object()) nSamplesAll = &*it;

    for (const auto& [taskName, entry] : resultsIt->items()) {
        TaskResult task;
        task.name = taskName;
        if (auto a = entry.find("alias"); a != entry.end() && a->is_string()) task.alias = a->get<std::string>();
        for (const auto& [key, value] : entry.items()) {
            if (isBookkeepingKey(key)) continue;
            MetricValue m;
            std::string stderrKey;
            if (v04) {
                const auto comma = key.find(',');
                if (comma == std::string::npos) continue;  // leaked ints such as "samples"
                m.name = key.substr(0, comma);
                m.filter = key.substr(comma + 1);
                if (m.name.size() >= 7 && m.name.ends_with("_stderr")) continue;
                stderrKey = m.name + "_stderr," + m.filter;
            } else {
                if (key.ends_with("_stderr")) continue;
                m.name = key;
                m.filter = "none";
                stderrKey = key + "_stderr";
            }
            auto v = numberOf(value);
            if (!v) continue;  // strings and objects are not scores
            m.key = key;
            m.value = *v;
            if (auto s = entry.find(stderrKey); s != entry.end()) {
                if (auto sv = numberOf(*s); sv && std::isfinite(*sv)) m.stderr_ = *sv;
            }
            task.metrics.push_back(std::move(m));
        }
        if (hibAll) {
            if (auto h = hibAll->find(taskName); h != hibAll->end() && h->is_object())
                for (const auto& [metric, flag] : h->items())
                    if (flag.is_boolean()) task.higherIsBetter.emplace_back(metric, flag.get<bool>());
        }
        if (nShotAll) {
            if (auto n = nShotAll->find(taskName); n != nShotAll->end()) task.nShot = integerOf(*n);
        }
        if (nSamplesAll) {
            if (auto n = nSamplesAll->find(taskName); n != nSamplesAll->end() && n->is_object()) {
                if (auto o = n->find("original"); o != n->end()) task.nSamplesOriginal = integerOf(*o);
                if (auto e = n->find("effective"); e != n->end()) task.nSamplesEffective = integerOf(*e);
            }
        }
        run.tasks.push_back(std::move(task));
    }

    if (auto it = doc.find("group_subtasks"); it != doc.end() && !it->is_null()) {
        if (!it->is_object())
            return Error{src + ": field \"group_subtasks\" must be an object, found " + typeName(*it)};
        for (const auto& [group, subs] : it->items()) {
            if (!subs.is_array())
                return Error{src + ": field group_subtasks." + group + " must be a list of task names, found " +
                             typeName(subs)};
            std::vector<std::string> names;
            for (const auto& s : subs) {
                if (!s.is_string())
                    return Error{src + ": field group_subtasks." + group + " must hold task names (strings), found " +
                                 typeName(s)};
                names.push_back(s.get<std::string>());
            }
            run.groupSubtasks.emplace_back(group, std::move(names));
        }
    }

    if (auto cfg = doc.find("config"); cfg != doc.end() && cfg->is_object()) {
        if (auto m = cfg->find("model"); m != cfg->end() && m->is_string()) run.modelBackend = m->get<std::string>();
        if (auto a = cfg->find("model_args"); a != cfg->end()) {
            if (a->is_string()) {
                run.modelArgs = parseModelArgsString(a->get_ref<const std::string&>());
            } else if (a->is_object()) {
                for (const auto& [k, v] : a->items()) run.modelArgs.emplace_back(k, scalarToString(v));
            } else if (!a->is_null()) {
                return Error{src + ": field config.model_args must be a string or an object, found " + typeName(*a)};
            }
        }
    }
    if (auto n = doc.find("model_name"); n != doc.end() && n->is_string()) run.modelName = n->get<std::string>();
    if (run.modelName.empty()) {
        if (auto p = run.modelArg("pretrained"))
            run.modelName = *p;
        else if (auto m = run.modelArg("model"))
            run.modelName = *m;
    }
    if (auto d = doc.find("date"); d != doc.end() && d->is_number()) {
        const double date = d->get<double>();
        if (std::isfinite(date)) run.date = date;
    }
    if (auto v = doc.find("lm_eval_version"); v != doc.end() && v->is_string())
        run.lmEvalVersion = v->get<std::string>();
    if (auto g = doc.find("git_hash"); g != doc.end() && g->is_string()) run.gitHash = g->get<std::string>();
    readRunSettings(doc, run);
    return run;
}

Result<LmEvalResults> parseLmEvalText(std::string_view text, const std::string& sourceName) {
    auto doc = parseJsonText(text, sourceName);
    if (!doc) return doc.error();
    return parseLmEvalJson(*doc, sourceName);
}

Json LmEvalResults::toJson() const {
    Json out = Json::object();
    Json results = Json::object();
    Json hib = Json::object();
    Json nShot = Json::object();
    Json nSamples = Json::object();
    const bool v03 = formatLabel == "v0.3";
    auto number = [](double v) -> Json {
        if (std::isnan(v)) return "NaN";
        if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
        return v;
    };
    for (const auto& t : tasks) {
        Json entry = Json::object();
        if (!t.alias.empty()) entry["alias"] = t.alias;
        for (const auto& m : t.metrics) {
            entry[m.key] = number(m.value);
            const std::string stderrKey = v03 ? m.name + "_stderr" : m.name + "_stderr," + m.filter;
            if (m.stderr_)
                entry[stderrKey] = *m.stderr_;
            else if (!v03)
                entry[stderrKey] = "N/A";
        }
        results[t.name] = std::move(entry);
        if (!t.higherIsBetter.empty()) {
            Json h = Json::object();
            for (const auto& [metric, flag] : t.higherIsBetter) h[metric] = flag;
            hib[t.name] = std::move(h);
        }
        if (t.nShot) nShot[t.name] = *t.nShot;
        if (t.nSamplesOriginal || t.nSamplesEffective) {
            Json n = Json::object();
            if (t.nSamplesOriginal) n["original"] = *t.nSamplesOriginal;
            if (t.nSamplesEffective) n["effective"] = *t.nSamplesEffective;
            nSamples[t.name] = std::move(n);
        }
    }
    out["results"] = std::move(results);
    if (!groupSubtasks.empty()) {
        Json gs = Json::object();
        for (const auto& [g, subs] : groupSubtasks) gs[g] = subs;
        out["group_subtasks"] = std::move(gs);
    }
    if (!hib.empty()) out["higher_is_better"] = std::move(hib);
    if (!nShot.empty()) out["n-shot"] = std::move(nShot);
    if (!nSamples.empty()) out["n-samples"] = std::move(nSamples);
    Json config = Json::object();
    if (!modelBackend.empty()) config["model"] = modelBackend;
    if (!modelArgs.empty()) {
        Json args = Json::object();
        for (const auto& [k, v] : modelArgs) args[k] = v;
        config["model_args"] = std::move(args);
    }
    out["config"] = std::move(config);
    if (!modelName.empty()) out["model_name"] = modelName;
    if (date) out["date"] = *date;
    if (!lmEvalVersion.empty()) out["lm_eval_version"] = lmEvalVersion;
    if (!gitHash.empty()) out["git_hash"] = gitHash;
    writeRunSettings(*this, out);
    return out;
}

}  // namespace fp8dash
