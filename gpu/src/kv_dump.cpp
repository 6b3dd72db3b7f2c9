// The safetensors K/V dump reader (kv_dump.h). The JSON header goes through nlohmann-json; the binary part (length
// prefix, offsets, the three dtypes) is ours and checked before anything is read, so a wrong file fails at open
// with a message naming the file and the tensor, not in the middle of a sweep.
#include "fp8dash/gpu/kv_dump.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

namespace fp8dash::gpu {
namespace {

using Json = nlohmann::json;

// The checked facts of one tensor entry.
struct TensorEntry {
    std::string name;
    KvDumpDtype dtype = KvDumpDtype::Bf16;
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0;  // relative to the data section
    std::uint64_t end = 0;
};

[[noreturn]] void fail(const std::string& file, const std::string& what) {
    throw KvSourceError(file + ": " + what);
}

std::string tensorName(const std::string& name) {
    return "tensor \"" + name + "\"";
}

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "]";
}

std::optional<KvDumpDtype> parseDtype(const std::string& s) {
    if (s == "BF16") return KvDumpDtype::Bf16;
    if (s == "F16") return KvDumpDtype::F16;
    if (s == "F32") return KvDumpDtype::F32;
    return std::nullopt;
}

// A JSON number that is a whole number >= 0 (nlohmann keeps non-negative integers unsigned).
std::optional<std::uint64_t> wholeNumber(const Json& j) {
    if (j.is_number_unsigned()) return j.get<std::uint64_t>();
    return std::nullopt;
}

TensorEntry readEntry(const std::string& file, const std::string& name, const Json& j, std::uint64_t dataSize) {
    const std::string t = tensorName(name);
    if (!j.is_object()) fail(file, t + ": expected an object with dtype, shape and data_offsets");
    TensorEntry e;
    e.name = name;

    const auto dtype = j.find("dtype");
    if (dtype == j.end() || !dtype->is_string()) fail(file, t + ": no \"dtype\" string");
    const auto parsed = parseDtype(dtype->get<std::string>());
    if (!parsed)
        fail(file, t + ": dtype \"" + dtype->get<std::string>() + "\" is not supported (expected BF16, F16 or F32)");
    e.dtype = *parsed;

    const auto shape = j.find("shape");
    if (shape == j.end() || !shape->is_array()) fail(file, t + ": no \"shape\" array");
    for (const Json& d : *shape) {
        const auto v = wholeNumber(d);
        if (!v) fail(file, t + ": shape " + shape->dump() + " holds something that is not a whole number >= 0");
        e.shape.push_back(*v);
    }

    const auto offsets = j.find("data_offsets");
    if (offsets == j.end() || !offsets->is_array() || offsets->size() != 2 || !wholeNumber((*offsets)[0]) ||
        !wholeNumber((*offsets)[1]))
        fail(file, t + ": \"data_offsets\" must be [begin, end], two whole numbers >= 0");
    e.begin = *wholeNumber((*offsets)[0]);
    e.end = *wholeNumber((*offsets)[1]);
    if (e.begin > e.end)
        fail(file, t + ": data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                       "] end before they begin");
    if (e.end > dataSize)
        fail(file, t + ": data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                       "] reach past the file's " + std::to_string(dataSize) + " bytes of data (a truncated file?)");
    return e;
}

// Checks rank, positive dimensions that fit an int, and the byte count; returns the dims.
std::vector<std::uint64_t> checkedShape(const std::string& file, const TensorEntry& e, std::size_t rank,
                                        const char* layoutText) {
    const std::string t = tensorName(e.name);
    if (e.shape.size() != rank)
        fail(file, t + ": shape " + shapeText(e.shape) + " has rank " + std::to_string(e.shape.size()) + ", expected " +
                       std::to_string(rank) + " " + layoutText);
    std::uint64_t elements = 1;
    for (std::uint64_t d : e.shape) {
        if (d < 1 || d > static_cast<std::uint64_t>(INT_MAX))
            fail(file, t + ": shape " + shapeText(e.shape) + " " + layoutText +
                           ": every dimension must be between 1 and " + std::to_string(INT_MAX));
        if (__builtin_mul_overflow(elements, d, &elements))
            fail(file, t + ": shape " + shapeText(e.shape) + " has more elements than 2^64");
    }
    const auto size = static_cast<std::uint64_t>(kvDumpDtypeSize(e.dtype));
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(elements, size, &bytes) || bytes != e.end - e.begin)
        fail(file, t + ": shape " + shapeText(e.shape) + " needs " +
                       (bytes / size == elements ? std::to_string(bytes) : std::string("more than 2^64")) +
                       " bytes of " + kvDumpDtypeName(e.dtype) + ", data_offsets give " +
                       std::to_string(e.end - e.begin));
    return e.shape;
}

