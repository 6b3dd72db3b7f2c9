// The safetensors K/V dump reader (kv_dump.h): files written by the test writer (tests/support/safetensors_writer.h)
// in both layouts and the three dtypes read back the values chosen here (exact binary fractions, so the expected
// floats are known without any conversion code), F16 against a direct formula for all 65,536 patterns, and every
// broken file gives a message naming the file and the tensor.
#include "fp8dash/gpu/kv_dump.h"

#include "safetensors_writer.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace fp8dash::gpu {
namespace {

using test::StTensor;

// Exact in BF16 (and F16): multiples of 1/8 up to 15 in magnitude, of 1/64 up to ~1.5.
float keyValue(std::size_t i) {
    return static_cast<float>(static_cast<int>(i % 241) - 120) * 0.125f;
}
float valueValue(std::size_t i) {
    return static_cast<float>(static_cast<int>((i * 7) % 199) - 99) / 64.0f;
}

// F16 bits of a value that F16 holds exactly as a normal number (or zero), by frexp: independent of the reader.
std::uint16_t halfBitsOfExact(float v) {
    if (v == 0) return 0;
    int e = 0;
    const double m = std::frexp(std::fabs(static_cast<double>(v)), &e);  // v = m * 2^e, m in [0.5, 1)
    const auto exponent = static_cast<std::uint16_t>(e - 1 + 15);
    const auto mantissa = static_cast<std::uint16_t>(std::lround((m * 2 - 1) * 1024));
    return static_cast<std::uint16_t>((v < 0 ? 0x8000 : 0) | (exponent << 10) | mantissa);
}

std::string bf16Bytes(std::size_t n, float (*f)(std::size_t), std::size_t first = 0) {
    std::vector<std::uint16_t> bits;
    for (std::size_t i = 0; i < n; ++i) bits.push_back(test::bf16BitsOfExact(f(first + i)));
    return test::le16(bits);
}

std::string writeDump(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = (dir.path() / name).string();
    test::writeBinaryFile(path, bytes);
    return path;
}

// The message of the KvSourceError that opening `bytes` as a file raises ("" when it opens).
std::string openError(const std::string& bytes, const std::string& name = "bad.safetensors") {
    test::TempDir dir;
    const std::string path = writeDump(dir, name, bytes);
    try {
        openKvDump(path);
    } catch (const KvSourceError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << "the message does not start with the file: " << message;
        return message;
    }
    return "";
}

// A valid stacked BF16 dump of shape [L, H, T, D] (values keyValue / valueValue by flat index).
std::string stackedBf16(std::uint64_t L, std::uint64_t H, std::uint64_t T, std::uint64_t D) {
    const std::size_t n = L * H * T * D;
    return test::safetensorsFile({{"key", "BF16", {L, H, T, D}, bf16Bytes(n, keyValue)},
                                  {"value", "BF16", {L, H, T, D}, bf16Bytes(n, valueValue)}},
                                 {{"format", "pt"}, {"model", "meta-llama/Llama-3.1-8B"}});
}

TEST(KvDump, StackedBf16ReadsTheFirstTokensOfEachHead) {
    test::TempDir dir;
    constexpr int L = 3, H = 2, T = 5, D = 4;
    const auto source = openKvDump(writeDump(dir, "llama.safetensors", stackedBf16(L, H, T, D)));
    const KvShape s = source->shape();
    EXPECT_EQ(s.layers, L);
    EXPECT_EQ(s.kvHeads, H);
    EXPECT_EQ(s.tokens, T);
    EXPECT_EQ(s.headDim, D);
    EXPECT_EQ(source->kind(), "dump");
    EXPECT_EQ(source->description(), "llama.safetensors (BF16, meta-llama/Llama-3.1-8B)");

    for (int tokens : {1, 3, T}) {
        for (int layer = 0; layer < L; ++layer) {
            std::vector<float> keys, values;
            source->loadLayer(layer, tokens, keys, values);
            ASSERT_EQ(keys.size(), static_cast<std::size_t>(H * tokens * D));
            ASSERT_EQ(values.size(), keys.size());
            for (int h = 0; h < H; ++h)
                for (int t = 0; t < tokens; ++t)
                    for (int d = 0; d < D; ++d) {
                        const std::size_t file = static_cast<std::size_t>(((layer * H + h) * T + t) * D + d);
                        const std::size_t got = static_cast<std::size_t>((h * tokens + t) * D + d);
                        ASSERT_EQ(keys[got], keyValue(file)) << layer << " " << h << " " << t << " " << d;
                        ASSERT_EQ(values[got], valueValue(file)) << layer << " " << h << " " << t << " " << d;
                    }
        }
    }
}

TEST(KvDump, PerLayerF16ReadsEachLayersTensors) {
    test::TempDir dir;
    constexpr std::uint64_t L = 2, H = 3, T = 4, D = 2;
    auto f16 = [](float (*f)(std::size_t), std::size_t first) {
        std::vector<std::uint16_t> bits;
        for (std::size_t i = 0; i < H * T * D; ++i) bits.push_back(halfBitsOfExact(f(first + i)));
        return test::le16(bits);
    };
    // Layer 1's tensors come first in the data and the names are not in order: the reader follows the offsets.
    std::vector<StTensor> tensors;
    for (std::uint64_t l = L; l-- > 0;) {
        tensors.push_back({"layers." + std::to_string(l) + ".value", "F16", {H, T, D}, f16(valueValue, l * 1000)});
        tensors.push_back({"layers." + std::to_string(l) + ".key", "F16", {H, T, D}, f16(keyValue, l * 1000)});
    }
    tensors.push_back({"position_ids", "I64", {T}, std::string(T * 8, '\0')});  // other tensors are ignored
    const auto source = openKvDump(writeDump(dir, "qwen.safetensors", test::safetensorsFile(tensors)));
    EXPECT_EQ(source->shape().layers, 2);
    EXPECT_EQ(source->shape().kvHeads, 3);
    EXPECT_EQ(source->shape().tokens, 4);
    EXPECT_EQ(source->shape().headDim, 2);
    EXPECT_EQ(source->description(), "qwen.safetensors (F16)");
    for (std::uint64_t l = 0; l < L; ++l) {
        std::vector<float> keys, values;
        source->loadLayer(static_cast<int>(l), 2, keys, values);
        ASSERT_EQ(keys.size(), H * 2 * D);
        for (std::uint64_t h = 0; h < H; ++h)
            for (std::uint64_t t = 0; t < 2; ++t)
                for (std::uint64_t d = 0; d < D; ++d) {
                    const std::size_t file = l * 1000 + (h * T + t) * D + d;
                    EXPECT_EQ(keys[(h * 2 + t) * D + d], keyValue(file));
                    EXPECT_EQ(values[(h * 2 + t) * D + d], valueValue(file));
                }
    }
}

TEST(KvDump, F32KeepsEveryBitPattern) {
    test::TempDir dir;
    constexpr std::uint64_t H = 2, T = 3, D = 5;
    std::mt19937 rng(7);
    std::vector<std::uint32_t> k, v;
    for (std::size_t i = 0; i < H * T * D; ++i) {
        std::uint32_t a = rng(), b = rng();
        if ((a & 0x7f800000u) == 0x7f800000u) a &= 0xbfffffffu;  // no NaN/inf: compared as values below
        if ((b & 0x7f800000u) == 0x7f800000u) b &= 0xbfffffffu;
        k.push_back(a);
        v.push_back(b);
    }
    k[0] = 0x80000000u;  // -0
    k[1] = 0x00000001u;  // the smallest subnormal
    const auto source = openKvDump(writeDump(dir, "f32.safetensors",
                                             test::safetensorsFile({{"key", "F32", {1, H, T, D}, test::le32(k)},
                                                                    {"value", "F32", {1, H, T, D}, test::le32(v)}})));
    std::vector<float> keys, values;
    source->loadLayer(0, static_cast<int>(T), keys, values);
    ASSERT_EQ(keys.size(), k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
        EXPECT_EQ(test::floatBits(keys[i]), k[i]) << i;
        EXPECT_EQ(test::floatBits(values[i]), v[i]) << i;
    }
}

TEST(KvDump, HalfToFloatIsExactForEveryPattern) {
    for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
        const int sign = (bits & 0x8000) ? -1 : 1;
        const int exponent = static_cast<int>((bits >> 10) & 0x1f);
        const int mantissa = static_cast<int>(bits & 0x3ff);
        const float got = halfBitsToFloat(static_cast<std::uint16_t>(bits));
        if (exponent == 31) {
            if (mantissa == 0)
                EXPECT_EQ(got, sign * INFINITY) << bits;
            else
                EXPECT_TRUE(std::isnan(got)) << bits;
            continue;
        }
        // binary16: subnormal m * 2^-24, normal (1024 + m) * 2^(e - 25).
        const double expected =
            exponent == 0 ? sign * std::ldexp(mantissa, -24) : sign * std::ldexp(1024 + mantissa, exponent - 25);
        ASSERT_EQ(static_cast<double>(got), expected) << bits;
        ASSERT_EQ(std::signbit(got), sign < 0) << bits;
    }
}

