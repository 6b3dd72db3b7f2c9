// Fuzz target: lm-eval per-sample logs (parseSampleLogText), in both layouts: labelled rows (lm-eval >= 0.4.7) and
// the old one whose filters are assigned by order. The first input byte picks the task's filter list.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fp8dash/core/sample_logs.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const std::vector<SampleTaskInfo> kInfos = {
        {"gsm8k", {"strict-match", "flexible-extract"}, true},
        {"arc_challenge", {"none"}, false},
        {"drop", {}, false},
        {"gsm8k", {"flexible-extract", "strict-match", "none"}, false},
    };
    const SampleTaskInfo& info = kInfos[data[0] % kInfos.size()];
    const std::string source = "fuzz/samples_" + info.task + "_2026-01-01T00-00-00.000001.jsonl";
    const auto text = fuzz::text(data + 1, size - 1);

    auto log = parseSampleLogText(text, source, info);
    if (!log) {
        fuzz::checkErrorNames(log.error().message, source);
        return 0;
    }
    const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    std::size_t counted = 0;
    for (const std::string& filter : log->filters) counted += log->rowsFor(filter).size();
    fuzz::check(counted == log->rows.size(), "rows of the filters do not add up to the rows");
    for (const SampleRow& row : log->rows) {
        fuzz::check(row.line >= 1 && row.line <= lines, "a row names a line outside the file");
        fuzz::check(std::find(log->filters.begin(), log->filters.end(), row.filter) != log->filters.end(),
                    "a row's filter is not among the log's filters", row.filter);
        for (const auto& [name, value] : row.values)
            fuzz::check(row.value(name) != nullptr, "a row does not find its own value", name);
    }
    return 0;
}
