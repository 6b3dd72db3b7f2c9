// The *.fp8cmp comparison file: versioned JSON, validated on load, written atomically (comparison_file.h).
#include "fp8dash/core/comparison_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include "document/hardware_risks.h"
#include "fp8dash/core/comparison_migrations.h"
#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/version.h"
#include "production/timeline_arrays.h"

namespace fp8dash {
namespace {

const char* const kKnownKeys[] = {"format", "version", "tool_version", "created",    "title",    "settings",
                                  "runs",   "notes",   "timeline",     "benchmarks", "capacity", "judge",
                                  "paired", "review",  "variants",     "serving"};

bool isKnownKey(const std::string& key) {
    for (const char* k : kKnownKeys)
        if (key == k) return true;
    return false;
}

// Reads an optional string field; wrong types are errors that name the field.
Status optionalString(const Json& obj, const char* key, std::string& out, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return success();
    if (!it->is_string()) return Error{where + "." + key + " must be a string, found " + it->type_name()};
    out = it->get<std::string>();
    return success();
}

Status optionalNumber(const Json& obj, const char* key, double& out, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end()) return success();
    if (!it->is_number() || !std::isfinite(it->get<double>()))
        return Error{where + "." + key + " must be a finite number, found " +
                     (it->is_number() ? it->dump() : std::string(it->type_name()))};
    out = it->get<double>();
    return success();
}

Result<RunRecord> parseRun(const Json& runs, const char* which, const std::string& src) {
    const std::string where = src + ": field runs." + which;
    auto it = runs.find(which);
    if (it == runs.end()) return Error{where + " is missing"};
    if (!it->is_object()) return Error{where + " must be an object, found " + it->type_name()};
    RunRecord run;
    const std::string side = which;
    run.label = side == "baseline" ? "BF16" : side == "control" ? "BF16 control" : "FP8";
    if (auto s = optionalString(*it, "label", run.label, src + ": field runs." + which); !s) return s.error();
    if (auto s = optionalString(*it, "source", run.sourcePath, src + ": field runs." + which); !s) return s.error();
    auto res = it->find("results");
    if (res == it->end()) return Error{where + ".results is missing"};
    auto parsed = parseLmEvalJson(*res, src + " (runs." + which + ".results)");
    if (!parsed) return parsed.error();
    run.results = std::move(parsed).value();
    run.results.sourcePath = "";
    return run;
}

Json pairedMapToJson(const std::map<std::string, PairedTaskResult>& paired) {
    Json out = Json::object();
    for (const auto& [task, r] : paired) out[task] = pairedToJson(r);
    return out;
}

Status parsePairedMap(const Json& paired, const std::string& where, std::map<std::string, PairedTaskResult>& out) {
    if (paired.is_null()) return success();
    if (!paired.is_object()) return Error{where + " must be an object of tasks"};
    for (const auto& [task, value] : paired.items()) {
        auto r = parsePairedJson(value, where + "." + task);
        if (!r) return r.error();
        if (r->task != task) return Error{where + "." + task + ".task is \"" + r->task + "\", not \"" + task + "\""};
        out.emplace(task, std::move(r).value());
    }
    return success();
}

Json runToJson(const RunRecord& run) {
    Json j = Json::object();
    j["label"] = run.label;
    if (!run.sourcePath.empty()) j["source"] = run.sourcePath;
    j["results"] = run.results.toJson();
    return j;
}

}  // namespace

std::string nowIso8601Utc() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

ComparisonDocument makeComparisonDocument(RunRecord baseline, RunRecord candidate, ComparisonOptions options) {
    ComparisonDocument doc;
    doc.toolVersion = FP8DASH_VERSION;
    doc.created = nowIso8601Utc();
    doc.baseline = std::move(baseline);
    doc.candidate = std::move(candidate);
    doc.options = std::move(options);
    const std::string model =
        doc.candidate.results.modelName.empty() ? doc.baseline.results.modelName : doc.candidate.results.modelName;
    doc.title = doc.baseline.label + " vs " + doc.candidate.label + (model.empty() ? "" : ": " + model);
    return doc;
}

std::string ComparisonDocument::newNoteId() const {
    return fp8dash::newNoteId(notes);
}