TEST(KvDump, LocalModelPathsAreCutToTheirLastPart) {
    test::TempDir dir;
    const std::string bytes = test::safetensorsFile({{"key", "BF16", {1, 1, 1, 2}, bf16Bytes(2, keyValue)},
                                                     {"value", "BF16", {1, 1, 1, 2}, bf16Bytes(2, keyValue)}},
                                                    {{"model", "/home/alice/models/my-llama/"}});
    EXPECT_EQ(openKvDump(writeDump(dir, "a.safetensors", bytes))->description(), "a.safetensors (BF16, my-llama)");
}

TEST(KvDump, LoadLayerOutsideTheShapeIsRefused) {
    test::TempDir dir;
    const auto source = openKvDump(writeDump(dir, "d.safetensors", stackedBf16(2, 1, 4, 2)));
    std::vector<float> k, v;
    EXPECT_THROW(source->loadLayer(-1, 1, k, v), std::invalid_argument);
    EXPECT_THROW(source->loadLayer(2, 1, k, v), std::invalid_argument);
    EXPECT_THROW(source->loadLayer(0, 0, k, v), std::invalid_argument);
    try {
        source->loadLayer(0, 5, k, v);
        ADD_FAILURE() << "5 tokens of 4 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("the dump holds 4"), std::string::npos) << e.what();
    }
}

