// Fuzz target: one page of Langfuse's score list (parseLangfuseScoresPage, the client's reading of a 200 response)
// under the filters that change what it reads, and Langfuse error bodies (langfuseServerMessage).
#include <cmath>
#include <cstdint>
#include <string>

#include "fp8dash/core/langfuse_client.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string body(fuzz::text(data, size));
    const std::string where = "GET https://langfuse.fuzz/api/public/v2/scores (page 2)";
    ScoreQuery plain;
    ScoreQuery everything;
    everything.allDataTypes = true;
    everything.name.clear();
    ScoreQuery byEnvironment;
    byEnvironment.environments = {"production", "fp8"};
    for (const ScoreQuery* query : {&plain, &everything, &byEnvironment}) {
        auto page = parseLangfuseScoresPage(body, *query, where);
        if (!page) {
            fuzz::checkErrorNames(page.error().message, where);
            continue;
        }
        fuzz::check(page->scores.size() <= page->items, "a page kept more scores than it holds");
        if (page->totalPages) fuzz::check(*page->totalPages >= 0, "a negative page count was accepted");
        for (const Score& s : page->scores) {
            fuzz::check(std::isfinite(s.timestamp), "a score without a finite timestamp was accepted");
            if (s.dataType == "NUMERIC" || s.dataType == "BOOLEAN")
                fuzz::check(!std::isnan(s.value), "a numeric score without a value was accepted");
            else
                fuzz::check(query->allDataTypes, "a non-numeric score was kept without allDataTypes", s.dataType);
        }
        (void)scoresToSeries(page->scores, "llm_judge_domain");
    }
    (void)langfuseServerMessage(body);
    return 0;
}