std::string newNoteId(const std::vector<Note>& notes) {
    // One past the largest "n<k>" in use; ids of another shape (a hand edit) are simply avoided.
    unsigned long long next = 1;
    for (const Note& n : notes) {
        if (n.id.size() < 2 || n.id[0] != 'n') continue;
        char* end = nullptr;
        const unsigned long long k = std::strtoull(n.id.c_str() + 1, &end, 10);
        if (end && *end == '\0' && k >= next) next = k + 1;
    }
    std::string id = "n" + std::to_string(next);
    while (std::any_of(notes.begin(), notes.end(), [&](const Note& n) { return n.id == id; })) id += "x";
    return id;
}

Result<ComparisonReport> ComparisonDocument::evaluate() const {
    if (!hasEvals) {
        std::string held;
        for (auto [present, what] :
             {std::pair{timeline.has_value(), "a production timeline"},
              std::pair{judge.has_value(), "a judge comparison"}, std::pair{benchmarks.has_value(), "local benchmarks"},
              std::pair{capacity.has_value(), "capacity inputs"}})
            if (present) held += (held.empty() ? "" : ", ") + std::string(what);
        return Error{"this comparison holds no eval runs (" + (held.empty() ? std::string("nothing else") : held) +
                     " only)"};
    }
    auto report = compareEvals(baseline.results, candidate.results, options, baseline.label, candidate.label);
    if (!report) return report;
    // The notes of a mismatch (a saved result for a task no longer compared) are dropped: the file stays readable.
    if (!paired.empty()) applyPairedResults(*report, paired);
    if (control) applyControlRun(*report, control->results, control->label);
    detail::addHardwareRisks(*report, *this);
    return report;
}

std::optional<Result<JudgeComparison>> ComparisonDocument::evaluateJudge() const {
    if (!judge) return std::nullopt;
    JudgeOptions o = judge->options;
    o.thresholds = options.thresholds;
    o.cautious = options.cautious;
    return compareJudgeScores(judge->baseline, judge->candidate, o);
}

Result<VariantComparison> ComparisonDocument::evaluateVariants() const {
    return evaluateVariants(evaluateServing());
}

Result<VariantComparison> ComparisonDocument::evaluateVariants(const std::optional<ServingComparison>& serving) const {
    if (!hasVariants()) return Error{"this comparison holds one candidate, not several variants"};
    std::vector<const RunRecord*> runs{&baseline, &candidate};
    for (const auto& c : moreCandidates) runs.push_back(&c.run);
    const auto judgeOf = [&](std::size_t k) -> const std::optional<JudgeSection>& {
        return k == 1 ? judge : moreCandidates[k - 2].judge;
    };
    std::vector<VariantEvidence> evidence;
    std::vector<Fp8Config> configs{detectFp8Config(baseline.results)};
    for (std::size_t k = 1; k < runs.size(); ++k) {
        auto report = compareEvals(baseline.results, runs[k]->results, options, baseline.label, runs[k]->label);
        if (!report) return Error{runs[k]->label + ": " + report.error().message};
        const auto& pairedK = k == 1 ? paired : moreCandidates[k - 2].paired;
        if (!pairedK.empty()) applyPairedResults(*report, pairedK);
        if (control) applyControlRun(*report, control->results, control->label);
        detail::addHardwareRisks(*report, *this);
        VariantEvidence e{runs[k]->label, std::move(report).value(), std::nullopt, ""};
        if (const auto& section = judgeOf(k)) {
            JudgeOptions o = section->options;
            o.thresholds = options.thresholds;
            o.cautious = options.cautious;
            auto j = compareJudgeScores(section->baseline, section->candidate, o);
            if (!j) return Error{runs[k]->label + ": judge: " + j.error().message};
            e.judgeVerdict = j->verdict;
            e.judgeReason = j->reason;
        }
        configs.push_back(e.report.candidateConfig);
        evidence.push_back(std::move(e));
    }
    std::vector<LayerStep> steps;
    for (const auto& plan : findLayerSteps(configs)) {
        const RunRecord& from = *runs[plan.from];
        const RunRecord& to = *runs[plan.to];
        auto report = compareEvals(from.results, to.results, options, from.label, to.label);
        if (!report) continue;  // e.g. the same results twice: no step to measure (the variants say so already)
        for (const auto& sp : stepPaired)
            if (sp.from == from.label && sp.to == to.label && !sp.paired.empty())
                applyPairedResults(*report, sp.paired);
        steps.push_back(LayerStep{plan, from.label, to.label, std::move(report).value(), {}});
    }
    return summarizeVariants(baseline.label, configs.front(), options.thresholds, std::move(evidence), std::move(steps),
                             recommendation, serving ? &*serving : nullptr);
}