TEST(KvDump, AFileShortenedAfterOpeningFailsTheLoadNamingTheTensor) {
    test::TempDir dir;
    const std::string path = writeDump(dir, "d.safetensors", stackedBf16(2, 2, 4, 2));
    const auto source = openKvDump(path);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 40);
    std::vector<float> k, v;
    try {
        source->loadLayer(1, 4, k, v);
        ADD_FAILURE() << "a shortened file was read";
    } catch (const KvSourceError& e) {
        EXPECT_NE(std::string(e.what()).find("tensor \"value\": the file ends inside layer 1"), std::string::npos)
            << e.what();
    }
}

// Expects the error of opening `bytes` to contain `part`.
void expectError(const std::string& bytes, const std::string& part) {
    const std::string message = openError(bytes);
    EXPECT_NE(message.find(part), std::string::npos) << "expected \"" << part << "\" in: " << message;
}

std::string withHeader(const std::string& header, std::size_t dataBytes) {
    return test::safetensorsPrefix(header) + std::string(dataBytes, '\0');
}

TEST(KvDump, BrokenFilesNameTheFileAndTheTensor) {
    const std::string kv = R"("key":{"dtype":"BF16","shape":[1,1,2,2],"data_offsets":[0,8]},)"
                           R"("value":{"dtype":"BF16","shape":[1,1,2,2],"data_offsets":[8,16]})";
    ASSERT_EQ(openError(withHeader("{" + kv + "}", 16)), "");  // the baseline opens

    expectError("abc", "less than the 8-byte header length");
    expectError(withHeader("{}", 0), "no K/V tensors");
    std::string tooLong = withHeader("{" + kv + "}", 16);
    tooLong[0] = static_cast<char>(0xff);
    tooLong[3] = 0x01;
    expectError(tooLong, "more than the file's remaining");
    expectError(withHeader("{\"key\": [", 0), "not valid JSON");
    expectError(withHeader("[1,2]", 0), "not a JSON object");
    // Found by kv_dump_fuzzer (regressions/kv_dump/header-number-2e308.safetensors): nlohmann reports a number past
    // double's range as out_of_range, not parse_error; it escaped the reader.
    expectError(withHeader(R"({"key": 2e308})", 0), "not valid JSON: [json.exception.out_of_range.406]");
    expectError(withHeader(R"({"__metadata__":[]})", 0), "\"__metadata__\" is not an object");
    expectError(withHeader(R"({"weight":{"dtype":"BF16","shape":[1],"data_offsets":[0,2]}})", 2),
                "no K/V tensors: expected \"key\" and \"value\"");
    expectError(withHeader(R"({"key":{"dtype":"BF16","shape":[1,1,2,2],"data_offsets":[0,8]}})", 8),
                "tensor \"value\" is missing");
    std::string s = "{" + kv + "}";
    expectError(withHeader(std::string(s).replace(s.find("BF16"), 4, "I8"), 16),
                "tensor \"key\": dtype \"I8\" is not supported (expected BF16, F16 or F32)");
    expectError(withHeader(std::string(s).replace(s.find("[1,1,2,2]"), 9, "[1,2,2]"), 16),
                "tensor \"key\": shape [1,2,2] has rank 3, expected 4 [layers, kv_heads, tokens, head_dim]");
    expectError(withHeader(std::string(s).replace(s.find("[1,1,2,2]"), 9, "[1,0,2,2]"), 16),
                "tensor \"key\": shape [1,0,2,2] [layers, kv_heads, tokens, head_dim]: every dimension must be");
    expectError(withHeader(std::string(s).replace(s.find("[1,1,2,2]"), 9, "[1,-1,2,2]"), 16),
                "tensor \"key\": shape [1,-1,2,2] holds something that is not a whole number");
    expectError(withHeader(std::string(s).replace(s.find("[1,1,2,2]"), 9, "[1,1,2,3]"), 16),
                "tensor \"key\": shape [1,1,2,3] needs 12 bytes of BF16, data_offsets give 8");
    expectError(withHeader("{" + kv + "}", 12),
                "tensor \"value\": data_offsets [8, 16] reach past the file's 12 "
                "bytes of data (a truncated file?)");
    expectError(withHeader(std::string(s).replace(s.find("[0,8]"), 5, "[8,0]"), 16),
                "tensor \"key\": data_offsets [8, 0] end before they begin");
    expectError(withHeader(std::string(s).replace(s.find("[8,16]"), 6, "[4,12]"), 16),
                "tensor \"value\": its data_offsets overlap those of tensor \"key\"");
    expectError(withHeader(std::string(s).replace(s.find("[0,8]"), 5, "\"0-8\""), 16),
                "tensor \"key\": \"data_offsets\" must be [begin, end]");
    const std::size_t vshape = s.rfind("[1,1,2,2]");
    expectError(withHeader(std::string(s).replace(vshape, 9, "[1,2,1,2]"), 16),
                "tensor \"value\": shape [1,2,1,2] differs from \"key\"'s [1,1,2,2]");
    expectError(withHeader(std::string(s).replace(s.rfind("BF16"), 4, "F16"), 16),
                "tensor \"value\" is F16 but \"key\" is BF16");
    expectError(withHeader(R"({"key":{"dtype":"BF16","shape":[65537,1,1,1],"data_offsets":[0,131074]},)"
                           R"("value":{"dtype":"BF16","shape":[65537,1,1,1],"data_offsets":[131074,262148]}})",
                           262148),
                "tensor \"key\": shape [65537,1,1,1] has 65537 layers, more than the 65536 fp8dash reads");
    expectError(withHeader(R"({"key":{"dtype":"BF16","shape":[1,1,1,1],"data_offsets":[0,2]},)"
                           R"("value":{"dtype":"BF16","shape":[1,1,1,1],"data_offsets":[2,4]},)"
                           R"("layers.0.key":{"dtype":"BF16","shape":[1,1,1],"data_offsets":[0,2]}})",
                           4),
                "both \"key\"/\"value\" and tensor \"layers.0.key\"");
}

