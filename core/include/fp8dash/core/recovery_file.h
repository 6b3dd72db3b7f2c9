#pragma once
// The crash-recovery file of an open comparison: what the desktop app autosaves while a document has unsaved
// changes, so that the next start after a crash can offer it back. It holds the whole document (in the comparison
// file's own JSON), where it came from, and the text the user was still typing (drafts of a note or a decision's
// reason, by name). Like the comparison file it never holds secrets: credentials are not part of a document.
// Layout: { "format": "fp8dash-recovery", "version": 1, "saved_at": "<ISO-8601 UTC>", "pid": 1234,
//           "original_path": "/home/ana/review.fp8cmp" | "", "display_name": "review.fp8cmp",
//           "drafts": { "note": "...", "decision_why": "..." }, "document": <comparison file JSON> }
// Written with writeFileAtomically, so a crash during an autosave leaves the previous recovery file. Thread-safe.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

inline constexpr std::string_view kRecoveryFormat = "fp8dash-recovery";

struct RecoveryRecord {
    ComparisonDocument document;
    std::string originalPath;  // the file the document was opened from or last saved to; empty: never saved
    std::string displayName;   // the window's name for it ("review.fp8cmp", "Untitled comparison")
    std::string savedAt;       // ISO-8601 UTC
    long long pid = 0;         // the process that wrote it (informative)
    std::map<std::string, std::string> drafts;  // unsent text by field name; empty values are left out
};

Json recoveryToJson(const RecoveryRecord& record);
Result<RecoveryRecord> parseRecoveryText(std::string_view text, const std::string& sourceName);
Result<RecoveryRecord> loadRecoveryFile(const std::filesystem::path& path);
Status saveRecoveryFile(const RecoveryRecord& record, const std::filesystem::path& path);

}  // namespace fp8dash
