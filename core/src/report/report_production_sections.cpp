// The report's production sections (report_model.h): the production timeline, the local benchmarks and the KV-cache
// capacity plan.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "fp8dash/core/capacity.h"
#include "fp8dash/core/http_client.h"
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/time_series.h"
#include "fp8dash/core/variant_text.h"
#include "fp8dash/core/vllm_metrics.h"
#include "report/report_sections.h"

namespace fp8dash::report_doc {

using numfmt::fixed;
using numfmt::general;

namespace {

// The KV headline (kv_headline.h): the figure an ML engineer should weigh, how to read it, and the cache it came from.
void addKvHeadline(Section& s, const BenchResults& b) {
    const auto h = kvHeadline(b);
    if (!h) return;
    s.paragraph(strong("Headline: " + h->summary() + ".") + plain(" " + h->reading));
    s.paragraph(plain("Source: " + kvSourceText(b.kv[h->row].source) + "."));
}

// The KV table with the metrics of kv_headline.h, and their definitions in one line each. Rows of older fp8dash have
// no attention-output error: their old figure gets a column of its own, labelled as not comparable.
void addKvTable(Section& s, const BenchResults& b) {
    bool legacyColumn = false;
    for (const auto& p : b.kv) legacyColumn = legacyColumn || (!p.hasAttentionMetrics && p.legacyAttnRelError);
    const auto pct = [](bool has, double v) { return cell(has ? kvPercentText(v) : std::string("—")); };
    const auto count = [](const std::optional<std::uint64_t>& n) { return n ? grouped(*n) : std::string("—"); };
    Table t;
    t.header = {"Scaling",     "Context",     "Attention-output error", "Attention TVD",
                "K rel. RMSE", "V rel. RMSE", "Saturated K / V",        "Elements/s"};
    if (legacyColumn) t.header.push_back("Old attention figure (not comparable)");
    t.align.assign(t.header.size(), Align::Right);
    t.align[0] = Align::Left;
    for (const auto& p : b.kv) {
        std::vector<Cell> row{
            Cell{code(p.scaling)},
            cell(grouped(static_cast<std::uint64_t>(p.context))),
            pct(p.hasAttentionMetrics, p.attnOutRelRmse),
            pct(p.hasAttentionMetrics, p.attnWeightTvd),
            pct(true, p.key.relRmse),
            pct(true, p.value.relRmse),
            cell(count(p.key.saturated) + " / " + count(p.value.saturated)),
            cell(p.elementsPerSecond >= 1e6
                     ? grouped(static_cast<std::uint64_t>(std::llround(p.elementsPerSecond / 1e6))) + " M/s"
                 : p.elementsPerSecond > 0 ? significant(p.elementsPerSecond) + "/s"
                                           : std::string("—"))};
        if (legacyColumn)
            row.push_back(cell(p.legacyAttnRelError && !p.hasAttentionMetrics ? significant(*p.legacyAttnRelError)
                                                                              : std::string("—")));
        t.rows.push_back(std::move(row));
    }
    s.table(std::move(t));
    std::vector<Line> definitions;
    for (const char* key :
         {"attn_out_rel_rmse", "attn_weight_tvd", "key.rel_rmse", "value.rel_rmse", "saturated", "elements_per_s"})
        for (const KvMetricDefinition& d : kvMetricDefinitions())
            if (d.key == key) definitions.push_back(strong(d.name) + plain(": " + d.definition));
    if (legacyColumn)
        definitions.push_back(strong("Old attention figure") + plain(": " + kvMetricDefinition("attn_rel_error")));
    s.bullets(std::move(definitions));
}

// "Change at …" from "change at …", with a full stop: a fact of the timeline's list.
std::string capitalizedSentence(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
    return text + ".";
}

std::string dtypeLabel(const std::string& weights, const std::string& kv) {
    return "weights " + upper(weights) + ", KV " + upper(kv);
}

}  // namespace

void addTimeline(Report& report, const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx) {
    if (!d.timeline || !doc.timeline) return;
    const TimelineReport& r = *d.timeline;
    const TimelineData& data = *doc.timeline;
    const TimelineSettings& st = data.settings;
    Section s{"timeline", "Production timeline", {}};
    s.paragraph(
        plain(formatTimeUtc(st.from) + " → " + formatTimeUtc(st.to) + ", step " + general(st.step) + " s. Verdict: ") +
        (r.verdict ? strong(std::string(verdictTitle(*r.verdict)), toneOf(*r.verdict))
                   : plain("none (it needs a quality series and the change time)")) +
        plain("."));
    std::vector<Line> reasons;
    for (const auto& reason : r.reasons) reasons.push_back(plain(reason));
    s.bullets(std::move(reasons));
    if (const ReportChart* chart = findChart(ctx, "timeline")) {
        s.figure(chart);
        s.paragraph(chartLine(*chart), Only::Markdown);
    }
    Table t;
    t.header = {"Signal", "Before", "After", "Change", "Assessment"};
    t.align = {Align::Left, Align::Right, Align::Right, Align::Right, Align::Left};
    const auto mean = [](const std::optional<double>& v, std::size_t n, int decimals) {
        return v ? fixed(*v, decimals) + " (n=" + std::to_string(n) + ")" : std::string("—");
    };
    if (data.throughput)
        t.rows.push_back({cell("Throughput (tokens/s)"),
                          cell(mean(r.throughput.beforeMean, r.throughput.beforeCount, 1)),
                          cell(mean(r.throughput.afterMean, r.throughput.afterCount, 1)),
                          cell(formatPercent(r.throughput.deltaPct(), 1)), cell(r.throughputAssessment)});
    if (data.quality) {
        const auto dp = r.quality.deltaPoints();
        t.rows.push_back({cell("Quality (judge points)"), cell(mean(r.quality.beforeMean, r.quality.beforeCount, 3)),
                          cell(mean(r.quality.afterMean, r.quality.afterCount, 3)),
                          cell(dp ? format("%+.3f", *dp) : std::string("—")), cell(r.qualityAssessment)});
    }
    if (!t.rows.empty()) s.table(std::move(t));
    std::vector<Line> facts;
    if (r.changeAt)
        facts.push_back(plain("FP8 switched on at " + formatTimeUtc(*r.changeAt) +
                              "; “after” starts 5 minutes later (the rate window)."));
    else
        facts.push_back(plain("The time FP8 was switched on is not set."));
    // Where it came from when vLLM's own switch is involved: detected (with the rollout), or overridden.
    if (!r.changeDetail.empty()) facts.push_back(plain(capitalizedSentence(r.changeDetail)));
    if (!r.rollout.empty()) facts.push_back(plain(capitalizedSentence(r.rollout)));
    if (data.detectedChange)
        facts.push_back(plain(
            "vLLM's cache_config_info shows cache_dtype " + describeKvCacheDtype(data.detectedChange->from) + " → " +
            describeKvCacheDtype(data.detectedChange->to) + " at " + formatTimeUtc(data.detectedChange->at) + "."));
    for (const auto& risk : r.risks) facts.push_back(plain("Risk: " + risk + "."));
    std::string sources;
    if (data.throughput)
        sources +=
            "throughput from Prometheus " + HttpClient::displayUrl(st.prometheusUrl) + " (" + st.throughputQuery + ")";
    if (st.qualitySource == QualitySource::Langfuse)
        sources += (sources.empty() ? "" : "; ") + std::string("quality: Langfuse scores “") + st.scoreName + "” at " +
                   HttpClient::displayUrl(st.langfuseUrl);
    else if (st.qualitySource == QualitySource::Prometheus)
        sources += (sources.empty() ? "" : "; ") + std::string("quality from Prometheus (") + st.qualityQuery + ")";
    if (!sources.empty()) facts.push_back(plain("Sources: " + sources + "."));
    s.bullets(std::move(facts));
    if (data.quality) {
        s.heading("Quality alert");
        s.paragraph(code(st.rule.promql("q")) +
                    plain(", held for " + general(st.rule.holdForS / 60) + " minutes; evaluated " +
                          (data.alertsEvaluatedBy == "prometheus" ? "by Prometheus" : "locally") + " with " +
                          windowSemanticsTitle(st.rule.windows) +
                          (data.windowSemanticsBasis.empty() ? "" : " (" + data.windowSemanticsBasis + ")") + "."));
        if (!data.server.empty()) s.paragraph(plain("Prometheus API served by " + data.server + "."));
        if (r.alerts.empty()) {
            s.paragraph(plain("The alert never went pending."));
        } else {
            Table a;
            a.header = {"Pending", "Firing", "Resolved"};
            for (const auto& e : r.alerts)
                a.rows.push_back(
                    {cell(formatTimeUtc(e.pendingAt)),
                     Cell{e.firingAt ? toned(formatTimeUtc(*e.firingAt), Tone::Investigate) : plain("never fired")},
                     cell(e.resolvedAt ? formatTimeUtc(*e.resolvedAt) : std::string("still active"))});
            s.table(std::move(a));
        }
    }
    std::vector<Line> warnings;
    for (const auto& w : data.warnings) warnings.push_back(toned("⚠ From the server: " + w, Tone::Warning));
    s.bullets(std::move(warnings));
    report.sections.push_back(std::move(s));
}

void addBenchmarks(Report& report, const ComparisonDocument& doc, const ReportContext& ctx) {
    if (!doc.benchmarks) return;
    const BenchResults& b = *doc.benchmarks;
    Section s{"benchmarks", "Local benchmarks", {}};
    s.paragraph(plain("Measured " + (b.created.empty() ? std::string("(time not recorded)") : readable(b.created)) +
                      (b.model.empty() ? "" : " with the shapes of " + b.model) + ", " +
                      (b.backend.empty() ? std::string("unknown") : b.backend) + " backend" +
                      (b.cancelled ? "; the run was cancelled, so the results are partial" : "") + "."));
    const BenchDevice& dev = b.device;
    Table device;
    device.keyValue = true;
    device.header = {"", ""};
    if (dev.available && !dev.name.empty()) {
        std::string line = dev.name;
        std::vector<std::string> parts;
        if (!dev.computeCapability.empty()) parts.push_back("compute capability " + dev.computeCapability);
        if (dev.memoryBytes) parts.push_back(formatBytes(dev.memoryBytes));
        if (dev.multiprocessors) parts.push_back(std::to_string(dev.multiprocessors) + " SMs");
        for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " (") + parts[i];
        if (!parts.empty()) line += ")";
        device.rows.push_back({cell("Device"), cell(line)});
        if (dev.peak)
            device.rows.push_back(
                {cell("Datasheet"), cell(dev.peak->name + ": FP8 " + general(dev.peak->fp8DenseTflops) + " / BF16 " +
                                         general(dev.peak->bf16DenseTflops) + " TFLOP/s dense, " +
                                         general(dev.peak->memoryBandwidthGBps) + " GB/s")});
    } else {
        device.rows.push_back(
            {cell("Device"),
             cell("no usable GPU: " + (dev.reason.empty() ? std::string("no reason given") : dev.reason))});
    }
    if (!b.kvBackend.empty()) device.rows.push_back({cell("KV error computed by"), cell(b.kvBackend)});
    s.table(std::move(device));

