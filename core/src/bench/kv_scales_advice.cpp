// Where an FP8 KV cache gets its scales in each vLLM release, and the one sentence of advice for it.
//
// The boundary, and how it was found (2026-12):
// - vllm-project/vllm PR #37201 (2026-03-16) deprecated --calculate-kv-scales; PR #37565 (2026-03-19) turned it off
//   for hybrid Mamba/GDN models, where it silently corrupted the scales.
// - PR #49389, "[Misc] Remove deprecated calculate_kv_scales runtime KV scale calculation" (opened and approved on
//   2026-07-22), landed on main as commit dd11df04f3b7046c40f13e586ac38a3725bc3c03 on 2026-08-03: "fp8 KV cache
//   scales now resolve via a single path: loaded from the checkpoint if present, otherwise defaulting to 1.0".
// - v0.26.0 was released on 2026-07-27, before that commit. v0.27.0/v0.27.1 (2026-08-10/13) still have the option:
//   vllm-project/vllm-ascend, whose CI runs against the v0.27.1 tag, gates its own use of it with
//   `vllm_version_is("0.27.1")` and the comment "vLLM v0.27.1 still supports runtime KV scale calculation. Upstream
//   main removed this state in vllm-project/vllm#49389" (vllm-ascend PR #14027, commit b4b04c5eb1, 2026-08-13).
// - v0.28.0 (commit 2cf0a6915ce544dc493a0990f2ea38d81601128a, 2026-08-26) is the next release, cut from main after
//   the removal; vllm-ascend PR #14898 dropped its v0.27.1 gates on moving to it ("v0.28.0 upstream matches main").
//   vLLM's own repository could not be read tag by tag here (its snapshot is over the size the tools bring in), so
//   the tag was placed from these commits and dates. So: the first release without the option is 0.28.
// The option arrived with PR #11906 ("[FP8][Kernel] Dynamic kv cache scaling factors computation", commit
// e97f802b2d on main on 2025-01-23, before v0.7.0 of 2025-01-27), so releases before 0.7 never had it either.
#include "fp8dash/core/kv_scales_advice.h"

namespace fp8dash {
namespace {

VllmVersion versionOf(const char* text) {
    auto v = parseVllmVersion(text);
    return v ? *v : VllmVersion{};
}

// A Python string literal in double quotes.
std::string pythonString(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

bool vllmHasCalculateKvScales(const VllmVersion& v) {
    static const VllmVersion first = versionOf(kVllmReleaseWithCalculateKvScales);
    static const VllmVersion gone = versionOf(kVllmReleaseWithoutCalculateKvScales);
    return !(v < first) && v < gone;
}

std::string kvScalesAdvice(const std::optional<VllmVersion>& v) {
    const VllmVersion version = v ? *v : versionOf(kDefaultVllmVersion);
    if (vllmHasCalculateKvScales(version)) return "--calculate-kv-scales computes them at start-up";
    return "use a checkpoint with calibrated KV scales (LLM Compressor: oneshot(..., "
           "recipe=QuantizationModifier(..., kv_cache_scheme=...))) — without one vLLM uses scales 1.0";
}

std::string llmCompressorKvScalesRecipe(std::string_view model, std::string_view outputDir) {
    // LLM Compressor's QuantizationModifier (QuantizationMixin.kv_cache_scheme: QuantizationArgs, calibrated from the
    // dataset) and oneshot(model, dataset, recipe, ..., output_dir), as in its examples/quantization_kv_cache: FP8
    // weights with per-token dynamic activations (the W8A8 of the ladder) and static per-tensor FP8 K/V scales.
    const std::string code =
        "from llmcompressor import oneshot; from llmcompressor.modifiers.quantization import QuantizationModifier; "
        "oneshot(model=" +
        pythonString(model) +
        ", dataset=\"perfectblend\", recipe=QuantizationModifier(targets=\"Linear\", scheme=\"FP8_DYNAMIC\", "
        "ignore=[\"lm_head\"], kv_cache_scheme={\"num_bits\": 8, \"type\": \"float\", \"strategy\": \"tensor\", "
        "\"dynamic\": False, \"symmetric\": True}), max_seq_length=2048, num_calibration_samples=512, output_dir=" +
        pythonString(outputDir) + ")";
    // One shell word: in single quotes, a quote inside written as '\''.
    std::string out = "python3 -c '";
    for (char c : code) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string llmCompressorKvScalesRecipe() {
    return llmCompressorKvScalesRecipe("MODEL", "MODEL-FP8-KV");
}

}  // namespace fp8dash