std::vector<std::string> ComparisonDocument::runLabels() const {
    if (!hasEvals) return {};
    std::vector<std::string> labels{baseline.label, candidate.label};
    for (const auto& c : moreCandidates) labels.push_back(c.run.label);
    return labels;
}

std::optional<ServingComparison> ComparisonDocument::evaluateServing() const {
    if (!serving) return std::nullopt;
    ServingComparison c = compareServingSection(*serving, runLabels());
    // The same-model rule of the evals (DESIGN.md "What FP8 buys"): each run's serving results must measure the model
    // its evals measured, by the same base-model key the evals compare checkpoints with.
    std::vector<const RunRecord*> runs{&baseline, &candidate};
    for (const auto& m : moreCandidates) runs.push_back(&m.run);
    for (const RunRecord* run : hasEvals ? runs : std::vector<const RunRecord*>{}) {
        const ServingVariantResult* v = c.find(run->label);
        if (!v) continue;
        const std::string evalModel = detectFp8Config(run->results).model;
        const std::string servedKey = baseModelKey(v->model), evalKey = baseModelKey(evalModel);
        if (!servedKey.empty() && !evalKey.empty() && servedKey != evalKey)
            c.problems.push_back({true, "not comparable: the serving results of " + run->label + " measured " +
                                            v->model + ", its evals " + evalModel});
    }
    return c;
}

Result<Decision> decide(const ComparisonDocument& doc) {
    Decision d;
    d.serving = doc.evaluateServing();  // once: the two-run reason and the Decision share it
    // Each signal's verdict (if it gives one) and its reasons; the worst signal's reasons come first.
    std::vector<std::pair<std::optional<Verdict>, std::vector<std::string>>> signals;
    std::optional<Result<JudgeComparison>> judge;
    if (doc.hasEvals) {
        auto evals = doc.evaluate();
        if (!evals) return evals.error();
        std::vector<std::string> lines;
        if (doc.hasVariants()) {
            // Several candidates: the verdict is the deciding variant's (the recommended one, or the least severe
            // when none passes the gate), told with its own evals and judge; the recommendation and each variant
            // that does not pass are said beside it.
            auto variants = doc.evaluateVariants(d.serving);
            if (!variants) return variants.error();
            const Recommendation& rec = variants->recommendation;
            const std::size_t k = variants->deciding;
            lines.push_back("variants: " + rec.reason);
            for (const auto& r : variants->decidingVariant().report.reasons) lines.push_back("offline evals: " + r);
            for (const auto& r : rec.rejected)
                if (r.label != variants->decidingVariant().label)
                    lines.push_back("variants: " + r.label + " does not pass: " + r.reason);
            signals.emplace_back(variants->decidingVariant().report.verdict, std::move(lines));
            evals = variants->decidingVariant().report;
            const auto& section = k == 0 ? doc.judge : doc.moreCandidates[k - 1].judge;
            if (section) {
                JudgeOptions o = section->options;
                o.thresholds = doc.options.thresholds;
                o.cautious = doc.options.cautious;
                judge = compareJudgeScores(section->baseline, section->candidate, o);
            }
            if (doc.serving) signals.back().second.push_back("serving: " + rec.gain);
            d.variants = std::move(variants).value();
        } else {
            for (const auto& r : evals->reasons) lines.push_back("offline evals: " + r);
            if (const auto& serving = d.serving; serving && serving->variants.size() > 1) {
                const ServingVariantResult& c = serving->variants[1];
                lines.push_back("serving: " + (serving->blocked() ? "the serving gain was not weighed: " +
                                                                        serving->problems.front().text
                                               : c.gain ? c.gain->sentence
                                                        : std::string()));
            }
            signals.emplace_back(evals->verdict, std::move(lines));
            judge = doc.evaluateJudge();
        }
        d.evals = std::move(evals).value();
    } else {
        judge = doc.evaluateJudge();
    }
    if (judge) {
        if (!*judge) return Error{"judge: " + judge->error().message};
        signals.emplace_back((*judge)->verdict, std::vector<std::string>{"domain judge: " + (*judge)->reason});
        d.judge = std::move(*judge).value();
    }
    if (doc.timeline) {
        d.timeline = evaluateTimeline(*doc.timeline);
        std::vector<std::string> lines;
        for (const auto& r : d.timeline->reasons) lines.push_back("production: " + r);
        signals.emplace_back(d.timeline->verdict, std::move(lines));
    }
    const auto rank = [](const std::optional<Verdict>& v) { return v ? 1 + static_cast<int>(*v) : 0; };
    std::stable_sort(signals.begin(), signals.end(),
                     [&](const auto& a, const auto& b) { return rank(a.first) > rank(b.first); });
    for (const auto& [verdict, lines] : signals) {
        if (verdict) d.verdict = d.verdict ? worst(*d.verdict, *verdict) : *verdict;
        d.reasons.insert(d.reasons.end(), lines.begin(), lines.end());
    }
    return d;
}