    const ReportChart* roofline = findChart(ctx, "bench-roofline");
    const ReportChart* speedup = findChart(ctx, "bench-speedup");
    const ReportChart* kvChart = findChart(ctx, "bench-kv");
    s.heading("GEMM: FP8 against BF16");
    if (b.gemm.empty()) {
        s.paragraph(plain("Skipped: " + (b.gemmSkipped.empty() ? std::string("no results") : b.gemmSkipped) + "."));
    } else {
        for (const ReportChart* chart : {roofline, speedup}) {
            if (!chart) continue;
            s.figure(chart);
            s.paragraph(chartLine(*chart), Only::Markdown);
        }
        Table g;
        g.header = {"Layer", "M × N × K", "BF16 TFLOP/s", "FP8 TFLOP/s", "FP8 speedup", "FP8 % of roof"};
        g.align = {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right};
        std::vector<const BenchGemmPoint*> order;
        for (const auto& p : b.gemm)
            if (p.precision != "bf16" && !p.fastAccum) order.push_back(&p);
        const auto bf16Of = [&b](const BenchGemmPoint& p) -> const BenchGemmPoint* {
            for (const auto& q : b.gemm)
                if (q.precision == "bf16" && q.layer == p.layer && q.m == p.m && q.n == p.n && q.k == p.k) return &q;
            return nullptr;
        };
        const auto rate = [](const BenchGemmPoint* p) {
            if (!p) return std::string("—");
            return p->skipped.empty() ? fixed(p->tflops, 1) : "skipped: " + p->skipped;
        };
        for (const BenchGemmPoint* p : order) {
            g.rows.push_back(
                {Cell{code(p->layer)},
                 cell(std::to_string(p->m) + " × " + std::to_string(p->n) + " × " + std::to_string(p->k)),
                 cell(rate(bf16Of(*p))), cell(rate(p)),
                 cell(p->skipped.empty() && p->speedupVsBf16 > 0 ? fixed(p->speedupVsBf16, 2) + "×" : std::string("—")),
                 cell(p->skipped.empty() && p->roofTflops ? fixed(p->percentOfRoof, 1) + "%" : std::string("—"))});
        }
        s.table(std::move(g));
    }
    if (!b.bandwidth.empty() || !b.bandwidthSkipped.empty()) {
        s.heading("Memory bandwidth");
        if (b.bandwidth.empty()) {
            s.paragraph(plain("Skipped: " + b.bandwidthSkipped + "."));
        } else {
            Table t;
            t.header = {"Kernel", "Size", "Rate", "% of datasheet"};
            t.align = {Align::Left, Align::Right, Align::Right, Align::Right};
            for (const auto& p : b.bandwidth)
                t.rows.push_back({Cell{code(p.kernel)}, cell(formatBytes(p.bytes)),
                                  cell(p.skipped.empty() ? bytesPerSecond(p.bytesPerSecond) : "skipped: " + p.skipped),
                                  cell(p.skipped.empty() && p.percentOfPeak > 0 ? fixed(p.percentOfPeak, 1) + "%"
                                                                                : std::string("—"))});
            s.table(std::move(t));
        }
    }
    s.heading("KV cache in FP8 E4M3: error");
    if (b.kv.empty()) {
        s.paragraph(plain("Skipped: " + (b.kvSkipped.empty() ? std::string("no results") : b.kvSkipped) + "."));
    } else {
        addKvHeadline(s, b);
        if (kvChart) {
            s.figure(kvChart);
            s.paragraph(chartLine(*kvChart), Only::Markdown);
        }
        addKvTable(s, b);  // the headline, the table and the definitions (kv_headline.h)
    }
    std::vector<Line> warnings;
    for (const auto& w : b.warnings) warnings.push_back(toned("⚠ " + w, Tone::Warning));
    s.bullets(std::move(warnings));
    report.sections.push_back(std::move(s));
}

