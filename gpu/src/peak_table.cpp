// The datasheet peak table. Figures from shared/notes/gpu-facts.md §3.1 and §7, each with its source below.
// Dense = the datasheet's "with sparsity" figure / 2. Memory is the datasheet label in decimal GB, which is slightly
// under what the device reports (an H100 SXM shows 79.6 GiB = 85.5e9 bytes for its "80 GB"), so a capacity computed
// from it errs on the safe side.
#include "fp8dash/gpu/peak_table.h"

#include <array>
#include <string>

namespace fp8dash::gpu {
namespace {

// Designated fields: key, displayName, fp8, bf16, bandwidth GB/s, memory GB, computeUnverified, source, then FP4 and
// the compute capability.
constexpr std::array<PeakSpec, 11> kTable = {{
    // NVIDIA H100 Tensor Core GPU datasheet (SXM5 column), as mirrored by archive-lib.hpctech.co.jp
    // ("1/2 lower without sparsity"): FP8 3,958 / BF16 1,979 sparse; 80 GB HBM3, 3.35 TB/s. glennklockwood.com's
    // H100 page gives the same dense matrix rates (1978.9 / 989.4).
    {"h100-sxm", "NVIDIA H100 SXM", 1979.0, 989.0, 3350.0, 80.0, false,
     "NVIDIA H100 datasheet (SXM5): FP8 3,958 / BF16 1,979 TFLOPS with sparsity, 80 GB HBM3, 3.35 TB/s", 0, false, 9,
     0},
    // Same datasheet, PCIe column: FP8 3,026 / BF16 1,513 sparse; 80 GB HBM2e, 2.0 TB/s.
    {"h100-pcie", "NVIDIA H100 PCIe", 1513.0, 756.0, 2000.0, 80.0, false,
     "NVIDIA H100 datasheet (PCIe): FP8 3,026 / BF16 1,513 TFLOPS with sparsity, 80 GB HBM2e, 2.0 TB/s", 0, false, 9,
     0},
    // NVIDIA H200 product page (SXM), as quoted by morphllm.com: same tensor rates as H100 SXM, 141 GB HBM3e, 4.8 TB/s.
    {"h200", "NVIDIA H200 SXM", 1979.0, 989.0, 4800.0, 141.0, false,
     "NVIDIA H200 product page (SXM): FP8 3,958 / BF16 1,979 TFLOPS with sparsity, 141 GB HBM3e, 4.8 TB/s", 0, false, 9,
     0},
    // NVIDIA L40S datasheet (table mirrored at mullet.se): FP8 1,466 / BF16 733 sparse; 48 GB GDDR6 (ECC), 864 GB/s.
    {"l40s", "NVIDIA L40S", 733.0, 362.0, 864.0, 48.0, false,
     "NVIDIA L40S datasheet: FP8 1,466 / BF16 733 TFLOPS with sparsity, 48 GB GDDR6, 864 GB/s", 0, false, 8, 9},
    // NVIDIA Ada GPU architecture whitepaper v2.1, Appendix A (RTX 4090), with FP32 accumulate: FP8 330.3 (the
    // v2.02 correction), BF16 165.2 dense. GeForce halves FP32-accumulate tensor math and cuBLASLt's FP8 path only
    // accumulates in FP32, so these, not the FP16-accumulate 660.6 / 330.3, are the reachable roofs.
    {"rtx-4090", "NVIDIA GeForce RTX 4090", 330.3, 165.2, 1008.0, 24.0, false,
     "NVIDIA Ada whitepaper v2.1 App. A (RTX 4090, FP32 accumulate): FP8 330.3 / BF16 165.2 TFLOPS dense, 24 GB "
     "GDDR6X, 1,008 GB/s",
     0, false, 8, 9},
    // RTX 6000 Ada: memory and bandwidth from grafikkarten.com (48 GB GDDR6 ECC, 960 GB/s, 142 SMs). The tensor
    // rates (~1,457 FP8 with sparsity) could not be re-checked against NVIDIA's datasheet: the dense figures are
    // rounded down from half of it, so a measured % of peak is, if anything, overstated rather than hidden.
    {"rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", 728.0, 364.0, 960.0, 48.0, true,
     "grafikkarten.com (48 GB, 960 GB/s); tensor rates ~1,457 FP8 with sparsity, unverified against the datasheet", 0,
     false, 8, 9},
    // NVIDIA HGX B200 table (mirrored at zdszero.github.io): FP8 9 PF / BF16 4.5 PF sparse per GPU, 180 GB HBM3e,
    // 7.7 TB/s; glennklockwood.com (HGX B200 at 1000 W): FP8 4,500 dense. Early announcements said 192 GB and
    // 8 TB/s; the smaller shipped HGX figures are used. FP4: 9 PF dense per GPU (glennklockwood.com/garden/processors/
    // B300: "13 PF on B300 vs. 9.0 PF on B200"; verda.com's per-GPU table: B200 FP4 9 PFLOPS dense).
    {"b200", "NVIDIA B200", 4500.0, 2250.0, 7700.0, 180.0, false,
     "NVIDIA HGX B200 specifications: FP8 9,000 / BF16 4,500 TFLOPS with sparsity, 180 GB HBM3e, 7.7 TB/s; FP4 9,000 "
     "dense (glennklockwood.com, verda.com)",
     9000.0, true, 10, 0},
    // One Blackwell GPU of a GB200 superchip (GB200 NVL72, 72 GPUs): shared/notes/gpu-facts.md section 3.1 (FP8 5,000
    // / BF16 2,500 dense, 186 GB, 8 TB/s); FP4 from NVIDIA's GB200 NVL72 specification, 1,440 PFLOPS FP4 with
    // sparsity per rack (as quoted by awesomeagents.ai and deploybase.ai): / 72 GPUs / 2 = 10,000 dense. verda.com's
    // table says 9 PF dense FP4 per GB200 GPU; the NVIDIA rack figure is used.
    {"gb200", "NVIDIA GB200", 5000.0, 2500.0, 8000.0, 186.0, false,
     "NVIDIA GB200 NVL72 specifications per GPU: FP8 10,000 / BF16 5,000 / FP4 20,000 TFLOPS with sparsity (1,440 PF "
     "FP4 a 72-GPU rack), 186 GB HBM3e, 8 TB/s",
     10000.0, true, 10, 0},
    // B300 (Blackwell Ultra, HGX): FP8 4,500 / BF16 2,250 dense as B200 (glennklockwood.com/garden/processors/B300,
    // verda.com/blog/gb300-nvl72-architecture). FP4 dense differs between sources: 13,125 (glennklockwood), 13,500
    // (NVIDIA HGX B300: 108 PF dense for 8 GPUs), 14,000 (verda): the lowest is used and marked unverified. Memory:
    // 288 GB announced, 270 GB in verda's per-GPU table (HGX B300 "2.1 TB" for 8); bandwidth "up to 8 TB/s"
    // (glennklockwood, acecloud.ai), 7.7 TB/s (verda): the smaller figures are used, as for B200.
    {"b300", "NVIDIA B300", 4500.0, 2250.0, 7700.0, 270.0, true,
     "glennklockwood.com and verda.com (HGX B300): FP8 4,500 / BF16 2,250 dense; FP4 13,125-14,000 dense "
     "(unverified, lowest used); 270-288 GB HBM3e (270 used), 7.7-8 TB/s (7.7 used)",
     13125.0, true, 10, 3},
    // RTX PRO 6000 Blackwell (Workstation and Server Edition: the same GB202 with 188 SMs, 96 GB GDDR7 ECC on 512
    // bits at 28 Gbps = 1,792 GB/s: gpu.name / VideoCardz, the RTX PRO announcement). NVIDIA quotes 4,000 AI TOPS
    // (FP4 with sparsity): FP4 2,000 dense. NVIDIA's datasheet FP8/BF16 rates were not found; 1,000 / 500 are FP4's
    // half and quarter (the Blackwell ratio, professional cards not halving FP32 accumulate), marked unverified.
    // The Max-Q edition (300 W) is slower and not this entry.
    {"rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell", 1000.0, 500.0, 1792.0, 96.0, true,
     "NVIDIA RTX PRO 6000 Blackwell announcement (96 GB GDDR7, 1,792 GB/s, 4,000 AI TOPS FP4 with sparsity); FP8 / "
     "BF16 "
     "derived, unverified",
     2000.0, true, 12, 0},
    // NVIDIA RTX Blackwell GPU architecture whitepaper, Appendix A (RTX 5090), with FP32 accumulate as cuBLASLt runs
    // it: FP8 419, BF16 209.5, FP4 (NVFP4 / MXFP4) 1,676 dense (the "Spec" column of main-horse.github.io/posts/
    // 5090-mm-perf; NVIDIA's 3,352 AI TOPS is FP4 with sparsity). 32 GB GDDR7, 1,792 GB/s (NVIDIA RTX 50 series page,
    // spheron.network's datasheet table).
    {"rtx-5090", "NVIDIA GeForce RTX 5090", 419.0, 209.5, 1792.0, 32.0, false,
     "NVIDIA RTX Blackwell whitepaper App. A (RTX 5090, FP32 accumulate): FP8 419 / BF16 209.5 / FP4 1,676 TFLOPS "
     "dense, 32 GB GDDR7, 1,792 GB/s",
     1676.0, true, 12, 0},
}};

// Names other than the key and the display name: the device name as cudaGetDeviceProperties reports it where it
// differs from the display name, and short forms people type. Lower case, without the "nvidia " prefix.
struct Alias {
    std::string_view name;
    std::string_view key;
};
constexpr std::array<Alias, 11> kAliases = {{
    {"h100 80gb hbm3", "h100-sxm"},  // the SXM5 part's CUDA name
    {"h200", "h200"},                // CUDA reports "NVIDIA H200" for the SXM part (the NVL part says "H200 NVL")
    {"rtx 4090", "rtx-4090"},
    {"rtx4090", "rtx-4090"},
    {"rtx 6000 ada", "rtx-6000-ada"},
    {"rtx pro 6000 blackwell server edition", "rtx-pro-6000"},  // CUDA names of the two full-power editions
    {"rtx pro 6000 blackwell workstation edition", "rtx-pro-6000"},
    {"rtx pro 6000", "rtx-pro-6000"},
    {"geforce rtx 5090", "rtx-5090"},
    {"rtx 5090", "rtx-5090"},
    {"rtx5090", "rtx-5090"},
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

bool hasFp4TensorCores(int computeMajor, int /*computeMinor*/) {
    // Every Blackwell part has them (10.0 B200/GB200, 10.3 B300, 11.0 Thor, 12.0 RTX 50xx / RTX PRO, 12.1 DGX Spark);
    // later architectures are assumed to keep them.
    return computeMajor >= 10;
}

bool hasFp4TensorCores(std::string_view nameOrKey) {
    const auto spec = findPeakSpec(nameOrKey);
    return spec && spec->fp4TensorCores;
}

}  // namespace fp8dash::gpu
