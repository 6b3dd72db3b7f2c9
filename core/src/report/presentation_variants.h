#pragma once
// The presentation's slides of several variants (presentation_deck.h): "Which FP8 layers to enable" and "What each FP8
// layer costs". Internal to core.

#include <optional>
#include <string>
#include <vector>

#include "fp8dash/core/presentation_deck.h"

namespace fp8dash::deck_variants {

// The non-empty parts joined by the separator (the deck's one joiner).
std::string joined(const std::vector<std::string>& parts, const std::string& separator);

// Which FP8 layers to enable: each variant's worst degradation against the bands, the recommended one marked.
std::optional<PresentationSlide> variantsSlide(const Decision& decision);
// What each FP8 layer costs: the layer steps' tasks with their figures and intervals; nullopt without a step.
std::optional<PresentationSlide> layerCostsSlide(const Decision& decision);
// What FP8 buys on your server (presentation_serving.cpp): the serving benchmarks' gain per candidate; nullopt without
// serving results.
std::optional<PresentationSlide> servingSlide(const Decision& decision);

}  // namespace fp8dash::deck_variants
