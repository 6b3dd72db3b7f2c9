// The crash-recovery file (recovery_file.h).
#include "fp8dash/core/recovery_file.h"

namespace fp8dash {

Json recoveryToJson(const RecoveryRecord& r) {
    Json j = Json::object();
    j["format"] = kRecoveryFormat;
    j["version"] = 1;
    j["saved_at"] = r.savedAt;
    j["pid"] = r.pid;
    j["original_path"] = r.originalPath;
    j["display_name"] = r.displayName;
    Json drafts = Json::object();
    for (const auto& [key, value] : r.drafts)
        if (!value.empty()) drafts[key] = value;
    j["drafts"] = std::move(drafts);
    j["document"] = toJson(r.document);
    return j;
}

Result<RecoveryRecord> parseRecoveryText(std::string_view text, const std::string& src) {
    auto parsed = parseJsonText(text, src);
    if (!parsed) return parsed.error();
    const Json& j = *parsed;
    if (!j.is_object() || !j.contains("format") || j["format"] != kRecoveryFormat)
        return Error{src + ": not an fp8dash recovery file (field \"format\" must be \"" +
                     std::string(kRecoveryFormat) + "\")"};
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<long long>() != 1)
        return Error{src + ": field version: this build reads recovery files of version 1"};
    RecoveryRecord r;
    const auto str = [&](const char* key, std::string& out) -> Status {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return success();
        if (!it->is_string()) return Error{src + ": field " + key + " must be a string"};
        out = it->get<std::string>();
        return success();
    };
    for (auto [key, out] : {std::pair{"saved_at", &r.savedAt}, std::pair{"original_path", &r.originalPath},
                            std::pair{"display_name", &r.displayName}})
        if (auto s = str(key, *out); !s) return s.error();
    if (auto pid = j.find("pid"); pid != j.end() && pid->is_number_integer()) r.pid = pid->get<long long>();
    if (auto drafts = j.find("drafts"); drafts != j.end() && !drafts->is_null()) {
        if (!drafts->is_object()) return Error{src + ": field drafts must be an object"};
        for (const auto& [key, value] : drafts->items()) {
            if (!value.is_string()) return Error{src + ": field drafts." + key + " must be a string"};
            r.drafts[key] = value.get<std::string>();
        }
    }
    auto doc = j.find("document");
    if (doc == j.end()) return Error{src + ": field document is missing"};
    auto document = parseComparisonJson(*doc, src + " (document)");
    if (!document) return document.error();
    r.document = std::move(document).value();
    return r;
}

Result<RecoveryRecord> loadRecoveryFile(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return parseRecoveryText(*text, path.string());
}

Status saveRecoveryFile(const RecoveryRecord& record, const std::filesystem::path& path) {
    std::string bytes;
    try {
        bytes = recoveryToJson(record).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } catch (const std::exception& e) {
        return Error{path.string() + ": cannot serialise the recovery data: " + e.what()};
    }
    return writeFileAtomically(path, bytes);
}

}  // namespace fp8dash
