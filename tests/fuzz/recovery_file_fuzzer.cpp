// Fuzz target: crash-recovery files (parseRecoveryText), which wrap a whole comparison document; a record that
// parsed must be written back (recoveryToJson, as saveRecoveryFile serialises it) and read back the same.
#include <cstdint>
#include <map>
#include <string>

#include "fp8dash/core/recovery_file.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/1234.fp8recovery";
    auto record = parseRecoveryText(fuzz::text(data, size), source);
    if (!record) {
        fuzz::checkErrorNames(record.error().message, source);
        return 0;
    }
    const std::string saved = recoveryToJson(*record).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    auto back = parseRecoveryText(saved, "fuzz/saved.fp8recovery");
    fuzz::check(back.ok(), "a recovery record that parsed does not read back", back.ok() ? "" : back.error().message);
    fuzz::check(back->originalPath == record->originalPath && back->displayName == record->displayName &&
                    back->savedAt == record->savedAt && back->pid == record->pid,
                "a recovery record reads back with other fields");
    std::map<std::string, std::string> kept;  // empty drafts are not written
    for (const auto& [key, value] : record->drafts)
        if (!value.empty()) kept[key] = value;
    fuzz::check(back->drafts == kept, "a recovery record reads back with other drafts");
    fuzz::check(back->document.notes.size() == record->document.notes.size(), "a recovery record changed its notes");
    return 0;
}
