// The run and task settings of an lm-eval results file that decide whether two runs can be compared. Kept as the
// file's own JSON values (a version may be 1.0 or "Yaml"; a limit null, an integer or a fraction) so that a
// comparison file stores them exactly and re-checks offline.
#include "evals/lm_eval_settings.h"

namespace fp8dash {

namespace {

// config keys the check reads (v0.3's num_fewshot is the run's few-shot count; apply_chat_template appears in some
// forks' configs; lm-eval itself records the template, see the top-level keys).
constexpr const char* kConfigKeys[] = {"limit",      "gen_kwargs", "num_fewshot",  "apply_chat_template", "random_seed",
                                       "numpy_seed", "torch_seed", "fewshot_seed", "batch_size"};
constexpr const char* kTopLevelKeys[] = {"chat_template_sha", "fewshot_as_multiturn", "system_instruction_sha",
                                         "max_length",        "tokenizer_eos_token",  "tokenizer_bos_token",
                                         "eot_token_id"};

const Json* objectField(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_object() ? &*it : nullptr;
}

Json fieldOr(const Json* object, const std::string& key) {
    if (!object) return nullptr;
    auto it = object->find(key);
    return it != object->end() ? *it : Json(nullptr);
}

}  // namespace

void readRunSettings(const Json& doc, LmEvalResults& run) {
    const Json* versions = objectField(doc, "versions");
    const Json* hashes = objectField(doc, "task_hashes");
    const Json* configs = objectField(doc, "configs");
    for (auto& t : run.tasks) {
        t.settings.version = fieldOr(versions, t.name);
        t.settings.hash = fieldOr(hashes, t.name);
        const Json taskConfig = fieldOr(configs, t.name);
        if (taskConfig.is_object()) {
            t.settings.generationKwargs = fieldOr(&taskConfig, "generation_kwargs");
            t.settings.numFewshot = fieldOr(&taskConfig, "num_fewshot");
            t.settings.outputType = fieldOr(&taskConfig, "output_type");
        }
    }
    Json settings = Json::object();
    if (const Json* config = objectField(doc, "config")) {
        Json kept = Json::object();
        for (const char* key : kConfigKeys)
            if (auto it = config->find(key); it != config->end()) kept[key] = *it;
        if (!kept.empty()) settings["config"] = std::move(kept);
    }
    for (const char* key : kTopLevelKeys)
        if (auto it = doc.find(key); it != doc.end()) settings[key] = *it;
    // The template itself only says whether one was applied; its sha says which. Keep it only without a sha.
    if (auto it = doc.find("chat_template"); it != doc.end() && !settings.contains("chat_template_sha"))
        settings["chat_template"] = *it;
    run.runSettings = std::move(settings);
}

void writeRunSettings(const LmEvalResults& run, Json& out) {
    Json versions = Json::object(), hashes = Json::object(), configs = Json::object();
    bool anyHash = false;
    for (const auto& t : run.tasks) {
        if (!t.settings.version.is_null()) versions[t.name] = t.settings.version;
        if (!t.settings.hash.is_null()) {
            hashes[t.name] = t.settings.hash;
            anyHash = true;
        }
        Json c = Json::object();
        if (!t.settings.numFewshot.is_null()) c["num_fewshot"] = t.settings.numFewshot;
        if (!t.settings.outputType.is_null()) c["output_type"] = t.settings.outputType;
        if (!t.settings.generationKwargs.is_null()) c["generation_kwargs"] = t.settings.generationKwargs;
        if (!c.empty()) configs[t.name] = std::move(c);
    }
    if (!versions.empty()) out["versions"] = std::move(versions);
    if (anyHash) out["task_hashes"] = std::move(hashes);
    if (!configs.empty()) out["configs"] = std::move(configs);
    if (!run.runSettings.is_object()) return;
    for (const auto& [key, value] : run.runSettings.items()) {
        if (key == "config") {
            Json& config = out["config"];
            if (!config.is_object()) config = Json::object();
            for (const auto& [k, v] : value.items()) config[k] = v;
        } else {
            out[key] = value;
        }
    }
}

}  // namespace fp8dash