// "layers.<i>.key" / "layers.<i>.value" with i written plainly (no sign, no leading zero): the index and which.
std::optional<std::pair<std::uint64_t, bool>> perLayerName(const std::string& name) {
    constexpr std::string_view prefix = "layers.";
    if (name.rfind(prefix, 0) != 0) return std::nullopt;
    const std::size_t dot = name.find('.', prefix.size());
    if (dot == std::string::npos) return std::nullopt;
    const std::string digits = name.substr(prefix.size(), dot - prefix.size());
    const std::string rest = name.substr(dot + 1);
    if (rest != "key" && rest != "value") return std::nullopt;
    if (digits.empty() || digits.size() > 9 || (digits.size() > 1 && digits[0] == '0') ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::pair{std::stoull(digits), rest == "key"};
}

std::string someNames(const Json& root) {
    std::string names;
    int n = 0;
    for (const auto& [name, value] : root.items()) {
        if (name == "__metadata__") continue;
        if (n == 5) return names + ", ...";
        names += (n++ ? ", \"" : "\"") + name + "\"";
    }
    return n ? names : "no tensors";
}

void checkNoOverlap(const std::string& file, std::vector<TensorEntry> entries) {
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].begin < entries[i - 1].end)
            fail(file, tensorName(entries[i].name) + ": its data_offsets overlap those of " +
                           tensorName(entries[i - 1].name));
}

// The stacked layout: "key" and "value", [layers, kv_heads, tokens, head_dim].
void readStacked(const std::string& file, const Json& root, std::uint64_t dataStart, std::uint64_t dataSize,
                 KvDumpLayout& out) {
    const auto key = root.find("key");
    const auto value = root.find("value");
    if (key == root.end() || value == root.end())
        fail(file, std::string("tensor \"") + (key == root.end() ? "key" : "value") +
                       "\" is missing (a stacked dump "
                       "holds both \"key\" and \"value\")");
    const TensorEntry k = readEntry(file, "key", *key, dataSize);
    const TensorEntry v = readEntry(file, "value", *value, dataSize);
    constexpr const char* layout = "[layers, kv_heads, tokens, head_dim]";
    const auto ks = checkedShape(file, k, 4, layout);
    const auto vs = checkedShape(file, v, 4, layout);
    if (k.dtype != v.dtype)
        fail(file, "tensor \"value\" is " + std::string(kvDumpDtypeName(v.dtype)) + " but \"key\" is " +
                       kvDumpDtypeName(k.dtype) + ": K and V must have one dtype");
    if (ks != vs) fail(file, "tensor \"value\": shape " + shapeText(vs) + " differs from \"key\"'s " + shapeText(ks));
    checkNoOverlap(file, {k, v});
    if (ks[0] > kMaxKvDumpLayers)
        fail(file, "tensor \"key\": shape " + shapeText(ks) + " has " + std::to_string(ks[0]) +
                       " layers, more than the " + std::to_string(kMaxKvDumpLayers) + " fp8dash reads");
    out.stacked = true;
    out.dtype = k.dtype;
    out.shape =
        KvShape{static_cast<int>(ks[0]), static_cast<int>(ks[1]), static_cast<int>(ks[3]), static_cast<int>(ks[2])};
    const std::uint64_t layerBytes = (k.end - k.begin) / ks[0];
    for (std::uint64_t l = 0; l < ks[0]; ++l) {
        out.keyOffset.push_back(dataStart + k.begin + l * layerBytes);
        out.valueOffset.push_back(dataStart + v.begin + l * layerBytes);
    }
    out.dataBytes = 2 * (k.end - k.begin);
}

