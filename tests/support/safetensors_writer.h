#pragma once
// A small safetensors writer for the tests and the benchmark (K/V dumps as packaging/dump_kv_cache.py writes them):
// an unsigned 64-bit little-endian header length, the JSON header, the raw little-endian data. Written here by hand
// (no nlohmann) so that it also serves the GPU-only build; the header's text is built in the order the tensors come.
// Also the raw pieces, so a test can write a broken header on purpose. Header-only; pure functions.

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace fp8dash::test {

// One tensor: its name, safetensors dtype ("BF16", "F16", "F32", or anything for a broken file), shape and bytes.
struct StTensor {
    std::string name;
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::string bytes;  // raw little-endian data
};

// A tensor's entry without its data (the benchmark streams gigabytes): name, dtype, shape and byte count.
struct StTensorSpec {
    std::string name;
    std::string dtype;
    std::vector<std::uint64_t> shape;
    std::uint64_t byteCount = 0;
};

// The header's JSON for tensors laid out one after the other in the order given (data_offsets computed from the byte
// counts), with an optional "__metadata__" of string pairs.
inline std::string safetensorsHeader(const std::vector<StTensorSpec>& tensors,
                                     const std::vector<std::pair<std::string, std::string>>& metadata = {}) {
    std::string json = "{";
    bool first = true;
    if (!metadata.empty()) {
        json += "\"__metadata__\":{";
        for (std::size_t i = 0; i < metadata.size(); ++i)
            json += (i ? ",\"" : "\"") + metadata[i].first + "\":\"" + metadata[i].second + "\"";
        json += "}";
        first = false;
    }
    std::uint64_t offset = 0;
    for (const StTensorSpec& t : tensors) {
        json += (first ? "\"" : ",\"") + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) json += (i ? "," : "") + std::to_string(t.shape[i]);
        json += "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + t.byteCount) + "]}";
        offset += t.byteCount;
        first = false;
    }
    return json + "}";
}
inline std::string safetensorsHeader(const std::vector<StTensor>& tensors,
                                     const std::vector<std::pair<std::string, std::string>>& metadata = {}) {
    std::vector<StTensorSpec> specs;
    for (const StTensor& t : tensors) specs.push_back({t.name, t.dtype, t.shape, t.bytes.size()});
    return safetensorsHeader(specs, metadata);
}

// The 8-byte little-endian length, then the header.
inline std::string safetensorsPrefix(const std::string& headerJson) {
    std::string out(8, '\0');
    std::uint64_t n = headerJson.size();
    for (int i = 0; i < 8; ++i, n >>= 8) out[static_cast<std::size_t>(i)] = static_cast<char>(n & 0xff);
    return out + headerJson;
}

// A whole file: prefix, header, every tensor's bytes in order.
inline std::string safetensorsFile(const std::vector<StTensor>& tensors,
                                   const std::vector<std::pair<std::string, std::string>>& metadata = {}) {
    std::string out = safetensorsPrefix(safetensorsHeader(tensors, metadata));
    for (const StTensor& t : tensors) out += t.bytes;
    return out;
}

// Little-endian bytes of 16- and 32-bit patterns.
inline std::string le16(const std::vector<std::uint16_t>& bits) {
    std::string out;
    for (std::uint16_t b : bits) {
        out += static_cast<char>(b & 0xff);
        out += static_cast<char>(b >> 8);
    }
    return out;
}
inline std::string le32(const std::vector<std::uint32_t>& bits) {
    std::string out;
    for (std::uint32_t b : bits)
        for (int i = 0; i < 4; ++i) out += static_cast<char>((b >> (8 * i)) & 0xff);
    return out;
}

// A float's bit pattern, and its top 16 bits (the BF16 pattern of a float that BF16 holds exactly).
inline std::uint32_t floatBits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
inline std::uint16_t bf16BitsOfExact(float f) {
    return static_cast<std::uint16_t>(floatBits(f) >> 16);
}

inline void writeBinaryFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace fp8dash::test
