// A real model's K/V dump as the KV sweep's source (local_bench_dump.h, inspectKvDump in local_bench.h).
#include "bench/local_bench_dump.h"

#include <algorithm>

#include "fp8dash/gpu/kv_dump.h"
#include "fp8dash/gpu/kv_source.h"

namespace fp8dash {

std::vector<int> defaultDumpContexts(const std::vector<int>& standard, int tokens) {
    std::vector<int> out;
    for (int c : standard)
        if (c < tokens) out.push_back(c);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (tokens >= 1) out.push_back(tokens);
    return out;
}

Result<KvDumpInfo> inspectKvDump(const std::string& path) {
    try {
        const auto source = gpu::openKvDump(path);
        const gpu::KvShape s = source->shape();
        KvDumpInfo info;
        info.description = source->description();
        info.layers = s.layers;
        info.kvHeads = s.kvHeads;
        info.tokens = s.tokens;
        info.headDim = s.headDim;
        return info;
    } catch (const gpu::KvSourceError& e) {
        return Error{e.what()};
    }
}

Status useKvDump(const LocalBenchOptions& options, const std::vector<int>& standard, gpu::KvSweepConfig& sweep) {
    if (options.kvDump.empty() || !options.kv) return success();
    std::shared_ptr<gpu::KvLayerSource> source;
    try {
        source = gpu::openKvDump(options.kvDump);
    } catch (const gpu::KvSourceError& e) {
        return Error{e.what()};
    }
    const int tokens = source->shape().tokens;
    for (int c : options.kvContexts)
        if (c > tokens)
            return Error{options.kvDump + ": KV context length " + std::to_string(c) + " is more than the " +
                         std::to_string(tokens) + " tokens the dump holds"};
    sweep.contexts = options.kvContexts.empty() ? defaultDumpContexts(standard, tokens) : options.kvContexts;
    sweep.source = std::move(source);
    return success();
}

}  // namespace fp8dash