// The per-layer layout: "layers.<i>.key" / "layers.<i>.value", [kv_heads, tokens, head_dim], i = 0..layers-1.
void readPerLayer(const std::string& file, const Json& root, std::uint64_t dataStart, std::uint64_t dataSize,
                  KvDumpLayout& out) {
    std::map<std::uint64_t, std::pair<const Json*, const Json*>> layers;  // index -> (key, value)
    for (const auto& [name, value] : root.items()) {
        const auto parsed = perLayerName(name);
        if (!parsed) continue;
        auto& slot = layers[parsed->first];
        (parsed->second ? slot.first : slot.second) = &value;
    }
    if (layers.empty())
        fail(file,
             "no K/V tensors: expected \"key\" and \"value\" ([layers, kv_heads, tokens, head_dim]) or "
             "\"layers.<i>.key\" and \"layers.<i>.value\" ([kv_heads, tokens, head_dim]); the file has " +
                 someNames(root));
    const std::uint64_t count = layers.rbegin()->first + 1;
    if (count > kMaxKvDumpLayers)
        fail(file, "tensor \"layers." + std::to_string(count - 1) + "\": more than the " +
                       std::to_string(kMaxKvDumpLayers) + " layers fp8dash reads");
    std::vector<TensorEntry> entries;
    std::vector<std::uint64_t> firstShape;
    constexpr const char* layout = "[kv_heads, tokens, head_dim]";
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto it = layers.find(i);
        for (bool isKey : {true, false}) {
            const std::string name = "layers." + std::to_string(i) + (isKey ? ".key" : ".value");
            const Json* j = it == layers.end() ? nullptr : (isKey ? it->second.first : it->second.second);
            if (!j)
                fail(file, tensorName(name) + " is missing (the file has layers up to " + std::to_string(count - 1) +
                               "; each needs a key and a value)");
            entries.push_back(readEntry(file, name, *j, dataSize));
            const auto shape = checkedShape(file, entries.back(), 3, layout);
            if (firstShape.empty()) {
                firstShape = shape;
                out.dtype = entries.back().dtype;
            } else if (shape != firstShape) {
                fail(file, tensorName(name) + ": shape " + shapeText(shape) + " differs from \"layers.0.key\"'s " +
                               shapeText(firstShape) + " (every layer must have one shape)");
            } else if (entries.back().dtype != out.dtype) {
                fail(file, tensorName(name) + " is " + kvDumpDtypeName(entries.back().dtype) +
                               " but \"layers.0.key\" is " + kvDumpDtypeName(out.dtype) +
                               ": every K/V tensor must have one dtype");
            }
            (isKey ? out.keyOffset : out.valueOffset).push_back(dataStart + entries.back().begin);
            out.dataBytes += entries.back().end - entries.back().begin;
        }
    }
    checkNoOverlap(file, entries);
    out.stacked = false;
    out.shape = KvShape{static_cast<int>(count), static_cast<int>(firstShape[0]), static_cast<int>(firstShape[2]),
                        static_cast<int>(firstShape[1])};
}

