// The datasheet peak table. Figures from shared/notes/gpu-facts.md §3.1 and §7, each with its source below.
// Dense = the datasheet's "with sparsity" figure / 2. Memory is the datasheet label in decimal GB, which is slightly
// under what the device reports (an H100 SXM shows 79.6 GiB = 85.5e9 bytes for its "80 GB"), so a capacity computed
// from it errs on the safe side.
#include "fp8dash/gpu/peak_table.h"

#include <array>
#include <string>

namespace fp8dash::gpu {
namespace {

constexpr std::array<PeakSpec, 7> kTable = {{
    // NVIDIA H100 Tensor Core GPU datasheet (SXM5 column), as mirrored by archive-lib.hpctech.co.jp
    // ("1/2 lower without sparsity"): FP8 3,958 / BF16 1,979 sparse; 80 GB HBM3, 3.35 TB/s. glennklockwood.com's
    // H100 page gives the same dense matrix rates (1978.9 / 989.4).
    {"h100-sxm", "NVIDIA H100 SXM", 1979.0, 989.0, 3350.0, 80.0, false,
     "NVIDIA H100 datasheet (SXM5): FP8 3,958 / BF16 1,979 TFLOPS with sparsity, 80 GB HBM3, 3.35 TB/s"},
    // Same datasheet, PCIe column: FP8 3,026 / BF16 1,513 sparse; 80 GB HBM2e, 2.0 TB/s.
    {"h100-pcie", "NVIDIA H100 PCIe", 1513.0, 756.0, 2000.0, 80.0, false,
     "NVIDIA H100 datasheet (PCIe): FP8 3,026 / BF16 1,513 TFLOPS with sparsity, 80 GB HBM2e, 2.0 TB/s"},
    // NVIDIA H200 product page (SXM), as quoted by morphllm.com: same tensor rates as H100 SXM, 141 GB HBM3e, 4.8 TB/s.
    {"h200", "NVIDIA H200 SXM", 1979.0, 989.0, 4800.0, 141.0, false,
     "NVIDIA H200 product page (SXM): FP8 3,958 / BF16 1,979 TFLOPS with sparsity, 141 GB HBM3e, 4.8 TB/s"},
    // NVIDIA L40S datasheet (table mirrored at mullet.se): FP8 1,466 / BF16 733 sparse; 48 GB GDDR6 (ECC), 864 GB/s.
    {"l40s", "NVIDIA L40S", 733.0, 362.0, 864.0, 48.0, false,
     "NVIDIA L40S datasheet: FP8 1,466 / BF16 733 TFLOPS with sparsity, 48 GB GDDR6, 864 GB/s"},
    // NVIDIA Ada GPU architecture whitepaper v2.1, Appendix A (RTX 4090), with FP32 accumulate: FP8 330.3 (the
    // v2.02 correction), BF16 165.2 dense. GeForce halves FP32-accumulate tensor math and cuBLASLt's FP8 path only
    // accumulates in FP32, so these, not the FP16-accumulate 660.6 / 330.3, are the reachable roofs.
    {"rtx-4090", "NVIDIA GeForce RTX 4090", 330.3, 165.2, 1008.0, 24.0, false,
     "NVIDIA Ada whitepaper v2.1 App. A (RTX 4090, FP32 accumulate): FP8 330.3 / BF16 165.2 TFLOPS dense, 24 GB "
     "GDDR6X, 1,008 GB/s"},
    // RTX 6000 Ada: memory and bandwidth from grafikkarten.com (48 GB GDDR6 ECC, 960 GB/s, 142 SMs). The tensor
    // rates (~1,457 FP8 with sparsity) could not be re-checked against NVIDIA's datasheet: the dense figures are
    // rounded down from half of it, so a measured % of peak is, if anything, overstated rather than hidden.
    {"rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", 728.0, 364.0, 960.0, 48.0, true,
     "grafikkarten.com (48 GB, 960 GB/s); tensor rates ~1,457 FP8 with sparsity, unverified against the datasheet"},
    // NVIDIA HGX B200 table (mirrored at zdszero.github.io): FP8 9 PF / BF16 4.5 PF sparse per GPU, 180 GB HBM3e,
    // 7.7 TB/s; glennklockwood.com (HGX B200 at 1000 W): FP8 4,500 dense. Early announcements said 192 GB and
    // 8 TB/s; the smaller shipped HGX figures are used.
    {"b200", "NVIDIA B200", 4500.0, 2250.0, 7700.0, 180.0, false,
     "NVIDIA HGX B200 specifications: FP8 9,000 / BF16 4,500 TFLOPS with sparsity, 180 GB HBM3e, 7.7 TB/s"},
}};

// Names other than the key and the display name: the device name as cudaGetDeviceProperties reports it where it
// differs from the display name, and short forms people type. Lower case, without the "nvidia " prefix.
struct Alias {
    std::string_view name;
    std::string_view key;
};
constexpr std::array<Alias, 5> kAliases = {{
    {"h100 80gb hbm3", "h100-sxm"},  // the SXM5 part's CUDA name
    {"h200", "h200"},                // CUDA reports "NVIDIA H200" for the SXM part (the NVL part says "H200 NVL")
    {"rtx 4090", "rtx-4090"},
    {"rtx4090", "rtx-4090"},
    {"rtx 6000 ada", "rtx-6000-ada"},
}};

// Lower case, whitespace runs collapsed to one space, ends trimmed, "nvidia " dropped; '_' reads as '-'.
std::string normalise(std::string_view s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        out += c == '_' ? '-' : c;
    }
    if (out.rfind("nvidia ", 0) == 0) out.erase(0, 7);
    return out;
}

}  // namespace

std::span<const PeakSpec> peakTable() {
    return kTable;
}

std::optional<PeakSpec> findPeakSpec(std::string_view nameOrKey) {
    const std::string n = normalise(nameOrKey);
    if (n.empty()) return std::nullopt;
    std::string_view key = n;
    for (const Alias& a : kAliases)
        if (a.name == n) key = a.key;
    for (const PeakSpec& p : kTable)
        if (p.key == key || normalise(p.displayName) == n) return p;
    return std::nullopt;
}

}  // namespace fp8dash::gpu