namespace {

// The comparability options, written only when set so that files without them stay as they were.
void writeComparabilitySettings(const ComparisonOptions& o, Json& settings) {
    if (o.allowIncomparable) settings["allow_incomparable"] = true;
    if (o.taskMap.empty()) return;
    Json map = Json::array();
    for (const auto& m : o.taskMap) map.push_back(m.toString());
    settings["task_map"] = std::move(map);
}

Status readComparabilitySettings(const Json& settings, ComparisonOptions& o, const std::string& src) {
    if (auto a = settings.find("allow_incomparable"); a != settings.end() && !a->is_null()) {
        if (!a->is_boolean()) return Error{src + ": field settings.allow_incomparable must be true or false"};
        o.allowIncomparable = a->get<bool>();
    }
    if (auto map = settings.find("task_map"); map != settings.end() && !map->is_null()) {
        if (!map->is_array()) return Error{src + ": field settings.task_map must be a list"};
        for (const auto& m : *map) {
            if (!m.is_string())
                return Error{src + ": field settings.task_map must hold strings like \"gsm8k=gsm8k_cot_llama\""};
            auto parsed = TaskMapping::parse(m.get<std::string>());
            if (!parsed) return Error{src + ": field settings.task_map: " + parsed.error().message};
            o.taskMap.push_back(std::move(parsed).value());
        }
    }
    return success();
}

// "variants": {"candidates": [{label, source, results, paired, judge}], "steps": [{from, to, paired}],
//              "accept": "go", "min_recovery_pct": 95 (only when set)}: the candidates after the first.
Json variantsSectionToJson(const ComparisonDocument& doc) {
    Json candidates = Json::array();
    for (const auto& c : doc.moreCandidates) {
        Json cj = runToJson(c.run);
        if (!c.paired.empty()) cj["paired"] = pairedMapToJson(c.paired);
        if (c.judge) {
            JudgeSection section = *c.judge;
            section.options.cautious = doc.options.cautious;
            cj["judge"] = judgeSectionToJson(section);
        }
        candidates.push_back(std::move(cj));
    }
    Json steps = Json::array();
    for (const auto& st : doc.stepPaired)
        steps.push_back({{"from", st.from}, {"to", st.to}, {"paired", pairedMapToJson(st.paired)}});
    Json v = {{"candidates", std::move(candidates)},
              {"steps", std::move(steps)},
              {"accept", verdictName(doc.recommendation.accept)}};
    if (doc.recommendation.minRecoveryPct) v["min_recovery_pct"] = *doc.recommendation.minRecoveryPct;
    return v;
}

Status parseVariantsSection(const Json& v, const std::string& src, ComparisonDocument& doc) {
    const std::string where = src + ": field variants";
    if (!v.is_object()) return Error{where + " must be an object"};
    auto candidates = v.find("candidates");
    if (candidates == v.end() || !candidates->is_array()) return Error{where + ".candidates must be a list of runs"};
    if (candidates->size() + 1 > kMaxCandidates)
        return Error{where + ".candidates holds " + std::to_string(candidates->size()) + " runs; a comparison holds " +
                     std::to_string(kMaxCandidates) + " candidates at most"};
    for (std::size_t i = 0; i < candidates->size(); ++i) {
        const std::string name = "candidates[" + std::to_string(i) + "]";
        const Json holder = {{name, (*candidates)[i]}};
        auto run = parseRun(holder, name.c_str(), src + ": field variants");
        if (!run) return run.error();
        CandidateRecord c{std::move(run).value(), {}, std::nullopt};
        const Json& cj = (*candidates)[i];
        if (auto p = cj.find("paired"); p != cj.end())
            if (auto ok = parsePairedMap(*p, where + "." + name + ".paired", c.paired); !ok) return ok;
        if (auto jd = cj.find("judge"); jd != cj.end() && !jd->is_null()) {
            auto section = parseJudgeSection(*jd, where + "." + name + ".judge");
            if (!section) return section.error();
            c.judge = std::move(section).value();
        }
        doc.moreCandidates.push_back(std::move(c));
    }
    if (auto steps = v.find("steps"); steps != v.end() && !steps->is_null()) {
        if (!steps->is_array()) return Error{where + ".steps must be a list"};
        for (std::size_t i = 0; i < steps->size(); ++i) {
            const Json& st = (*steps)[i];
            const std::string w = where + ".steps[" + std::to_string(i) + "]";
            if (!st.is_object()) return Error{w + " must be an object"};
            StepPairedRecord rec;
            if (auto ok = optionalString(st, "from", rec.from, w); !ok) return ok.error();
            if (auto ok = optionalString(st, "to", rec.to, w); !ok) return ok.error();
            if (rec.from.empty() || rec.to.empty()) return Error{w + " needs the labels \"from\" and \"to\""};
            if (auto p = st.find("paired"); p != st.end())
                if (auto ok = parsePairedMap(*p, w + ".paired", rec.paired); !ok) return ok;
            doc.stepPaired.push_back(std::move(rec));
        }
    }
    if (auto a = v.find("accept"); a != v.end() && !a->is_null()) {
        const auto accept = a->is_string() ? parseVerdict(a->get<std::string>()) : std::nullopt;
        if (!accept || *accept == Verdict::Investigate)
            return Error{where + ".accept must be \"go\" or \"monitor\", found " + a->dump()};
        doc.recommendation.accept = *accept;
    }
    double minRecovery = 0;
    if (v.contains("min_recovery_pct")) {
        if (auto ok = optionalNumber(v, "min_recovery_pct", minRecovery, where); !ok) return ok;
        doc.recommendation.minRecoveryPct = minRecovery;
    }
    return success();
}

// timelineSamples false: "timeline" is null, in its place among the keys, for saveComparisonFile to write itself.
Json documentJson(const ComparisonDocument& doc, bool timeline) {
    Json j = Json::object();
    j["format"] = kComparisonFormat;
    j["version"] = doc.serving ? kComparisonVersion : kComparisonVersionWithoutServing;
    j["tool_version"] = doc.toolVersion.empty() ? std::string(FP8DASH_VERSION) : doc.toolVersion;
    j["created"] = doc.created;
    j["title"] = doc.title;
    Json overrides = Json::array();
    for (const auto& o : doc.options.overrides) overrides.push_back(o.toString());
    j["settings"] = {{"thresholds",
                      {{"go_below", doc.options.thresholds.goBelow},
                       {"investigate_above", doc.options.thresholds.investigateAbove}}},
                     {"metric_overrides", overrides},
                     {"cautious", doc.options.cautious}};
    writeComparabilitySettings(doc.options, j["settings"]);
    if (doc.hasEvals) {
        j["runs"] = {{"baseline", runToJson(doc.baseline)}, {"candidate", runToJson(doc.candidate)}};
        if (doc.control) j["runs"]["control"] = runToJson(*doc.control);
        if (!doc.paired.empty()) j["paired"] = pairedMapToJson(doc.paired);
        if (doc.hasVariants()) j["variants"] = variantsSectionToJson(doc);
    }
    if (doc.judge) {
        JudgeSection section = *doc.judge;
        section.options.cautious = doc.options.cautious;  // one policy per comparison: the settings' one
        j["judge"] = judgeSectionToJson(section);
    }
    Json notes = Json::array();
    // A note made by code that left the id empty still gets a unique one in the file.
    std::vector<Note> withIds = doc.notes;
    for (Note& n : withIds)
        if (n.id.empty()) n.id = newNoteId(withIds);
    for (const auto& n : withIds) {
        Json nj = Json::object();
        nj["id"] = n.id;
        nj["text"] = n.text;
        if (!n.author.empty()) nj["author"] = n.author;
        if (!n.created.empty()) nj["created"] = n.created;
        if (!n.edited.empty()) nj["edited"] = n.edited;
        if (!n.task.empty()) nj["task"] = n.task;
        notes.push_back(std::move(nj));
    }
    j["notes"] = std::move(notes);
    Json decisions = Json::array();
    for (const auto& d : doc.decisions) decisions.push_back(reviewDecisionToJson(d));
    j["review"] = {{"decisions", std::move(decisions)}};
    if (doc.timeline) j["timeline"] = timeline ? timelineToJson(*doc.timeline) : Json(nullptr);
    // The benchmarks are kept as gpu/ wrote them (plus "created"): raw is the section, the fields are its reading.
    if (doc.benchmarks && doc.benchmarks->raw.is_object()) j["benchmarks"] = doc.benchmarks->raw;
    if (doc.capacity) j["capacity"] = capacitySettingsToJson(*doc.capacity);
    if (doc.serving) j["serving"] = servingSectionToJson(*doc.serving);
    for (const auto& [key, value] : doc.otherSections.items())
        if (!isKnownKey(key)) j[key] = value;
    return j;
}

// The file's text: toJson(doc).dump(2) + "\n", byte for byte, except that the timeline's sample lists are written
// on one line each (detail::timelineJsonText), straight from the samples rather than through a JSON tree of them.
std::string comparisonFileText(const ComparisonDocument& doc) {
    const Json j = documentJson(doc, false);
    std::string out = "{\n";
    std::size_t k = 0;
    for (const auto& [key, value] : j.items()) {
        out += "  " + Json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ": ";
        if (key == "timeline" && doc.timeline) {
            out += detail::timelineJsonText(*doc.timeline, 2);
        } else {
            const std::string text = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
            for (const char c : text) {
                out += c;
                if (c == '\n') out += "  ";
            }
        }
        out += ++k < j.size() ? ",\n" : "\n";
    }
    out += "}\n";
    return out;
}

}  // namespace