void addCapacity(Report& report, const ComparisonDocument& doc, const Decision& d) {
    if (!doc.capacity) return;
    const CapacitySettings& st = *doc.capacity;
    Section s{"capacity", "KV-cache capacity", {}};
    s.paragraph(plain("Model ") + code(st.model) +
                plain(" on " + std::to_string(st.gpus) + " × " + st.gpu + ", GPU memory utilisation " +
                      fixed(st.gpuUtilization, 2) + ", context " +
                      grouped(static_cast<std::uint64_t>(st.contextTokens)) + " tokens, runtime overhead " +
                      // A section saved without a vLLM version plans with the flat overhead it was made with.
                      (st.vllmVersion.empty() ? general(st.overheadGiB) + " GiB per GPU"
                                              : "as vLLM " + st.vllmVersion + " accounts it") +
                      "; chosen: " + dtypeLabel(st.weights, st.kv) + "."));
    // What FP8 buys comes from the tested configuration's own layers: an FP8 KV cache it lacks is said to be untested.
    if (const std::string note =
            doc.hasEvals ? variant_text::untestedKvCacheNote(d, upper(st.kv) == "FP8") : std::string();
        !note.empty())
        s.paragraph(toned("⚠ " + note + ".", Tone::Warning));
    if (st.gpu == "local") {
        s.paragraph(
            toned("Planned for the GPUs of the machine where it was made (“local”): the figures depend on "
                  "their free memory at the time, so they cannot be recomputed offline. Open the comparison on "
                  "that machine (Bench › Show Capacity) to see them.",
                  Tone::Warning));
        report.sections.push_back(std::move(s));
        return;
    }
    auto plan = planCapacityComparison(st, nullptr);
    if (!plan) {
        s.paragraph(toned("The plan cannot be recomputed here: " + plan.error().message, Tone::Warning));
        report.sections.push_back(std::move(s));
        return;
    }
    const CapacityResult& bf = plan->bf16;
    const CapacityResult& sel = plan->selected;
    s.paragraph(plain(sel.inputs.model.name + " on " + std::to_string(sel.inputs.gpus) + " × " +
                      sel.inputs.gpu.displayName + " (" + formatBytes(sel.inputs.gpu.memoryBytes) + " each)."));
    Table t;
    t.header = {"", "BF16 (weights BF16, KV BF16)", "Chosen (" + dtypeLabel(st.weights, st.kv) + ")"};
    t.align = {Align::Left, Align::Right, Align::Right};
    const auto row = [&t](const std::string& label, const std::string& a, const std::string& b) {
        t.rows.push_back({cell(label), cell(a), cell(b)});
    };
    const auto perToken = [](const CapacityResult& r) {
        return grouped(r.kvBytesPerToken) + " B" + (r.kvReplication > 1 ? " × " + std::to_string(r.kvReplication) : "");
    };
    row("KV bytes per token", perToken(bf), perToken(sel));
    row("Weights", formatBytes(bf.weightsBytes), formatBytes(sel.weightsBytes));
    if (!st.vllmVersion.empty())  // the flat overhead is in the paragraph above; vLLM's is modelled per variant
        row("Runtime overhead", formatBytes(bf.overheadBytes), formatBytes(sel.overheadBytes));
    const auto kvCache = [](const CapacityResult& r) {
        return r.shortfallBytes ? "none: " + formatBytes(r.shortfallBytes) + " short" : formatBytes(r.kvCacheBytes);
    };
    row("KV cache", kvCache(bf), kvCache(sel));
    row("Max tokens", grouped(bf.maxTokens), grouped(sel.maxTokens));
    row("Sequences of " + grouped(static_cast<std::uint64_t>(st.contextTokens)) + " tokens", grouped(bf.maxSequences),
        grouped(sel.maxSequences));
    const auto decode = [](const CapacityResult& r) {
        if (!r.decode) return std::string("n/a (no datasheet bandwidth)");
        const DecodeVariant& v = r.decode->selected;
        return grouped(static_cast<std::uint64_t>(std::llround(v.tokensPerS))) + " tokens/s" +
               (v.batchFits ? "" : " (the batch does not fit)");
    };
    row("Decode estimate" +
            (sel.decode ? " (batch " + std::to_string(sel.decode->batch) + ", upper bound)" : std::string()),
        decode(bf), decode(sel));
    row("Fits", bf.fits ? "yes" : "no: " + bf.reason, sel.fits ? "yes" : "no: " + sel.reason);
    s.table(std::move(t));
    if (sel.decode)
        s.paragraph(
            toned("The decode estimate is bandwidth-bound: each step reads the weights and the K/V of the "
                  "batch at full context at the datasheet bandwidth; real kernels reach a fraction of it.",
                  Tone::Muted));
    report.sections.push_back(std::move(s));
}

}  // namespace fp8dash::report_doc
