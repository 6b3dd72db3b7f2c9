#pragma once
// The words of the serving comparison (serving_comparison.h), shared by its sentences, its JSON and the reports:
// milliseconds, loads, SLO statistics and the one sentence of what a variant buys.
#include <string>

#include "fp8dash/core/serving_comparison.h"

namespace fp8dash::serving_words {

std::string ms(double v);                        // "2,310 ms", "48.7 ms", "9.84 ms"
std::string limitMs(double v);                   // an SLO limit as given: "2,000 ms", "12.5 ms"
std::string pct(double v);                       // "+14.9%", "-2.0%", "0.0%"
std::string statisticWords(const SloTarget& t);  // "p99 TTFT", "mean TPOT", "p99.9 E2E latency"
std::string loadCount(double v);                 // "24", "2.5"
// "FP8 W8A8 buys +14.9% output tokens/s within p99 TTFT ≤ 2,000 ms against BF16, and serves 40 instead of 24
// concurrent requests: 3 replicas instead of 5 for 120 concurrent requests", or why nothing measurable is bought.
std::string gainSentence(const ServingComparison& c, const ServingVariantResult& from, const ServingVariantResult& to,
                         const ServingGain& g);

}  // namespace fp8dash::serving_words