Json toJson(const ComparisonDocument& doc) {
    return documentJson(doc, true);
}

Result<ComparisonDocument> parseComparisonText(std::string_view text, const std::string& src) {
    detail::TimelineArrays arrays;
    auto parsed = detail::parseJsonTextLiftingTimelineArrays(text, src, arrays);
    if (!parsed) return parsed.error();
    return detail::parseComparisonJson(std::move(parsed).value(), src, &arrays);
}

Result<ComparisonDocument> parseComparisonJson(Json j, const std::string& src) {
    return detail::parseComparisonJson(std::move(j), src, nullptr);
}

namespace {

// The "settings" object: thresholds, metric overrides, the cautious policy and the comparability settings.
Status parseComparisonSettings(const Json& settings, const std::string& src, ComparisonOptions& options) {
    if (!settings.is_object()) return Error{src + ": field settings must be an object"};
    if (auto th = settings.find("thresholds"); th != settings.end()) {
        if (!th->is_object()) return Error{src + ": field settings.thresholds must be an object"};
        const std::string w = src + ": field settings.thresholds";
        if (auto s = optionalNumber(*th, "go_below", options.thresholds.goBelow, w); !s) return s.error();
        if (auto s = optionalNumber(*th, "investigate_above", options.thresholds.investigateAbove, w); !s)
            return s.error();
        if (auto s = options.thresholds.validate(); !s)
            return Error{src + ": field settings.thresholds: " + s.error().message};
    }
    if (auto ovs = settings.find("metric_overrides"); ovs != settings.end()) {
        if (!ovs->is_array()) return Error{src + ": field settings.metric_overrides must be a list"};
        for (const auto& o : *ovs) {
            if (!o.is_string())
                return Error{src + ": field settings.metric_overrides must hold strings like \"gsm8k=exact_match\""};
            auto mo = MetricOverride::parse(o.get<std::string>());
            if (!mo) return Error{src + ": field settings.metric_overrides: " + mo.error().message};
            options.overrides.push_back(std::move(mo).value());
        }
    }
    if (auto c = settings.find("cautious"); c != settings.end() && !c->is_null()) {
        if (!c->is_boolean()) return Error{src + ": field settings.cautious must be true or false"};
        options.cautious = c->get<bool>();
    }
    if (auto s = readComparabilitySettings(settings, options, src); !s) return s.error();
    return success();
}

// The "notes" list: each note's text and unique id, its author, times and task.
Status parseComparisonNotes(const Json& notes, const std::string& src, std::vector<Note>& out) {
    if (!notes.is_array()) return Error{src + ": field notes must be a list"};
    for (std::size_t i = 0; i < notes.size(); ++i) {
        const Json& n = notes[i];
        const std::string w = src + ": field notes[" + std::to_string(i) + "]";
        if (!n.is_object()) return Error{w + " must be an object"};
        Note note;
        auto noteText = n.find("text");
        if (noteText == n.end() || !noteText->is_string()) return Error{w + ".text must be a string"};
        note.text = noteText->get<std::string>();
        auto id = n.find("id");
        if (id == n.end() || !id->is_string() || id->get<std::string>().empty())
            return Error{w + ".id must be a non-empty string"};
        note.id = id->get<std::string>();
        for (const Note& earlier : out)
            if (earlier.id == note.id) return Error{w + ".id \"" + note.id + "\" is used by an earlier note too"};
        if (auto s = optionalString(n, "author", note.author, w); !s) return s.error();
        if (auto s = optionalString(n, "created", note.created, w); !s) return s.error();
        if (auto s = optionalString(n, "edited", note.edited, w); !s) return s.error();
        if (auto s = optionalString(n, "task", note.task, w); !s) return s.error();
        out.push_back(std::move(note));
    }
    return success();
}

}  // namespace

