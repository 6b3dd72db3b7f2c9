// The risks of a variant that depend on the GPU (hardware_risks.h). lm-eval records no GPU, so the GPU is the one the
// comparison's other evidence names, in this order: the local benchmarks' device (its compute capability), a serving
// benchmark's GPU (AIPerf's server scrape, a side file), the Capacity view's GPU preset. A GPU fp8dash does not know
// raises nothing: a risk is said only where the table says the GPU has no FP4 tensor cores.
#include "document/hardware_risks.h"

#include <charconv>

#include "fp8dash/gpu/peak_table.h"

namespace fp8dash::detail {
namespace {

struct KnownGpu {
    std::string name, from;
    bool fp4 = false;
    std::string capability;  // "9.0" where known
};

std::optional<KnownGpu> benchGpu(const ComparisonDocument& doc) {
    if (!doc.benchmarks || !doc.benchmarks->device.available || doc.benchmarks->device.name.empty()) return {};
    const BenchDevice& d = doc.benchmarks->device;
    int major = 0, minor = 0;
    const std::string& cc = d.computeCapability;
    const auto dot = cc.find('.');
    if (dot == std::string::npos || std::from_chars(cc.data(), cc.data() + dot, major).ec != std::errc() ||
        std::from_chars(cc.data() + dot + 1, cc.data() + cc.size(), minor).ec != std::errc())
        return {};
    return KnownGpu{d.name, "the local benchmarks", gpu::hasFp4TensorCores(major, minor), cc};
}

std::optional<KnownGpu> tableGpu(const std::string& nameOrKey, const std::string& from) {
    const auto spec = gpu::findPeakSpec(nameOrKey);
    if (!spec) return {};
    std::string cc;
    if (spec->computeMajor > 0) cc = std::to_string(spec->computeMajor) + "." + std::to_string(spec->computeMinor);
    return KnownGpu{std::string(spec->displayName), from, spec->fp4TensorCores, cc};
}

std::optional<KnownGpu> knownGpu(const ComparisonDocument& doc) {
    if (auto g = benchGpu(doc)) return g;
    if (doc.serving)
        for (const ServingVariantInput& v : doc.serving->variants)
            for (const ServingRun& run : v.runs)
                if (!run.gpuName.empty())
                    if (auto g = tableGpu(run.gpuName, "the serving benchmarks")) return g;
    if (doc.capacity && doc.capacity->gpu != "local")
        if (auto g = tableGpu(doc.capacity->gpu, "the Capacity view's GPU")) return g;
    return {};
}

}  // namespace

void addHardwareRisks(ComparisonReport& r, const ComparisonDocument& doc) {
    const RunLayers& l = r.candidateConfig.layers;
    if (l.activations.value != "fp4") return;  // W4A16 FP4 runs weight-only everywhere: nothing lost
    const auto g = knownGpu(doc);
    if (!g || g->fp4) return;
    const std::string format = l.weights.value.starts_with("mxfp4") ? "MXFP4" : "NVFP4";
    r.risks.push_back(
        {"fp4_without_fp4_tensor_cores", r.candidateLabel,
         r.candidateLabel + " is " + format + " W4A4, but " + g->name +
             (g->capability.empty() ? "" : " (compute capability " + g->capability + ")") + ", the GPU of " + g->from +
             ", has no FP4 tensor cores: vLLM runs the " + format +
             " weights there through a weight-only fallback kernel (W4A16), which keeps the memory saving but not the "
             "FP4 matmul speed, and its quality can differ from W4A4 on Blackwell; evaluate and benchmark it on a "
             "Blackwell GPU (compute capability 10.x or 12.x) before deciding"});
}

}  // namespace fp8dash::detail
