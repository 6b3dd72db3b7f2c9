#pragma once
// Upgrades of the comparison file's JSON from older format versions to the current one (kComparisonVersion), one
// step per version, applied in order before the file is read. Each step is a pure function of the JSON; the file on
// disk is not touched (it is written in the current version the next time it is saved).
//
// Version history:
//   1  fp8dash 0.1: runs, settings, notes (text, author, created, task), paired, judge, timeline, benchmarks,
//      capacity.
//   2  fp8dash 0.2: every note has an "id" (unique in the file; edits and deletions name it) and may have "edited";
//      the "review" section holds the recorded decisions. Step 1 -> 2 gives each note of a version-1 file the id
//      "n<k>" (k = its position, from 1) and adds an empty review.
// Thread-safe.

#include <string>
#include <vector>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/result.h"

namespace fp8dash {

// Migrates j (a comparison file's object, "version" = fromVersion >= 1) to the current version in place. Each step
// that ran adds one line to `applied` ("version 1 -> 2: ..."). Errors name the source and field.
Status migrateComparisonJson(Json& j, int fromVersion, const std::string& sourceName,
                             std::vector<std::string>* applied = nullptr);

}  // namespace fp8dash
