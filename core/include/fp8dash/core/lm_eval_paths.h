#pragma once
// Where lm-eval writes its results and how it names tasks, as fp8dash reads them (lm_eval/loggers/
// evaluation_tracker.py and lm_eval/tasks/_factory.py, v0.4.3 to the 0.5 previews). Pure functions; thread-safe.
//
// Results files in a folder (readLmEvalPath, lm_eval_results.h): --output_path DIR writes
// DIR/<model>/results_<date>.json; --output_path <stem>.json writes <stem>_<date>.json beside it (lm-eval >= 0.4.3;
// the samples_<task>_<date>.jsonl go beside it too); 0.4.0-0.4.2 wrote DIR/results.json. The date id is
// YYYY-MM-DDTHH-MM-SS[.ffffff], so the newest file of a stem is the greatest name. A folder's file is the newest of
// its one stem (every results_*.json counts as the stem "results"), a plain results.json only when there is no dated
// file. Dated files of more than one stem (results_<date>.json beside fp8_<date>.json, or bf16_... beside fp8_...)
// are several runs: the folder is refused with each run's newest file named, rather than one picked by date.

#include <string>
#include <string_view>

namespace fp8dash {

// lm-eval 0.5 previews name a task or subgroup inside a group by its path, "<group>::<name>" ("glue::nli::rte").
// The last segment of such a path ("rte"); the name itself when it has no "::".
std::string_view taskLeafName(std::string_view task);

// The name a drill-down row shows under its parent row: the path after "<parent>::" ("nli::rte" under "glue",
// "rte" under "glue::nli"); any other name (every 0.4.x name) unchanged.
std::string taskNameUnder(std::string_view task, std::string_view parent);

}  // namespace fp8dash
