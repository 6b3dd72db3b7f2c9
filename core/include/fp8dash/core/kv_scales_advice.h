#pragma once
// Where an FP8 KV cache gets its scales, release by release of vLLM (README "KV scales in current vLLM"): until
// 0.27.x `--calculate-kv-scales` computed them at start-up; from 0.28 the option is gone (vllm-project/vllm PR
// #49389) and the scales come from the checkpoint when it has calibrated ones (an LLM Compressor `kv_cache_scheme`,
// a "-FP8-KV" checkpoint), else they are 1.0. Every sentence fp8dash prints about KV scales (the plan, its risk
// flags, the KV headline, the capacity advice, the slides and the layers card) comes from here, for the release it is
// about. Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "fp8dash/core/vllm_memory.h"

namespace fp8dash {

// The first vLLM release without --calculate-kv-scales (source in the .cpp comment).
inline constexpr const char* kVllmReleaseWithoutCalculateKvScales = "0.28";
// The first release with it (vllm-project/vllm PR #11906): before it there was no way to compute them at start-up.
inline constexpr const char* kVllmReleaseWithCalculateKvScales = "0.7";

// Whether `vllm serve` of that release takes --calculate-kv-scales (and its LLM(...) calculate_kv_scales=).
bool vllmHasCalculateKvScales(const VllmVersion& v);  // VllmVersion from vllm_memory.h

// One sentence each, for a risk flag / advice: how to get KV scales on that vLLM (nullopt: the newest known,
// kDefaultVllmVersion):
//  before the boundary: "--calculate-kv-scales computes them at start-up";
//  from it on: "use a checkpoint with calibrated KV scales (LLM Compressor: oneshot(..., recipe with
//  kv_cache_scheme ...)) — without one vLLM uses scales 1.0".
std::string kvScalesAdvice(const std::optional<VllmVersion>& v = std::nullopt);

// The LLM Compressor one-liner alone (for plan output and docs): a Python command that writes a checkpoint with FP8
// weights (W8A8) and calibrated FP8 KV scales. MODEL and MODEL-FP8-KV stand for the model and the folder it writes.
std::string llmCompressorKvScalesRecipe();
// The same for one model and output folder (the plan's).
std::string llmCompressorKvScalesRecipe(std::string_view model, std::string_view outputDir);

}  // namespace fp8dash
