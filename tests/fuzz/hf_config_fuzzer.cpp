// Fuzz target: Hugging Face config.json files (readHfConfig on the bytes as a file; parseHfConfig) and the sizes the
// capacity planner computes from an accepted architecture, which must stay consistent (FP8 never larger than BF16,
// the parts adding up to the whole).
#include <cstdint>
#include <string>

#include "fp8dash/core/model_architecture.h"
#include "fuzz_support.h"

using namespace fp8dash;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::ScratchFile scratch("config.json");
    auto m = readHfConfig(scratch.write(fuzz::text(data, size)));
    if (!m) {
        fuzz::checkErrorNames(m.error().message, scratch.path().string());
        return 0;
    }
    fuzz::check(m->layers > 0 && m->hiddenSize > 0 && m->attentionHeads > 0 && m->kvHeads > 0 && m->headDim > 0,
                "an architecture with a zero size was accepted");
    fuzz::check(m->attentionHeads % m->kvHeads == 0, "KV heads that do not divide the heads were accepted");
    const std::uint64_t total = m->parameterCount();
    fuzz::check(
        total == m->embeddingParameters() + m->lmHeadParameters() + m->linearParameters() + m->normAndBiasParameters(),
        "the parameter counts do not add up");
    fuzz::check(m->kvBytesPerToken(StorageDtype::Fp8) * 2 == m->kvBytesPerToken(StorageDtype::Bf16),
                "FP8 KV is not half of BF16 KV");
    fuzz::check(m->weightsBytes(StorageDtype::Fp8) <= m->weightsBytes(StorageDtype::Bf16),
                "FP8 weights are larger than BF16 weights");
    fuzz::check(m->weightsBytes(StorageDtype::Bf16) == 2 * total, "BF16 weights are not 2 bytes per parameter");
    fuzz::check(m->weightsBytesReadPerStep(StorageDtype::Bf16) <= m->weightsBytes(StorageDtype::Bf16),
                "a decode step reads more than the weights");
    return 0;
}