// A model name as the metadata gives it, without a local folder that may hold a user name: a Hugging Face id
// ("meta-llama/Llama-3.1-8B") stays, a path keeps its last part. Control characters dropped, length capped.
std::string displayModel(std::string model) {
    const bool localPath =
        !model.empty() && (model[0] == '/' || model[0] == '~' || model[0] == '.' ||
                           model.find('\\') != std::string::npos || std::count(model.begin(), model.end(), '/') > 1);
    if (localPath) {
        while (!model.empty() && (model.back() == '/' || model.back() == '\\')) model.pop_back();
        const std::size_t cut = model.find_last_of("/\\");
        if (cut != std::string::npos) model = model.substr(cut + 1);
    }
    std::erase_if(model, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
    if (model.size() > 120) model.resize(120);
    return model;
}

// A file opened for reading, closed by the destructor.
class FileHandle {
public:
    explicit FileHandle(int fd) : m_fd(fd) {}
    ~FileHandle() {
        if (m_fd >= 0) ::close(m_fd);
    }
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;
    int fd() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

// Reads exactly n bytes at offset; false at the end of the file, KvSourceError on a read error.
bool readAt(int fd, std::uint64_t offset, unsigned char* out, std::size_t n, const std::string& file) {
    while (n > 0) {
        const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(offset));
        if (got < 0) {
            if (errno == EINTR) continue;
            fail(file, std::string("cannot read: ") + std::strerror(errno));
        }
        if (got == 0) return false;
        out += got;
        offset += static_cast<std::uint64_t>(got);
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

void widen(const unsigned char* in, float* out, std::size_t n, KvDumpDtype dtype) {
    switch (dtype) {
        case KvDumpDtype::Bf16:
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t bits =
                    (static_cast<std::uint32_t>(in[2 * i + 1]) << 24) | (static_cast<std::uint32_t>(in[2 * i]) << 16);
                std::memcpy(&out[i], &bits, sizeof bits);
            }
            break;
        case KvDumpDtype::F16:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = halfBitsToFloat(static_cast<std::uint16_t>(in[2 * i] | (in[2 * i + 1] << 8)));
            break;
        case KvDumpDtype::F32:
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t bits = static_cast<std::uint32_t>(in[4 * i]) |
                                           (static_cast<std::uint32_t>(in[4 * i + 1]) << 8) |
                                           (static_cast<std::uint32_t>(in[4 * i + 2]) << 16) |
                                           (static_cast<std::uint32_t>(in[4 * i + 3]) << 24);
                std::memcpy(&out[i], &bits, sizeof bits);
            }
            break;
    }
}

class KvDumpSource final : public KvLayerSource {
public:
    KvDumpSource(std::string path, int fd, KvDumpLayout layout)
        : m_path(std::move(path)), m_file(fd), m_layout(std::move(layout)) {
        m_description = std::filesystem::path(m_path).filename().string() + " (" + kvDumpDtypeName(m_layout.dtype);
        if (const std::string model = displayModel(m_layout.model); !model.empty()) m_description += ", " + model;
        m_description += ")";
    }

    KvShape shape() const override { return m_layout.shape; }
    std::string kind() const override { return "dump"; }
    std::string description() const override { return m_description; }

    void loadLayer(int layer, int tokens, std::vector<float>& keys, std::vector<float>& values) override {
        const KvShape& s = m_layout.shape;
        if (layer < 0 || layer >= s.layers)
            throw std::invalid_argument(m_path + ": layer " + std::to_string(layer) + " is outside the dump's " +
                                        std::to_string(s.layers) + " layers");
        if (tokens < 1 || tokens > s.tokens)
            throw std::invalid_argument(m_path + ": " + std::to_string(tokens) + " tokens asked for; the dump holds " +
                                        std::to_string(s.tokens));
        read(layer, tokens, true, keys);
        read(layer, tokens, false, values);
    }

private:
    // One head at a time: the first `tokens` rows of [tokens][head_dim] are contiguous in the file.
    void read(int layer, int tokens, bool isKey, std::vector<float>& out) {
        const KvShape& s = m_layout.shape;
        const auto size = static_cast<std::size_t>(kvDumpDtypeSize(m_layout.dtype));
        const std::size_t rowElements = static_cast<std::size_t>(s.headDim);
        const std::size_t headElements = static_cast<std::size_t>(tokens) * rowElements;
        const std::uint64_t headStride = static_cast<std::uint64_t>(s.tokens) * rowElements * size;
        const std::uint64_t base = (isKey ? m_layout.keyOffset : m_layout.valueOffset)[static_cast<std::size_t>(layer)];
        out.resize(static_cast<std::size_t>(s.kvHeads) * headElements);
        m_buffer.resize(headElements * size);
        for (int h = 0; h < s.kvHeads; ++h) {
            if (!readAt(m_file.fd(), base + static_cast<std::uint64_t>(h) * headStride, m_buffer.data(),
                        m_buffer.size(), m_path)) {
                std::string name = m_layout.stacked ? (isKey ? "key" : "value")
                                                    : "layers." + std::to_string(layer) + (isKey ? ".key" : ".value");
                fail(m_path, tensorName(name) + ": the file ends inside layer " + std::to_string(layer) + ", head " +
                                 std::to_string(h) + " (it was shortened after it was opened)");
            }
            widen(m_buffer.data(), out.data() + static_cast<std::size_t>(h) * headElements, headElements,
                  m_layout.dtype);
        }
    }

    std::string m_path;
    FileHandle m_file;
    KvDumpLayout m_layout;
    std::string m_description;
    std::vector<unsigned char> m_buffer;
};

}  // namespace

