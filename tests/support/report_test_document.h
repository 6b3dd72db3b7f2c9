#pragma once
// The comparison the report tests render (core goldens, the ui's PDF, the CLI's --out): every section a report has,
// from files under tests/data plus what the test adds. The evals, paired tests, control run, judge scores and three
// notes of tests/data/comparison-files/v1/paired-judge-control.fp8cmp; the CPU benchmark run of judge-bench.fp8cmp;
// an 8-hour production timeline built here (throughput 1000 → 1480 tokens/s at the change, judge quality 4.2 → 3.9,
// which fires the quality alert); capacity inputs (Llama 3.1 8B on one H100 SXM, FP8 weights and KV cache); two
// review decisions (the one in force approves "go", which overrides the evidence); a fourth note with markup
// characters, edited. reportTestGpuBench() is a synthetic GPU run for the parts a CPU run lacks. Header-only; needs
// fp8dash_core.

#include <gtest/gtest.h>

#include <string>

#include "bench_test_json.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/local_bench.h"
#include "fp8dash/core/timeline.h"

namespace fp8dash::test {

inline constexpr double kReportTimelineFrom = 1795824000 + 8 * 3600;  // 2026-11-28 08:00:00 UTC
inline constexpr double kReportTimelineTo = kReportTimelineFrom + 8 * 3600;
inline constexpr double kReportChangeAt = kReportTimelineFrom + 4 * 3600;  // FP8 on at 12:00
inline constexpr const char* kReportMarkupNote = "Check <b>gsm8k</b> & the \"flexible\" | filter's *score*";

inline std::string reportTestDataFile(const std::string& name) {
    return std::string(FP8DASH_TEST_DATA) + "/comparison-files/v1/" + name;
}

inline TimelineData reportTestTimeline() {
    TimelineData data;
    TimelineSettings& s = data.settings;
    s.prometheusUrl = "http://prometheus.test:9090";
    s.qualitySource = QualitySource::Langfuse;
    s.langfuseUrl = "https://langfuse.test";
    s.traceTags = {"precision:fp8"};
    s.from = kReportTimelineFrom;
    s.to = kReportTimelineTo;
    s.step = 60;
    s.changeAt = kReportChangeAt;
    Series throughput;
    int i = 0;
    for (double t = s.from; t <= s.to; t += 60, ++i) {
        const double level = t < kReportChangeAt ? 1000 : t < kReportChangeAt + 300 ? 1240 : 1480;
        throughput.samples.push_back({t, level + (i % 2 == 0 ? 20.0 : -20.0)});
    }
    data.throughput = throughput;
    Series quality;
    i = 0;
    for (double t = s.from; t <= s.to; t += 120, ++i) {
        const double level = t < kReportChangeAt ? 4.2 : 3.9;
        quality.samples.push_back({t, level + (i % 2 == 0 ? 0.1 : -0.1)});
    }
    data.quality = quality;
    recomputeDerived(data);  // Langfuse scores: the alert is evaluated locally
    return data;
}

// A benchmarks section as an H200 run would save it (synthetic figures, the layout of gpu/'s JSON): qkv and o at
// M = 1 and 128 in BF16 and FP8, read and copy bandwidth, three KV scalings at two contexts. For the GEMM table,
// the roofline and speedup charts and the bandwidth table, which the CPU run of judge-bench.fp8cmp lacks.
inline Json reportTestGpuBenchJson() {
    const Json bandwidth = Json::array({benchBandwidthRow("read", 1073741824ull, 4.1e12, 85.4, 0.0025),
                                        benchBandwidthRow("copy", 2147483648ull, 3.9e12, 81.25, 0.0025)});
    return h200Run(h200QkvAndOGemmRows(), bandwidth, h200KvRows(), Json::array(),
                   Json::array({"clock throttled in 3 samples"}));
}

inline BenchResults reportTestGpuBench() {
    auto r = parseBenchResults(reportTestGpuBenchJson(), "synthetic H200 benchmarks");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BenchResults{};
}

inline ComparisonDocument reportTestDocument() {
    auto loaded = loadComparisonFile(reportTestDataFile("paired-judge-control.fp8cmp"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    ComparisonDocument doc = std::move(loaded).value();
    auto bench = loadComparisonFile(reportTestDataFile("judge-bench.fp8cmp"));
    EXPECT_TRUE(bench.ok()) << (bench.ok() ? "" : bench.error().message);
    doc.benchmarks = bench.value().benchmarks;
    doc.timeline = reportTestTimeline();
    CapacitySettings capacity;     // llama-3.1-8b on one h100-sxm, FP8 weights and KV cache
    capacity.vllmVersion.clear();  // a section saved before vLLM's accounting (the golden reports' flat figures)
    doc.capacity = capacity;
    doc.decisions = {
        ReviewDecision{ReviewOutcome::ApprovedMonitor, "Ana Ruiz", "2026-11-30T10:00:00Z",
                       "Within the monitor band; enable with the judge alert on.", Verdict::Monitor, "0.2.0"},
        ReviewDecision{ReviewOutcome::ApprovedGo, "Lee Chen", "2026-12-01T14:03:05Z",
                       "The GSM8K drop is inside the noise floor of the control run.", Verdict::Monitor, "0.2.0"},
    };
    Note note;
    note.id = doc.newNoteId();
    note.text = std::string(kReportMarkupNote) + "\nsecond line";
    note.author = "Mia <QA>";
    note.created = "2026-12-01T15:00:00Z";
    note.edited = "2026-12-01T15:30:00Z";
    note.task = "gsm8k";
    doc.notes.push_back(note);
    return doc;
}

}  // namespace fp8dash::test
