// Fuzz target: lm-eval per-sample logs (parseSampleLogText), in both layouts: labelled rows (lm-eval >= 0.4.7) and
// the old one whose filters are assigned by order. The first input byte picks the task's filter list. The reader's
// On-Demand fast path must read every input as its general reader does: the same rows and values, or the same error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fp8dash/core/sample_logs.h"
#include "fuzz_support.h"

using namespace fp8dash;

namespace {

bool sameNumber(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
}

void checkSameAsGeneralReader(const Result<SampleLog>& fast, const Result<SampleLog>& general) {
    if (fast.ok() != general.ok())
        fuzz::check(false, "the fast path and the general reader disagree on success",
                    fast ? general.error().message : fast.error().message);
    if (!fast) {
        fuzz::check(fast.error().message == general.error().message, "the two readers give different errors",
                    fast.error().message);
        return;
    }
    fuzz::check(fast->labelled == general->labelled && fast->filters == general->filters &&
                    fast->warnings == general->warnings && fast->rows.size() == general->rows.size(),
                "the two readers read the file differently");
    for (std::size_t i = 0; i < fast->rows.size(); ++i) {
        const SampleRow& a = fast->rows[i];
        const SampleRow& b = general->rows[i];
        bool same = a.docId == b.docId && a.docHash == b.docHash && a.promptHash == b.promptHash &&
                    a.targetHash == b.targetHash && a.filter == b.filter && a.line == b.line &&
                    a.values.size() == b.values.size() && a.repeats.size() == b.repeats.size();
        for (std::size_t k = 0; same && k < a.values.size(); ++k)
            same = a.values[k].first == b.values[k].first && sameNumber(a.values[k].second, b.values[k].second);
        for (std::size_t k = 0; same && k < a.repeats.size(); ++k) {
            same = a.repeats[k].first == b.repeats[k].first && a.repeats[k].second.size() == b.repeats[k].second.size();
            for (std::size_t x = 0; same && x < a.repeats[k].second.size(); ++x)
                same = sameNumber(a.repeats[k].second[x], b.repeats[k].second[x]);
        }
        fuzz::check(same, "the two readers read a row differently", std::to_string(a.line));
    }
}

}  // namespace

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
    checkSameAsGeneralReader(log, detail::parseSampleLogTextGeneral(text, source, info));
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
