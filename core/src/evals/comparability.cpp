// The comparability rules (README "Comparable runs"). Where lm-eval writes each checked value: lm_eval_settings.h.
#include "fp8dash/core/comparability.h"

#include "fp8dash/core/fp8_config.h"
#include "fp8dash/core/model_identity.h"

#include "fp8dash/core/lm_eval_paths.h"
#include "text_util.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace fp8dash {

using text::trim;

namespace {

// ---- task names -------------------------------------------------------------------------------------------------

// lm-eval v0.3 -> v0.4 renamings, from the harness itself: the v0.3.0 task registry (lm_eval/tasks/__init__.py,
// TASK_REGISTRY; hendrycks_test.py `create_all_tasks` names the 57 MMLU subjects "hendrycksTest-<subject>") against
// the v0.4 task configs (lm_eval/tasks/mmlu/_generate_configs.py writes "mmlu_<subject>"; hendrycks_math/*.yaml
// "hendrycks_math_<subject>"; asdiv/default.yaml "asdiv"; headqa/headqa_es.yaml "headqa_es", which v0.3's "headqa"
// defaulted to; lambada_cloze/*.yaml "lambada_*_cloze_yaml"; squadv2/task.py registers "squadv2"). Tasks v0.4 split
// in two (v0.3 truthfulqa_mc -> truthfulqa_mc1 and _mc2, qasper -> qasper_bool and _freeform) have no single
// counterpart: --map pairs them by hand.
struct Renaming {
    const char* v03;  // a full name, or a prefix when it ends in '-' or '_' and `prefix` is set
    const char* v04;
    bool prefix;
};
constexpr Renaming kRenamings[] = {
    {"hendrycksTest-", "mmlu_", true},
    {"math_algebra", "hendrycks_math_algebra", false},
    {"math_counting_and_prob", "hendrycks_math_counting_and_prob", false},
    {"math_geometry", "hendrycks_math_geometry", false},
    {"math_intermediate_algebra", "hendrycks_math_intermediate_algebra", false},
    {"math_num_theory", "hendrycks_math_num_theory", false},
    {"math_prealgebra", "hendrycks_math_prealgebra", false},
    {"math_precalc", "hendrycks_math_precalc", false},
    {"math_asdiv", "asdiv", false},
    {"headqa", "headqa_es", false},
    {"lambada_openai_cloze", "lambada_openai_cloze_yaml", false},
    {"lambada_standard_cloze", "lambada_standard_cloze_yaml", false},
    {"squad2", "squadv2", false},
};

const Renaming* renamingFor(std::string_view name) {
    for (const auto& r : kRenamings)
        if (r.prefix ? name.starts_with(r.v03) && name.size() > std::string_view(r.v03).size() : name == r.v03)
            return &r;
    return nullptr;
}

void renameTask(LmEvalResults& run, const std::string& from, const std::string& to) {
    for (auto& t : run.tasks)
        if (t.name == from) t.name = to;
    for (auto& [group, subs] : run.groupSubtasks) {
        if (group == from) group = to;
        for (auto& s : subs)
            if (s == from) s = to;
    }
}

void dropTask(LmEvalResults& run, const std::string& name) {
    std::erase_if(run.tasks, [&](const TaskResult& t) { return t.name == name; });
    for (auto& [group, subs] : run.groupSubtasks) std::erase(subs, name);
}

Status applyMapping(MatchedRuns& m, const TaskMapping& map) {
    const std::string flag = "--map " + map.toString();
    if (!m.baseline.task(map.baseline))
        return Error{flag + ": the baseline has no task \"" + map.baseline + "\"" +
                     (m.candidate.task(map.baseline) ? " (the candidate has one)" : "")};
    if (!m.candidate.task(map.candidate))
        return Error{flag + ": the candidate has no task \"" + map.candidate + "\"" +
                     (m.baseline.task(map.candidate) ? " (the baseline has one)" : "")};
    if (map.baseline == map.candidate) return success();
    std::string message =
        "paired by hand (" + flag + "): the candidate's " + map.candidate + " is compared as " + map.baseline;
    if (m.candidate.task(map.baseline)) {
        dropTask(m.candidate, map.baseline);
        message += "; the candidate's own " + map.baseline + " is left out";
    }
    renameTask(m.candidate, map.candidate, map.baseline);
    m.notes.push_back({map.baseline, "task name", map.baseline, map.candidate, ComparabilitySeverity::Note, message});
    return success();
}

// Renames the v0.3 names of `old` that `other` has under their v0.4 name; one note per renaming rule.
void applyRenamings(LmEvalResults& old, const LmEvalResults& other, bool oldIsBaseline,
                    std::vector<ComparabilityItem>& notes) {
    std::map<const Renaming*, std::vector<std::pair<std::string, std::string>>> done;
    for (const auto& t : old.tasks) {
        if (other.task(t.name)) continue;
        const Renaming* r = renamingFor(t.name);
        if (!r) continue;
        const std::string to = r->prefix ? r->v04 + t.name.substr(std::string_view(r->v03).size()) : r->v04;
        if (other.task(to) && !old.task(to)) done[r].emplace_back(t.name, to);
    }
    for (const auto& [rule, pairs] : done) {
        for (const auto& [from, to] : pairs) renameTask(old, from, to);
        const std::string v03 = rule->prefix ? std::string(rule->v03) + "*" : pairs.front().first;
        const std::string v04 = rule->prefix ? std::string(rule->v04) + "*" : pairs.front().second;
        const std::string count = pairs.size() == 1 ? "" : std::to_string(pairs.size()) + " tasks: ";
        ComparabilityItem item{std::nullopt,
                               "task name",
                               v03,
                               v04,
                               ComparabilitySeverity::Note,
                               count + "lm-eval v0.4 renamed " + v03 + " (v0.3) to " + v04 + ": matched by name"};
        if (!oldIsBaseline) std::swap(item.baseline, item.candidate);
        notes.push_back(std::move(item));
    }
}

// ---- values -----------------------------------------------------------------------------------------------------

bool sameValue(const Json& a, const Json& b) {
    if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
    return a == b;
}

std::string show(const Json& v) {
    if (v.is_null()) return "none";
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

// null, "" and {} all mean "no generation settings given".
Json normalizedKwargs(const Json& v) {
    if (v.is_null() || (v.is_string() && trim(v.get<std::string>()).empty()) || (v.is_object() && v.empty()))
        return nullptr;
    return v;
}

const Json* setting(const LmEvalResults& run, const char* key) {
    auto it = run.runSettings.find(key);
    return it != run.runSettings.end() ? &*it : nullptr;
}

const Json* configSetting(const LmEvalResults& run, const char* key) {
    const Json* config = setting(run, "config");
    if (!config || !config->is_object()) return nullptr;
    auto it = config->find(key);
    return it != config->end() ? &*it : nullptr;
}

// Whether the run applied a chat template: config.apply_chat_template when a file says so, else whether lm-eval
// recorded a template (the tracker writes chat_template and its sha only when one was applied); unknown before
// v0.4.3, which records neither.
std::optional<bool> chatTemplateApplied(const LmEvalResults& run) {
    if (const Json* a = configSetting(run, "apply_chat_template"); a && a->is_boolean()) return a->get<bool>();
    if (const Json* a = configSetting(run, "apply_chat_template"); a && a->is_string()) return true;  // a name
    const Json* sha = setting(run, "chat_template_sha");
    const Json* tpl = setting(run, "chat_template");
    if (!sha && !tpl) return std::nullopt;
    return (sha && !sha->is_null()) || (tpl && !tpl->is_null());
}

bool isGroup(const LmEvalResults& run, const std::string& task) {
    const auto* subs = run.subtasksOf(task);
    return subs && !subs->empty();
}

Json nShotOf(const LmEvalResults& run, const TaskResult& t) {
    if (t.nShot) return *t.nShot;
    if (t.settings.numFewshot.is_number()) return t.settings.numFewshot;
    if (const Json* n = configSetting(run, "num_fewshot"); n && n->is_number()) return *n;  // v0.3: one count
    return nullptr;
}

std::string harnessVersion(const LmEvalResults& run) {
    if (!run.lmEvalVersion.empty()) return run.lmEvalVersion;
    if (run.formatLabel == "v0.3") return "v0.3 (format)";
    return run.gitHash.empty() ? "" : "git " + run.gitHash;
}

// ---- the check --------------------------------------------------------------------------------------------------

struct Pair {
    const TaskResult* b;
    const TaskResult* c;
};

struct Checker {
    const LmEvalResults& baseline;
    const LmEvalResults& candidate;
    std::vector<Pair> pairs;
    ComparabilityCheck out;

    void block(const std::string& task, const std::string& message) {
        auto& reason = out.blocked[task];
        reason += (reason.empty() ? "not comparable: " : "; ") + message;
    }
    void add(std::optional<std::string> task, std::string field, Json b, Json c, ComparabilitySeverity s,
             std::string message) {
        out.items.push_back({std::move(task), std::move(field), std::move(b), std::move(c), s, std::move(message)});
    }
    // A run-level difference that blocks the pairs `applies` selects (a note when it selects none).
    void runLevel(const std::string& field, const Json& b, const Json& c, const std::string& message,
                  const std::function<bool(const Pair&)>& applies) {
        std::size_t n = 0;
        for (const auto& p : pairs)  // groups follow their subtasks (blockGroups)
            if (!isGroup(baseline, p.b->name) && !isGroup(candidate, p.c->name) && applies(p)) {
                block(p.b->name, message);
                ++n;
            }
        add(std::nullopt, field, b, c, n ? ComparabilitySeverity::Blocking : ComparabilitySeverity::Note,
            message + (n ? "" : " (no compared task depends on it)"));
    }
    void perTask(const Pair& p, const std::string& field, const Json& b, const Json& c, const std::string& what) {
        if (b.is_null() || c.is_null() || sameValue(b, c)) return;
        const std::string message = what + " differs: baseline " + show(b) + ", candidate " + show(c);
        block(p.b->name, message);
        add(p.b->name, field, b, c, ComparabilitySeverity::Blocking, message);
    }

    void findPairs();
    void checkRunSettings();
    void checkTask(const Pair& p);
    void checkNotes();
    void blockGroups();
    bool identicalResults() const;
};

void Checker::findPairs() {
    for (const auto& bt : baseline.tasks) {
        const TaskResult* ct = candidate.task(bt.name);
        if (!ct) {  // lm-eval 0.5 paths ("arc::arc_easy") against 0.4 names: one task of that last segment
            for (const auto& t : candidate.tasks)
                if (taskLeafName(t.name) == taskLeafName(bt.name) && !baseline.task(t.name)) {
                    if (ct) {
                        ct = nullptr;
                        break;
                    }
                    ct = &t;
                }
        }
        if (ct) pairs.push_back({&bt, ct});
    }
}

void Checker::checkRunSettings() {
    auto both = [&](const char* key, bool config) -> std::optional<std::pair<Json, Json>> {
        const Json* b = config ? configSetting(baseline, key) : setting(baseline, key);
        const Json* c = config ? configSetting(candidate, key) : setting(candidate, key);
        if (!b || !c) return std::nullopt;
        return std::pair{*b, *c};
    };
    const auto all = [](const Pair&) { return true; };
    // Variants of one model only (README "Variants and layer steps"): an FP8 or other quantised checkpoint of the
    // baseline's model is one; another model (Llama-3-8B against Llama-3-8B-Instruct) is not, whatever its scores.
    // The names and the tokenizer facts lm-eval records decide (model_identity.h).
    const Fp8Config bc = detectFp8Config(baseline), cc = detectFp8Config(candidate);
    const ModelMatch match = matchModels(bc.model, cc.model, tokenizerFactsOf(baseline.runSettings),
                                         tokenizerFactsOf(candidate.runSettings));
    if (match.relation == ModelRelation::Different)
        runLevel("model", bc.model, cc.model,
                 "different models: baseline " + bc.model + ", candidate " + cc.model + " (" + match.reason +
                     "; a variant is an FP8 or other quantised checkpoint of the baseline's model)",
                 all);
    else if (!match.evidence.empty() && match.relation != ModelRelation::Unknown)
        add(std::nullopt, "model", bc.model, cc.model, ComparabilitySeverity::Note,
            "variants of one model: " + match.evidence);
    if (auto v = both("limit", true); v && !sameValue(v->first, v->second)) {
        // With lm-eval's per-task sample counts, those decide (a task smaller than both limits ran whole in both).
        runLevel("config.limit", v->first, v->second,
                 "--limit differs (config.limit): baseline " + show(v->first) + ", candidate " + show(v->second),
                 [](const Pair& p) { return !p.b->nSamplesEffective || !p.c->nSamplesEffective; });
    }
    if (auto v = both("gen_kwargs", true)) {
        const Json b = normalizedKwargs(v->first), c = normalizedKwargs(v->second);
        // lm-eval applies --gen_kwargs to generation tasks only (evaluator.py: output_type "generate_until").
        if (!sameValue(b, c))
            runLevel("config.gen_kwargs", b, c,
                     "generation settings differ (config.gen_kwargs): baseline " + show(b) + ", candidate " + show(c),
                     [](const Pair& p) {
                         const Json& t = p.b->settings.outputType;
                         return !t.is_string() || t.get<std::string>() == "generate_until";
                     });
    }
    const auto applied = std::pair{chatTemplateApplied(baseline), chatTemplateApplied(candidate)};
    if (applied.first && applied.second && *applied.first != *applied.second) {
        runLevel("apply_chat_template", *applied.first, *applied.second,
                 std::string("a chat template was applied in ") + (*applied.first ? "the baseline" : "the candidate") +
                     " only (apply_chat_template: baseline " + (*applied.first ? "true" : "false") + ", candidate " +
                     (*applied.second ? "true" : "false") + ")",
                 all);
    } else if (auto v = both("chat_template_sha", false);
               v && !v->first.is_null() && !v->second.is_null() && !sameValue(v->first, v->second)) {
        runLevel("chat_template_sha", v->first, v->second,
                 "the chat templates differ (chat_template_sha: baseline " + show(v->first) + ", candidate " +
                     show(v->second) + ")",
                 all);
    }
    if (auto v = both("fewshot_as_multiturn", false)) {
        // null (no chat template) and false both mean single-turn few-shot prompts.
        const bool b = v->first.is_boolean() && v->first.get<bool>(),
                   c = v->second.is_boolean() && v->second.get<bool>();
        if (b != c)
            runLevel("fewshot_as_multiturn", b, c,
                     std::string("few-shot examples as a multi-turn chat differ (fewshot_as_multiturn: baseline ") +
                         (b ? "true" : "false") + ", candidate " + (c ? "true" : "false") + ")",
                     all);
    }
    if (auto v = both("system_instruction_sha", false); v && !sameValue(v->first, v->second))
        runLevel("system_instruction_sha", v->first, v->second,
                 "the system instructions differ (system_instruction_sha: baseline " + show(v->first) + ", candidate " +
                     show(v->second) + ")",
                 all);
}

void Checker::checkTask(const Pair& p) {
    // Groups report n-shot 0 whatever their subtasks ran (data-formats.md §1.2): their subtasks are checked instead.
    if (!isGroup(baseline, p.b->name) && !isGroup(candidate, p.c->name)) {
        const Json b = nShotOf(baseline, *p.b), c = nShotOf(candidate, *p.c);
        if (!b.is_null() && !c.is_null() && !sameValue(b, c)) {
            const std::string message = "n-shot differs: baseline " + show(b) + "-shot, candidate " + show(c) + "-shot";
            block(p.b->name, message);
            add(p.b->name, "n-shot", b, c, ComparabilitySeverity::Blocking, message);
        }
    }
    // Task versions restarted with v0.4's task configs: a v0.3 version says nothing about a v0.4 one.
    if (baseline.formatLabel == candidate.formatLabel)
        perTask(p, "versions", p.b->settings.version, p.c->settings.version, "the task version (versions)");
    auto count = [](const std::optional<long long>& n) { return n ? Json(*n) : Json(nullptr); };
    perTask(p, "n-samples.original", count(p.b->nSamplesOriginal), count(p.c->nSamplesOriginal),
            "the task's size (n-samples.original)");
    perTask(p, "n-samples.effective", count(p.b->nSamplesEffective), count(p.c->nSamplesEffective),
            "the number of samples evaluated (n-samples.effective, set by --limit)");
    perTask(p, "task_hashes", p.b->settings.hash, p.c->settings.hash, "the task's prompts and targets (task_hashes)");
    perTask(p, "generation_kwargs", normalizedKwargs(p.b->settings.generationKwargs),
            normalizedKwargs(p.c->settings.generationKwargs), "the generation settings (configs.generation_kwargs)");
}

void Checker::checkNotes() {
    auto note = [&](const std::string& field, const Json& b, const Json& c, const std::string& what) {
        if (b.is_null() || c.is_null() || sameValue(b, c)) return;
        add(std::nullopt, field, b, c, ComparabilitySeverity::Note,
            what + " differs: baseline " + show(b) + ", candidate " + show(c));
    };
    const std::string hb = harnessVersion(baseline), hc = harnessVersion(candidate);
    if (!hb.empty() && !hc.empty()) note("lm_eval_version", hb, hc, "the lm-eval version");
    for (const char* seed : {"random_seed", "numpy_seed", "torch_seed", "fewshot_seed"}) {
        const Json* b = configSetting(baseline, seed);
        const Json* c = configSetting(candidate, seed);
        if (b && c) note(std::string("config.") + seed, *b, *c, std::string("the seed ") + seed);
    }
    if (const Json* b = configSetting(baseline, "batch_size"), *c = configSetting(candidate, "batch_size"); b && c)
        note("config.batch_size", *b, *c, "the batch size");
    if (const Json* b = setting(baseline, "max_length"), *c = setting(candidate, "max_length"); b && c)
        note("max_length", *b, *c, "the maximum length");
}

// A group whose subtask (at any depth) is blocked is blocked too: its score mixes that subtask in.
void Checker::blockGroups() {
    for (int round = 0; round < 16; ++round) {
        bool changed = false;
        for (const auto* run : {&baseline, &candidate})
            for (const auto& [group, subs] : run->groupSubtasks) {
                if (out.blocked.count(group)) continue;
                for (const auto& s : subs) {
                    auto it = out.blocked.find(s);
                    if (s == group || it == out.blocked.end()) continue;
                    out.blocked[group] = "not comparable: its subtask " + s + ": " +
                                         it->second.substr(std::string_view("not comparable: ").size());
                    changed = true;
                    break;
                }
            }
        if (!changed) break;
    }
}

bool Checker::identicalResults() const {
    if (baseline.tasks.empty() || baseline.tasks.size() != candidate.tasks.size()) return false;
    for (const auto& bt : baseline.tasks) {
        const TaskResult* ct = candidate.task(bt.name);
        if (!ct || ct->metrics.size() != bt.metrics.size()) return false;
        for (std::size_t i = 0; i < bt.metrics.size(); ++i) {
            const auto &mb = bt.metrics[i], &mc = ct->metrics[i];
            const bool sameNumber = mb.value == mc.value || (std::isnan(mb.value) && std::isnan(mc.value));
            if (mb.key != mc.key || !sameNumber || mb.stderr_ != mc.stderr_) return false;
        }
    }
    return true;
}

}  // namespace

std::string_view severityName(ComparabilitySeverity s) {
    return s == ComparabilitySeverity::Blocking ? "blocking" : "note";
}

Result<TaskMapping> TaskMapping::parse(std::string_view spec) {
    const auto eq = spec.find('=');
    TaskMapping m;
    if (eq != std::string_view::npos) {
        m.baseline = trim(spec.substr(0, eq));
        m.candidate = trim(spec.substr(eq + 1));
    }
    if (m.baseline.empty() || m.candidate.empty())
        return Error{"--map \"" + std::string(spec) + "\": expected BASE_TASK=CAND_TASK (two task names)"};
    return m;
}

std::string TaskMapping::toString() const {
    return baseline + "=" + candidate;
}

std::optional<std::string> v04TaskName(std::string_view v03Name) {
    const Renaming* r = renamingFor(v03Name);
    if (!r) return std::nullopt;
    return r->prefix ? r->v04 + std::string(v03Name.substr(std::string_view(r->v03).size())) : std::string(r->v04);
}

Result<MatchedRuns> matchTaskNames(const LmEvalResults& baseline, const LmEvalResults& candidate,
                                   const std::vector<TaskMapping>& map) {
    MatchedRuns m{baseline, candidate, {}};
    std::set<std::string> seen;
    for (const auto& pair : map) {
        if (!seen.insert(pair.baseline).second)
            return Error{"--map " + pair.toString() + ": the baseline's " + pair.baseline + " is mapped twice"};
        if (auto ok = applyMapping(m, pair); !ok) return ok.error();
    }
    applyRenamings(m.baseline, m.candidate, true, m.notes);
    applyRenamings(m.candidate, m.baseline, false, m.notes);
    return m;
}

ComparabilityCheck checkComparability(const LmEvalResults& baseline, const LmEvalResults& candidate) {
    Checker c{baseline, candidate, {}, {}};
    c.findPairs();
    c.checkRunSettings();
    for (const auto& p : c.pairs) c.checkTask(p);
    // The same scores under different settings (an edited n-shot) are a settings difference, not the same run.
    if (c.out.blocked.empty() && c.identicalResults()) {
        c.out.identical = true;
        const auto source = [](const LmEvalResults& r) { return r.sourcePath.empty() ? Json() : Json(r.sourcePath); };
        c.add(std::nullopt, "results", source(baseline), source(candidate), ComparabilitySeverity::Blocking,
              std::string(kIdenticalRunsMessage));
    }
    c.checkNotes();
    c.blockGroups();
    // Run-level items first (those with no task), each group in the order it was found.
    std::stable_partition(c.out.items.begin(), c.out.items.end(),
                          [](const ComparabilityItem& i) { return !i.task.has_value(); });
    return std::move(c.out);
}

std::vector<std::string> comparabilityReasons(const std::vector<ComparabilityItem>& items, bool allowIncomparable) {
    if (!allowIncomparable) return {};
    std::vector<const ComparabilityItem*> blocking;
    for (const auto& i : items)
        if (i.severity == ComparabilitySeverity::Blocking) blocking.push_back(&i);
    if (blocking.empty()) return {};
    const auto& first = *blocking.front();
    std::string line =
        "compared anyway although not comparable: " + (first.task ? *first.task + ": " : std::string()) + first.message;
    if (blocking.size() > 1)
        line += "; and " + std::to_string(blocking.size() - 1) + " more difference" +
                (blocking.size() == 2 ? "" : "s") + " (see comparability)";
    return {line};
}

Json comparabilityToJson(const std::vector<ComparabilityItem>& items) {
    Json out = Json::array();
    for (const auto& i : items)
        out.push_back({{"task", i.task ? Json(*i.task) : Json(nullptr)},
                       {"field", i.field},
                       {"baseline", i.baseline},
                       {"candidate", i.candidate},
                       {"severity", severityName(i.severity)},
                       {"message", i.message}});
    return out;
}

std::string comparabilityLine(const ComparabilityItem& item) {
    return "[" + std::string(severityName(item.severity)) + "] " + (item.task ? *item.task + ": " : std::string()) +
           item.message;
}

std::string renamingHint(const LmEvalResults& baseline, const LmEvalResults& candidate) {
    std::vector<std::string> onlyB, onlyC;
    for (const auto& t : baseline.tasks)
        if (!candidate.task(t.name)) onlyB.push_back(t.name);
    for (const auto& t : candidate.tasks)
        if (!baseline.task(t.name)) onlyC.push_back(t.name);
    if (onlyB.empty() || onlyC.empty()) return "";
    // The likeliest pair: the longest common prefix (gsm8k and gsm8k_cot_llama), else the first of each.
    std::size_t best = 0;
    std::pair<std::string, std::string> example{onlyB.front(), onlyC.front()};
    for (const auto& b : onlyB)
        for (const auto& c : onlyC) {
            std::size_t n = 0;
            while (n < b.size() && n < c.size() && b[n] == c[n]) ++n;
            if (n > best) {
                best = n;
                example = {b, c};
            }
        }
    // An example only when two names share a stem: a pair of unrelated names would read as advice.
    return "the runs name their tasks differently (" + std::to_string(onlyB.size()) + " only in the baseline, " +
           std::to_string(onlyC.size()) + " only in the candidate); if they are the same tasks under other names, " +
           "pair them with --map BASE_TASK=CAND_TASK" +
           (best >= 3 ? ", e.g. --map " + example.first + "=" + example.second : std::string());
}

}  // namespace fp8dash
