// kv_dump.h in a build without nlohmann-json (the GPU machine's FP8DASH_GPU_ONLY build): the names exist, and
// opening a dump says why it cannot be read here.
#include "fp8dash/gpu/kv_dump.h"

namespace fp8dash::gpu {

KvDumpLayout parseKvDumpHeader(std::string_view, std::uint64_t, const std::string& fileName) {
    throw KvSourceError(fileName +
                        ": this fp8dash was built without nlohmann-json, so it cannot read safetensors "
                        "dumps (rebuild with nlohmann-json3-dev installed)");
}

std::shared_ptr<KvLayerSource> openKvDump(const std::string& path) {
    parseKvDumpHeader({}, 0, path);
    return nullptr;
}

}  // namespace fp8dash::gpu