TEST(KvDump, BrokenPerLayerFilesNameTheLayer) {
    auto entry = [](const std::string& name, const std::string& shape, int begin, int end) {
        return "\"" + name + "\":{\"dtype\":\"F16\",\"shape\":" + shape + ",\"data_offsets\":[" +
               std::to_string(begin) + "," + std::to_string(end) + "]}";
    };
    const std::string l0 = entry("layers.0.key", "[1,2,2]", 0, 8) + "," + entry("layers.0.value", "[1,2,2]", 8, 16);
    expectError(withHeader("{" + l0 + "," + entry("layers.1.key", "[1,2,2]", 16, 24) + "}", 24),
                "tensor \"layers.1.value\" is missing (the file has layers up to 1");
    expectError(withHeader("{" + l0 + "," + entry("layers.2.key", "[1,2,2]", 16, 24) + "," +
                               entry("layers.2.value", "[1,2,2]", 24, 32) + "}",
                           32),
                "tensor \"layers.1.key\" is missing");
    expectError(withHeader("{" + l0 + "," + entry("layers.1.key", "[1,1,4]", 16, 24) + "," +
                               entry("layers.1.value", "[1,1,4]", 24, 32) + "}",
                           32),
                "tensor \"layers.1.key\": shape [1,1,4] differs from \"layers.0.key\"'s [1,2,2]");
    expectError(withHeader("{" + entry("layers.0.key", "[1,1,2,2]", 0, 8) + "," +
                               entry("layers.0.value", "[1,1,2,2]", 8, 16) + "}",
                           16),
                "tensor \"layers.0.key\": shape [1,1,2,2] has rank 4, expected 3 [kv_heads, tokens, head_dim]");
}

