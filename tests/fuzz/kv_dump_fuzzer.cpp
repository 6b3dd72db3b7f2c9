// Fuzz target: safetensors K/V dumps (kv_dump.h). The bytes as a whole file through openKvDump, then every layer
// loaded at its full length and at one token; and the bytes after the first eight as a header alone through
// parseKvDumpHeader, with those eight bytes as the file's size (so sizes up to 2^64 reach the offset arithmetic).
// Errors must name the file; what is accepted must fit the file it came from.
#include <cstdint>
#include <string>
#include <vector>

#include "fp8dash/gpu/kv_dump.h"
#include "fuzz_support.h"

using namespace fp8dash;

namespace {

// Elements of one of K or V in a layer.
std::uint64_t layerElements(const gpu::KvShape& s) {
    return static_cast<std::uint64_t>(s.kvHeads) * static_cast<std::uint64_t>(s.tokens) *
           static_cast<std::uint64_t>(s.headDim);
}

void fuzzFile(const std::uint8_t* data, std::size_t size) {
    static fuzz::ScratchFile scratch("dump.safetensors");
    const std::string path = scratch.write(fuzz::text(data, size)).string();
    std::shared_ptr<gpu::KvLayerSource> source;
    try {
        source = gpu::openKvDump(path);
    } catch (const gpu::KvSourceError& e) {
        fuzz::checkErrorNames(e.what(), path);
        return;
    }
    const gpu::KvShape s = source->shape();
    fuzz::check(s.layers > 0 && s.kvHeads > 0 && s.tokens > 0 && s.headDim > 0, "a dump with a zero size was accepted");
    // K and V of every layer, at least 2 bytes an element, lie inside the file.
    fuzz::check(2 * 2 * layerElements(s) * static_cast<std::uint64_t>(s.layers) <= size,
                "a dump larger than its file was accepted");
    fuzz::check(source->kind() == "dump", "a dump's kind is not \"dump\"");
    std::vector<float> keys, values;
    for (int layer = 0; layer < s.layers; ++layer)
        for (int tokens : {s.tokens, 1}) {
            source->loadLayer(layer, tokens, keys, values);
            const std::uint64_t expected =
                layerElements(s) / static_cast<std::uint64_t>(s.tokens) * static_cast<std::uint64_t>(tokens);
            fuzz::check(keys.size() == expected && values.size() == expected, "a layer has the wrong size");
        }
}

void fuzzHeader(const std::uint8_t* data, std::size_t size) {
    if (size < 8) return;
    std::uint64_t fileSize = 0;
    for (int i = 7; i >= 0; --i) fileSize = (fileSize << 8) | data[i];
    const std::string name = "fuzz.safetensors";
    gpu::KvDumpLayout layout;
    try {
        layout = gpu::parseKvDumpHeader(fuzz::text(data + 8, size - 8), fileSize, name);
    } catch (const gpu::KvSourceError& e) {
        fuzz::checkErrorNames(e.what(), name);
        return;
    }
    const std::uint64_t bytes =
        layerElements(layout.shape) * static_cast<std::uint64_t>(gpu::kvDumpDtypeSize(layout.dtype));
    fuzz::check(layout.keyOffset.size() == static_cast<std::size_t>(layout.shape.layers) &&
                    layout.valueOffset.size() == layout.keyOffset.size(),
                "one offset per layer");
    for (std::size_t l = 0; l < layout.keyOffset.size(); ++l)
        for (std::uint64_t offset : {layout.keyOffset[l], layout.valueOffset[l]})
            fuzz::check(offset >= 8 + (size - 8) && offset <= fileSize && bytes <= fileSize - offset,
                        "a layer's data lies outside the file");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzzFile(data, size);
    fuzzHeader(data, size);
    return 0;
}
