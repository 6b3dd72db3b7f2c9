// The runner's sections and plan (section_runner.h).
#include "section_runner.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

namespace fp8dash::gpu::runner {
namespace {

enum class Section { Gemm, Bandwidth, Kv };

bool requested(const BenchRequest& r, Section s) {
    switch (s) {
        case Section::Gemm:
            return r.gemm;
        case Section::Bandwidth:
            return r.bandwidth;
        case Section::Kv:
            return r.kv;
    }
    return false;
}

BenchRequest only(const BenchRequest& r, Section s) {
    BenchRequest one = r;
    one.gemm = s == Section::Gemm;
    one.bandwidth = s == Section::Bandwidth;
    one.kv = s == Section::Kv;
    return one;
}

// Copies one section's results (and its skip reason) from `from` into `into`.
void takeSection(BenchReport& into, BenchReport&& from, Section s) {
    switch (s) {
        case Section::Gemm:
            into.gemm = std::move(from.gemm);
            into.gemmSkipped = std::move(from.gemmSkipped);
            break;
        case Section::Bandwidth:
            into.bandwidth = std::move(from.bandwidth);
            into.bandwidthSkipped = std::move(from.bandwidthSkipped);
            break;
        case Section::Kv:
            into.kv = std::move(from.kv);
            into.kvBackend = std::move(from.kvBackend);
            into.kvKernel = std::move(from.kvKernel);
            into.kvSkipped = std::move(from.kvSkipped);
            break;
    }
}

void markSection(BenchReport& report, Section s, const std::string& why) {
    BenchReport empty;
    empty.kvBackend = report.kvBackend;
    takeSection(report, std::move(empty), s);
    switch (s) {
        case Section::Gemm:
            report.gemmSkipped = why;
            break;
        case Section::Bandwidth:
            report.bandwidthSkipped = why;
            break;
        case Section::Kv:
            report.kvSkipped = why;
            break;
    }
}

void addWarnings(BenchReport& into, const std::vector<std::string>& warnings) {
    for (const std::string& w : warnings) {
        if (std::find(into.warnings.begin(), into.warnings.end(), w) == into.warnings.end()) into.warnings.push_back(w);
    }
}

std::string seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f s", s);
    return text;
}

}  // namespace

BenchReport runSections(const BenchRequest& request, const BenchProgress& progress,
                        const std::function<void(const BenchReport&)>& written) {
    std::vector<Section> todo;
    for (Section s : {Section::Gemm, Section::Bandwidth, Section::Kv}) {
        if (requested(request, s)) todo.push_back(s);
    }
    BenchReport merged;
    bool first = true;
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const Section s = todo[i];
        if (merged.cancelled) {
            markSection(merged, s, "cancelled");
            continue;
        }
        const double base = static_cast<double>(i);
        const double count = static_cast<double>(todo.size());
        const BenchProgress scaled = [&](double fraction, const std::string& step) {
            return !progress || progress((base + fraction) / count, step);
        };
        BenchReport part = runBench(only(request, s), scaled);
        if (first) {
            // The device, the backend and the sections not requested: as this first run says them.
            merged = part;
            first = false;
        } else {
            merged.cancelled = merged.cancelled || part.cancelled;
            addWarnings(merged, part.warnings);
            takeSection(merged, std::move(part), s);
        }
        if (written && i + 1 < todo.size()) {
            BenchReport partial = merged;
            for (std::size_t j = i + 1; j < todo.size(); ++j) markSection(partial, todo[j], kPendingReason);
            partial.cancelled = true;
            written(partial);
        }
    }
    if (written) written(merged);
    return merged;
}

void printPlan(std::ostream& out, const BenchRequest& request, const std::string& device) {
    const double cap = request.measure.maxSecondsPerCase;
    double bound = 0;
    out << "plan: device: " << device << "\n";
    if (request.gemm) {
        const int variants = request.fp8FastAccum ? 3 : 2;
        const auto cases = static_cast<int>(request.gemmShapes.size()) * variants;
        out << "plan: gemm: " << request.gemmShapes.size() << " shapes x " << variants << " (bf16, fp8_e4m3"
            << (request.fp8FastAccum ? ", fp8 fast accumulation" : "") << ") = " << cases << " cases, each capped at "
            << cap << " s\n";
        for (const GemmShape& s : request.gemmShapes)
            out << "plan:   " << s.layer << " M=" << s.m << " N=" << s.n << " K=" << s.k << "\n";
        bound += cases * cap;
    }
    if (request.bandwidth) {
        out << "plan: bandwidth: read, copy ("
            << (request.bandwidthBytes ? std::to_string(request.bandwidthBytes) + " bytes" : std::string("1 GiB"))
            << "), each capped at " << cap << " s\n";
        bound += 2 * cap;
    }
    if (request.kv) {
        const KvShape& k = request.kvSweep.shape;
        out << "plan: kv kernel: " << request.kvSweep.scalings.size() << " scalings over a 128K-token cache ("
            << k.layers << " layers x " << k.kvHeads << " KV heads x " << k.headDim << "), each capped at " << cap
            << " s\n";
        out << "plan: kv sweep: " << request.kvSweep.scalings.size() << " scalings x contexts";
        for (const int c : request.kvSweep.contexts) out << " " << c;
        out << " (error metrics on the CPU; its time grows with the longest context)\n";
        bound += static_cast<double>(request.kvSweep.scalings.size()) * cap;
    }
    out << "plan: measured time at most " << seconds(bound)
        << " plus set-up, cuBLASLt candidate ranking and the KV sweep\n";
}

bool writeFileAtomically(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".partial";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file << text;
        file.close();
        if (!file) return false;
    }
    return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace fp8dash::gpu::runner