Result<ComparisonDocument> detail::parseComparisonJson(Json j, const std::string& src, TimelineArrays* arrays) {
    if (!j.is_object()) return Error{src + ": not an fp8dash comparison file (expected a JSON object)"};
    auto fmt = j.find("format");
    if (fmt == j.end() || !fmt->is_string() || fmt->get<std::string>() != kComparisonFormat)
        return Error{src + ": not an fp8dash comparison file (field \"format\" must be \"" +
                     std::string(kComparisonFormat) + "\")"};
    auto ver = j.find("version");
    if (ver == j.end() || !ver->is_number_integer() || ver->get<long long>() < 1)
        return Error{src + ": field \"version\" must be a positive integer"};
    if (ver->get<long long>() > kComparisonVersion)
        return Error{src + ": was written by a newer fp8dash (comparison format version " +
                     std::to_string(ver->get<long long>()) + "; this build reads up to version " +
                     std::to_string(kComparisonVersion) + "). Update fp8dash to open it."};

    ComparisonDocument doc;
    doc.version = static_cast<int>(ver->get<long long>());
    if (doc.version < kComparisonVersion) {
        if (auto s = migrateComparisonJson(j, doc.version, src, &doc.migrations); !s) return s.error();
    }
    const std::string where = src + ": field";
    if (auto s = optionalString(j, "tool_version", doc.toolVersion, where); !s) return s.error();
    if (auto s = optionalString(j, "created", doc.created, where); !s) return s.error();
    if (auto s = optionalString(j, "title", doc.title, where); !s) return s.error();

    if (auto settings = j.find("settings"); settings != j.end())
        if (auto s = parseComparisonSettings(*settings, src, doc.options); !s) return s.error();

    if (auto tl = j.find("timeline"); tl != j.end() && !tl->is_null()) {
        auto timeline = detail::parseTimelineJson(*tl, src + ": field timeline", arrays);
        if (!timeline) return timeline.error();
        doc.timeline = std::move(timeline).value();
    }
    // Evidence beside the verdict: neither section changes it (decide() reads evals and the timeline only).
    if (auto bench = j.find("benchmarks"); bench != j.end() && !bench->is_null()) {
        auto results = parseBenchResults(*bench, src + ": field benchmarks");
        if (!results) return results.error();
        doc.benchmarks = std::move(results).value();
    }
    if (auto capacity = j.find("capacity"); capacity != j.end() && !capacity->is_null()) {
        auto settings = parseCapacitySettings(*capacity, src + ": field capacity");
        if (!settings) return settings.error();
        doc.capacity = std::move(settings).value();
    }
    if (auto serving = j.find("serving"); serving != j.end() && !serving->is_null()) {
        auto section = parseServingSectionJson(*serving, src + ": field serving");
        if (!section) return section.error();
        doc.serving = std::move(section).value();
    }
    if (auto judge = j.find("judge"); judge != j.end() && !judge->is_null()) {
        auto section = parseJudgeSection(*judge, src + ": field judge");
        if (!section) return section.error();
        doc.judge = std::move(section).value();
    }
    auto runs = j.find("runs");
    // Without runs, a file must hold some other evidence (a timeline, a judge comparison, local benchmarks or
    // capacity inputs); an empty document is an error.
    if (runs == j.end() && (doc.timeline || doc.judge || doc.benchmarks || doc.capacity)) {
        doc.hasEvals = false;
    } else {
        if (runs == j.end() || !runs->is_object())
            return Error{src +
                         ": field runs is missing or not an object (a comparison holds eval runs, a timeline, "
                         "a judge comparison, benchmarks, or several)"};
        auto baseline = parseRun(*runs, "baseline", src);
        if (!baseline) return baseline.error();
        auto candidate = parseRun(*runs, "candidate", src);
        if (!candidate) return candidate.error();
        doc.baseline = std::move(baseline).value();
        doc.candidate = std::move(candidate).value();
        if (auto control = runs->find("control"); control != runs->end() && !control->is_null()) {
            auto run = parseRun(*runs, "control", src);
            if (!run) return run.error();
            doc.control = std::move(run).value();
        }
        if (auto paired = j.find("paired"); paired != j.end())
            if (auto ok = parsePairedMap(*paired, src + ": field paired", doc.paired); !ok) return ok.error();
        if (auto variants = j.find("variants"); variants != j.end() && !variants->is_null())
            if (auto ok = parseVariantsSection(*variants, src, doc); !ok) return ok.error();
    }

    if (auto notes = j.find("notes"); notes != j.end() && !notes->is_null())
        if (auto s = parseComparisonNotes(*notes, src, doc.notes); !s) return s.error();
    if (auto review = j.find("review"); review != j.end() && !review->is_null()) {
        if (!review->is_object()) return Error{src + ": field review must be an object"};
        if (auto list = review->find("decisions"); list != review->end() && !list->is_null()) {
            if (!list->is_array()) return Error{src + ": field review.decisions must be a list"};
            for (std::size_t i = 0; i < list->size(); ++i) {
                auto d = parseReviewDecision((*list)[i], src + ": field review.decisions[" + std::to_string(i) + "]");
                if (!d) return d.error();
                doc.decisions.push_back(std::move(d).value());
            }
        }
    }
    for (const auto& [key, value] : j.items())
        if (!isKnownKey(key)) doc.otherSections[key] = value;
    return doc;
}

Result<ComparisonDocument> loadComparisonFile(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    detail::TimelineArrays arrays;
    auto parsed = detail::parseJsonTextLiftingTimelineArrays(*text, path.string(), arrays);
    // The sample lists are in `arrays` now: the text goes before the samples are built from them (peak memory).
    std::string().swap(*text);
    if (!parsed) return parsed.error();
    return detail::parseComparisonJson(std::move(parsed).value(), path.string(), &arrays);
}

Status saveComparisonFile(const ComparisonDocument& doc, const std::filesystem::path& path) {
    std::string bytes;
    try {
        bytes = comparisonFileText(doc);
    } catch (const std::exception& e) {
        return Error{path.string() + ": cannot serialise the comparison: " + e.what()};
    }
    return writeFileAtomically(path, bytes);
}

}  // namespace fp8dash
