// Fuzz target: comparison files (parseComparisonText, which migrates version 1 files to version 2 on the way in) and
// what opening one does next: decide() over everything it holds, the text report, and saving it again (a file that
// opened must save, and the saved bytes must open to the same document).
#include <cstdint>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_format.h"
#include "fuzz_support.h"

using namespace fp8dash;

namespace {

std::string savedBytes(const ComparisonDocument& doc) {
    // As saveComparisonFile serialises it.
    return toJson(doc).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string source = "fuzz/review.fp8cmp";
    auto doc = parseComparisonText(fuzz::text(data, size), source);
    if (!doc) {
        fuzz::checkErrorNames(doc.error().message, source);
        return 0;
    }
    // The bootstrap's cost is the file's to choose (up to 10 million resamples); the fuzzer looks at parsing.
    if (doc->judge && doc->judge->options.bootstrapIterations > 200) doc->judge->options.bootstrapIterations = 200;

    const std::string saved = savedBytes(*doc);
    auto reopened = parseComparisonText(saved, "fuzz/saved.fp8cmp");
    fuzz::check(reopened.ok(), "a comparison that opened does not reopen after saving",
                reopened.ok() ? "" : reopened.error().message);
    fuzz::check(savedBytes(*reopened) == saved, "saving a reopened comparison gives other bytes");

    auto decision = decide(*doc);
    if (!decision) {
        fuzz::checkErrorNames(decision.error().message, "");
        return 0;
    }
    (void)decisionToText(*decision, *doc, "fuzz");
    (void)decisionToJson(*decision).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
}
