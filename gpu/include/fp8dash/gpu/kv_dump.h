#pragma once
// A real model's K/V cache, dumped to a safetensors file (packaging/dump_kv_cache.py writes one), as a KvLayerSource
// for the KV error sweep.
//
// safetensors (Hugging Face's format): an unsigned 64-bit little-endian header length N, N bytes of JSON
// ({"name": {"dtype": "BF16", "shape": [...], "data_offsets": [begin, end]}, ..., "__metadata__": {...}}, offsets
// relative to the first byte after the header), then the raw little-endian data. The K/V cache is either
//   - stacked: tensors "key" and "value", shape [layers, kv_heads, tokens, head_dim], or
//   - per layer: "layers.<i>.key" / "layers.<i>.value" for i = 0..layers-1, shape [kv_heads, tokens, head_dim];
// dtype BF16, F16 or F32 (one dtype for all of them), widened exactly to float (F16 by the exact conversion in
// kv_dump.cpp). Other tensors in the file are ignored.
//
// The header is read and checked in full when the file is opened; loadLayer then reads only the bytes of the
// requested layer's first T tokens (one read per head), so a 4 GiB dump never sits in memory.
// Plain C++, no Qt, no CUDA. The JSON header is parsed with nlohmann-json; a build without it (the GPU machine's
// FP8DASH_GPU_ONLY build) has openKvDump throw KvSourceError saying so.

#include "fp8dash/gpu/kv_source.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fp8dash::gpu {

enum class KvDumpDtype { Bf16, F16, F32 };

// "BF16", "F16", "F32" (safetensors' names).
const char* kvDumpDtypeName(KvDumpDtype dtype);
// Bytes per element: 2, 2, 4.
int kvDumpDtypeSize(KvDumpDtype dtype);

// IEEE 754 binary16 bits -> float, exactly (every half, subnormals, infinities and NaN included).
float halfBitsToFloat(std::uint16_t bits);

// Where each layer's K and V live in the file, as the checked header says.
struct KvDumpLayout {
    KvShape shape;  // tokens = every token the dump holds
    KvDumpDtype dtype = KvDumpDtype::Bf16;
    bool stacked = true;                   // "key"/"value" (true) or "layers.<i>.key"/"layers.<i>.value"
    std::vector<std::uint64_t> keyOffset;  // per layer: absolute file offset of its [kv_heads][tokens][head_dim]
    std::vector<std::uint64_t> valueOffset;
    std::string model;            // __metadata__ "model", when the dump names one ("" otherwise)
    std::uint64_t dataBytes = 0;  // bytes of K and V data together
};

// Checks a safetensors header (the N JSON bytes, without the 8-byte length before them) of a file of fileSize bytes
// in total, and says where the K/V data lie. Every check happens here: JSON syntax, tensor presence, dtype, rank and
// positive dimensions, equal K and V shapes, equal layer shapes, end - begin == elements * dtype size, offsets inside
// the file and not overlapping. Throws KvSourceError whose message starts with fileName and names the tensor.
// Pure: no file access (the fuzzer calls it on arbitrary bytes and sizes).
KvDumpLayout parseKvDumpHeader(std::string_view headerJson, std::uint64_t fileSize, const std::string& fileName);

// The most layers accepted (the largest models have ~130): a crafted shape cannot make the reader allocate per-layer
// tables of millions of entries.
inline constexpr std::uint64_t kMaxKvDumpLayers = 65536;

// The largest header accepted (safetensors' own reader refuses more than 100 MB too).
inline constexpr std::uint64_t kMaxKvDumpHeaderBytes = 100'000'000;

// Opens a dump and checks its header (parseKvDumpHeader). The source keeps the file open; its description() is the
// file's base name, the dtype and the model the metadata names. Throws KvSourceError (the message names the file)
// when the file cannot be read or its header is wrong.
std::shared_ptr<KvLayerSource> openKvDump(const std::string& path);

}  // namespace fp8dash::gpu