TEST(KvDump, ATruncatedFileIsRefusedAtOpen) {
    const std::string whole = stackedBf16(2, 2, 8, 4);
    const std::string message = openError(whole.substr(0, whole.size() - 3), "cut.safetensors");
    EXPECT_NE(message.find("tensor \"value\": data_offsets [256, 512] reach past the file's 509 bytes of data"),
              std::string::npos)
        << message;
    // Cut inside the header: the length prefix promises more than there is.
    EXPECT_NE(openError(whole.substr(0, 20)).find("more than the file's remaining 12"), std::string::npos);
}

TEST(KvDump, MissingFilesAndFoldersAreNamed) {
    test::TempDir dir;
    const std::string missing = (dir.path() / "nope.safetensors").string();
    try {
        openKvDump(missing);
        ADD_FAILURE();
    } catch (const KvSourceError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(missing + ": cannot open", 0), 0u) << e.what();
    }
    try {
        openKvDump(dir.path().string());
        ADD_FAILURE();
    } catch (const KvSourceError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

TEST(KvDump, HeaderParserAcceptsHugeDumpsWithoutReadingThem) {
    // A Llama-3.1-8B at 32K tokens: 32 x 8 x 32768 x 128 BF16 per tensor = 2 GiB each; only the header is looked at.
    const std::uint64_t bytes = 32ull * 8 * 32768 * 128 * 2;
    const std::string header = R"({"key":{"dtype":"BF16","shape":[32,8,32768,128],"data_offsets":[0,)" +
                               std::to_string(bytes) +
                               R"(]},"value":{"dtype":"BF16","shape":[32,8,32768,128],)"
                               R"("data_offsets":[)" +
                               std::to_string(bytes) + "," + std::to_string(2 * bytes) + "]}}";
    const KvDumpLayout layout = parseKvDumpHeader(header, 8 + header.size() + 2 * bytes, "llama.safetensors");
    EXPECT_EQ(layout.shape.layers, 32);
    EXPECT_EQ(layout.shape.tokens, 32768);
    EXPECT_EQ(layout.dataBytes, 4ull << 30);
    EXPECT_EQ(layout.valueOffset[1], 8 + header.size() + bytes + bytes / 32);
    try {
        parseKvDumpHeader(header, 8 + header.size() + 2 * bytes - 648, "llama.safetensors");
        ADD_FAILURE();
    } catch (const KvSourceError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "llama.safetensors: tensor \"value\": data_offsets [2147483648, 4294967296] reach past the file's "
                  "4294966648 bytes of data (a truncated file?)");
    }
}

}  // namespace
}  // namespace fp8dash::gpu