KvDumpLayout parseKvDumpHeader(std::string_view headerJson, std::uint64_t fileSize, const std::string& fileName) {
    const std::uint64_t headerEnd = 8 + static_cast<std::uint64_t>(headerJson.size());
    if (fileSize < headerEnd)
        fail(fileName, "the file (" + std::to_string(fileSize) + " bytes) is shorter than its header (" +
                           std::to_string(headerEnd) + " bytes)");
    Json root;
    try {
        root = Json::parse(headerJson.begin(), headerJson.end());
    } catch (const Json::exception& e) {  // parse_error, and out_of_range for a number past double (2e308)
        fail(fileName, std::string("the safetensors header is not valid JSON: ") + e.what());
    }
    if (!root.is_object()) fail(fileName, "the safetensors header is not a JSON object");

    KvDumpLayout out;
    if (const auto meta = root.find("__metadata__"); meta != root.end()) {
        if (!meta->is_object()) fail(fileName, "\"__metadata__\" is not an object");
        if (const auto model = meta->find("model"); model != meta->end() && model->is_string())
            out.model = model->get<std::string>();
    }
    const std::uint64_t dataSize = fileSize - headerEnd;
    const bool stacked = root.contains("key") || root.contains("value");
    if (stacked) {
        for (const auto& [name, value] : root.items())
            if (perLayerName(name))
                fail(fileName, "the file holds both \"key\"/\"value\" and " + tensorName(name) +
                                   ": keep one layout (stacked or per layer)");
        readStacked(fileName, root, headerEnd, dataSize, out);
    } else {
        readPerLayer(fileName, root, headerEnd, dataSize, out);
    }
    return out;
}

std::shared_ptr<KvLayerSource> openKvDump(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
    FileHandle file(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(path, std::string("cannot read: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(path, "not a regular file");
    const auto fileSize = static_cast<std::uint64_t>(st.st_size);

    unsigned char prefix[8];
    if (fileSize < 8 || !readAt(fd, 0, prefix, 8, path))
        fail(path,
             "not a safetensors file: " + std::to_string(fileSize) + " bytes, less than the 8-byte header length");
    std::uint64_t headerBytes = 0;
    for (int i = 7; i >= 0; --i) headerBytes = (headerBytes << 8) | prefix[i];
    if (headerBytes > kMaxKvDumpHeaderBytes || headerBytes > fileSize - 8)
        fail(path, "not a safetensors file: its first 8 bytes give a header of " + std::to_string(headerBytes) +
                       " bytes, " +
                       (headerBytes > fileSize - 8
                            ? "more than the file's remaining " + std::to_string(fileSize - 8)
                            : "more than the " + std::to_string(kMaxKvDumpHeaderBytes) + " bytes allowed"));
    std::string header(static_cast<std::size_t>(headerBytes), '\0');
    if (!readAt(fd, 8, reinterpret_cast<unsigned char*>(header.data()), header.size(), path))
        fail(path, "the file ends inside its header");
    KvDumpLayout layout = parseKvDumpHeader(header, fileSize, path);

    // The source owns the descriptor from here on.
    return std::make_shared<KvDumpSource>(path, file.release(), std::move(layout));
}

}  // namespace fp8dash::gpu
