// The KV headline rule and the metric definitions (kv_headline.h).
#include "fp8dash/core/kv_headline.h"
#include "fp8dash/core/kv_scales_advice.h"
#include "fp8dash/core/number_format.h"

#include <cmath>
#include <cstdio>

namespace fp8dash {
namespace {

// A count from a file (a dump's shape, rows, saturated values) with its digits grouped; a negative one keeps its sign.
std::string grouped(long long v) {
    return v < 0 ? "-" + numfmt::grouped(0 - static_cast<std::uint64_t>(v))
                 : numfmt::grouped(static_cast<std::uint64_t>(v));
}

// The row of `scaling` with the longest context whose figure (read by `value`) is finite; -1 when there is none.
template <typename Value>
long bestRow(const std::vector<BenchKvPoint>& kv, const char* scaling, Value value) {
    long best = -1;
    for (std::size_t i = 0; i < kv.size(); ++i) {
        if (kv[i].scaling != scaling || !std::isfinite(value(kv[i]))) continue;
        if (best < 0 || kv[i].context > kv[static_cast<std::size_t>(best)].context) best = static_cast<long>(i);
    }
    return best;
}

// K + V saturated of a row; nullopt when neither side recorded it.
std::optional<std::uint64_t> saturatedOf(const BenchKvPoint& p) {
    if (!p.key.saturated && !p.value.saturated) return std::nullopt;
    return p.key.saturated.value_or(0) + p.value.saturated.value_or(0);
}

constexpr const char* kReading =
    "How to read it: E4M3's rounding alone moves K and V by about 2–3 % (relative RMSE), so an attention-output error "
    "of that order is benign; saturated values (|x / scale| > 448, clamped) are what costs accuracy.";
constexpr const char* kLegacyReading =
    "These results were saved by an older fp8dash, before the attention-output error existed, so the K/V relative "
    "RMSE is shown: E4M3's rounding alone moves values by about 2–3 %, which is benign. Their old attention figure "
    "(relative to a near-zero exact output) is not comparable; run the benchmark again for the new figures.";

}  // namespace

std::string kvContextText(int tokens) {
    if (tokens >= 1024 && tokens % 1024 == 0) return std::to_string(tokens / 1024) + "K";
    return std::to_string(tokens);
}

std::string kvPercentText(double fraction) {
    if (!std::isfinite(fraction)) return "n/a";
    const double pct = fraction * 100;
    char buf[64];
    if (std::abs(pct) >= 1 || pct == 0)
        std::snprintf(buf, sizeof buf, "%.1f%%", pct);
    else if (std::abs(pct) >= 0.1)
        std::snprintf(buf, sizeof buf, "%.2f%%", pct);
    else
        std::snprintf(buf, sizeof buf, "%.2g%%", pct);
    return buf;
}

namespace {

// kvPercentText without its "%": the number alone, for ranges and percentage points.
std::string percentNumber(double fraction) {
    std::string text = kvPercentText(fraction);
    if (!text.empty() && text.back() == '%') text.pop_back();
    return text;
}

}  // namespace

std::string kvRangeText(double low, double high) {
    return percentNumber(low) + "–" + kvPercentText(high);
}

std::string kvSourceText(const BenchKvSource& source) {
    if (source.kind.empty()) return "synthetic cache";  // older fp8dash: always its synthetic cache
    std::string out = source.kind == "synthetic" ? "synthetic cache"
                      : source.kind == "dump"    ? "dump of a model's K/V"
                                                 : source.kind;
    std::string detail = source.description;
    if (source.shape.size() == 4) {
        detail += std::string(detail.empty() ? "" : "; ") + grouped(source.shape[0]) + " layers × " +
                  grouped(source.shape[1]) + " KV heads × " + grouped(source.shape[2]) + " tokens × " +
                  grouped(source.shape[3]);
    }
    return detail.empty() ? out : out + " (" + detail + ")";
}

std::string KvHeadline::summary() const {
    return metric + " " + figure + " (" + (interval.empty() ? "" : interval + "; ") + where + "; " +
           (synthetic ? "synthetic cache" : "the model's own K/V") + ")";
}

namespace {

// A difference of two fractions in percentage points: 0.205 -> "20.5", 0.0042 -> "0.42".
std::string pointsText(double difference) {
    return percentNumber(std::abs(difference));
}

// How the other modes at the headline's context compare with it (the headline is per_tensor's row whenever the rows
// carry paired differences, which are all taken against per_tensor): those that differ beyond the sampling error,
// each with its paired difference, then those that do not.
std::string comparisonText(const std::vector<BenchKvPoint>& kv, const BenchKvPoint& head) {
    std::string differ, same;
    int sameCount = 0;
    for (const BenchKvPoint& q : kv) {
        if (q.context != head.context || q.scaling == head.scaling || !q.attnOutVsPerTensor ||
            !q.attnOutVsPerTensorCi95 || !std::isfinite(*q.attnOutVsPerTensor))
            continue;
        const double d = *q.attnOutVsPerTensor;
        const BenchInterval& ci = *q.attnOutVsPerTensorCi95;
        if (ci.containsZero()) {
            same += std::string(same.empty() ? "" : " and ") + q.scaling + " (" + kvPercentText(q.attnOutRelRmse) + ")";
            ++sameCount;
            continue;
        }
        differ +=
            " " + q.scaling + " is " + (d > 0 ? "higher" : "lower") + " by " + pointsText(d) + " percentage points (" +
            kvPercentText(q.attnOutRelRmse) + " against " + kvPercentText(head.attnOutRelRmse) +
            "; 95% CI of the paired difference " +
            (d > 0 ? pointsText(ci.low) + "–" + pointsText(ci.high) : pointsText(ci.high) + "–" + pointsText(ci.low)) +
            " points).";
    }
    if (!same.empty())
        same = " " + same + (sameCount > 1 ? " do" : " does") + " not differ from " + head.scaling +
               " beyond the sampling error: the 95% interval of the paired difference includes zero" +
               (head.attnRows > 0 && head.attnHeads > 0
                    ? " (" + grouped(static_cast<long long>(head.attnRows)) + " query rows over " +
                          grouped(static_cast<long long>(head.attnHeads)) + " heads)."
                    : ".");
    return differ.empty() && same.empty() ? std::string()
                                          : "At " + kvContextText(head.context) + " tokens:" + differ + same;
}

}  // namespace

std::optional<KvHeadline> kvHeadline(const BenchResults& results) {
    const std::vector<BenchKvPoint>& kv = results.kv;
    bool anyNew = false;
    for (const BenchKvPoint& p : kv) anyNew = anyNew || p.hasAttentionMetrics;
    const auto attention = [](const BenchKvPoint& p) { return p.hasAttentionMetrics ? p.attnOutRelRmse : NAN; };
    const auto kvRmse = [](const BenchKvPoint& p) { return p.relRmse; };
    long row = -1;
    for (const char* scaling : {"per_tensor", "per_head", "none"}) {
        row = anyNew ? bestRow(kv, scaling, attention) : bestRow(kv, scaling, kvRmse);
        if (row >= 0) break;
    }
    if (row < 0) return std::nullopt;

    KvHeadline h;
    h.row = static_cast<std::size_t>(row);
    const BenchKvPoint& p = kv[h.row];
    h.legacy = !anyNew;
    h.value = h.legacy ? p.relRmse : p.attnOutRelRmse;
    h.figure = kvPercentText(h.value);
    h.metric = h.legacy ? "K/V rel. RMSE" : "attention-output error";
    h.where = p.scaling + " scaling, " + kvContextText(p.context) + " tokens";
    h.synthetic = p.source.kind.empty() || p.source.kind == "synthetic";
    h.source = kvSourceText(p.source);
    for (const BenchKvPoint& q : kv) {
        if (q.scaling != "none" || q.context != p.context) continue;
        if (auto n = saturatedOf(q); n && *n > 0) h.noneSaturated = n;
        break;
    }
    if (!h.legacy && p.attnOutCi95) h.interval = "95% CI " + kvRangeText(p.attnOutCi95->low, p.attnOutCi95->high);
    if (!h.legacy) h.comparison = comparisonText(kv, p);
    h.reading = h.legacy ? kLegacyReading : kReading;
    if (!h.comparison.empty()) h.reading += " " + h.comparison;
    if (!h.legacy && p.scaling != "none") {
        if (auto own = saturatedOf(p); own && *own > 0)
            h.reading += " With " + p.scaling + " scaling " + grouped(static_cast<long long>(*own)) +
                         " values saturate at this context.";
    }
    if (h.noneSaturated)
        h.reading += " Without scales (scale 1.0) " + grouped(static_cast<long long>(*h.noneSaturated)) +
                     " values saturate at this context. For scales on vLLM " + kDefaultVllmVersion + ", " +
                     kvScalesAdvice() + ".";
    return h;
}

namespace {

std::string pad(std::string s, std::size_t width, bool left) {
    // Width in characters, not bytes: the table's cells are ASCII except "—".
    std::size_t chars = 0;
    for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
    if (chars < width) s.insert(left ? s.begin() : s.end(), width - chars, ' ');
    return s;
}

using numfmt::general;

std::string countText(const std::optional<std::uint64_t>& n) {
    return n ? grouped(static_cast<long long>(*n)) : "-";
}

// Words of `text` on lines of at most `width` characters, each line indented by `indent`.
std::string wrapped(const std::string& text, const std::string& indent, std::size_t width = 116) {
    std::string out, line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(at, end - at);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        at = end + 1;
    }
    if (!line.empty()) out += indent + line + "\n";
    return out;
}

}  // namespace

std::string kvResultsText(const BenchResults& r) {
    std::string out = "\nKV-cache quantisation to FP8 E4M3 (" + (r.kvBackend.empty() ? std::string("?") : r.kvBackend) +
                      "; error vs the BF16 cache)\n";
    if (r.kv.empty())
        return out + "  skipped: " + (r.kvSkipped.empty() ? std::string("no results") : r.kvSkipped) + "\n";
    bool legacyColumn = false;
    for (const BenchKvPoint& k : r.kv) legacyColumn = legacyColumn || (!k.hasAttentionMetrics && k.legacyAttnRelError);
    bool ciColumn = false;  // files written before the intervals have none: their table stays as it was
    for (const BenchKvPoint& k : r.kv) ciColumn = ciColumn || k.attnOutCi95.has_value();
    out += "  " + pad("scaling", 12, false) + pad("context", 9, true) + pad("K rel RMSE", 12, true) +
           pad("V rel RMSE", 12, true) + pad("K sat", 9, true) + pad("V sat", 9, true) + pad("attn out err", 14, true) +
           (ciColumn ? pad("95% CI", 15, true) : "") + pad("attn TVD", 10, true) + pad("Melem/s", 10, true) +
           (legacyColumn ? pad("old attn*", 11, true) : "") + "\n";
    for (const BenchKvPoint& k : r.kv) {
        out += "  " + pad(k.scaling, 12, false) + pad(std::to_string(k.context), 9, true) +
               pad(general(k.key.relRmse, 4), 12, true) + pad(general(k.value.relRmse, 4), 12, true) +
               pad(countText(k.key.saturated), 9, true) + pad(countText(k.value.saturated), 9, true) +
               pad(k.hasAttentionMetrics ? general(k.attnOutRelRmse, 4) : "-", 14, true) +
               (ciColumn
                    ? pad(k.attnOutCi95 ? general(k.attnOutCi95->low, 2) + "–" + general(k.attnOutCi95->high, 2) : "-",
                          15, true)
                    : "") +
               pad(k.hasAttentionMetrics ? general(k.attnWeightTvd, 4) : "-", 10, true) +
               pad(k.elementsPerSecond > 0 ? general(k.elementsPerSecond / 1e6, 4) : "-", 10, true);
        if (legacyColumn)
            out +=
                pad(k.legacyAttnRelError && !k.hasAttentionMetrics ? general(*k.legacyAttnRelError, 4) : "-", 11, true);
        out += "\n";
    }
    if (legacyColumn)
        out += "  * older fp8dash's attention figure, relative to a near-zero exact output: not comparable\n";
    if (ciColumn)
        out += wrapped(
            "95% CI: the attention-output error's 95% confidence interval, over the sampled (layer, head) "
            "units (query rows within a head are not independent).",
            "  ");
    if (!r.kvSkipped.empty()) out += "  note: " + r.kvSkipped + "\n";
    out += "  source: " + kvSourceText(r.kv.front().source) + "\n";
    if (const auto h = kvHeadline(r)) {
        out += "  headline: " + h->summary() + "\n";
        out += wrapped(h->reading, "  ");
    }
    out += wrapped(
        "K/V rel RMSE = sqrt(sum (x_hat - x)^2 / sum x^2); sat = values with |x / scale| > 448 (clamped); "
        "attn out err = sqrt(sum |o_hat - o|^2 / sum |o|^2) over sampled queries; attn TVD = mean 1/2 sum "
        "|p_hat - p| of the softmax rows; Melem/s = million K/V elements quantised per second.",
        "  ");
    return out;
}

const std::vector<KvMetricDefinition>& kvMetricDefinitions() {
    static const std::vector<KvMetricDefinition> defs = {
        {"attn_out_rel_rmse", "Attention-output error",
         "sqrt(Σ‖ô − o‖² / Σ‖o‖²) over the sampled query rows: the error of softmax(q·Kᵀ/√d)·V with the FP8 cache, "
         "normalised by the RMS of the exact outputs. The headline figure."},
        {"attn_out_ci95", "95% interval",
         "The attention-output error's 95% confidence interval over the sampled (layer, head) units: rows of one head "
         "share its temperature and scales, so heads, not rows, are the independent samples. Two modes differ only "
         "where the interval of their paired difference (same heads, same rows) excludes zero."},
        {"attn_weight_tvd", "Attention TVD",
         "Mean over the sampled query rows of ½ Σₜ |p̂ₜ − pₜ| (causal softmax rows): the share of attention "
         "probability the FP8 cache moves to other tokens; max = the worst row."},
        {"attn_out_cosine", "Attention-output cosine", "Mean over the sampled query rows of cos(ô, o)."},
        {"attn_entropy", "Attention entropy",
         "Mean entropy (nats) of the exact softmax rows: how peaked attention is (ln T for a uniform row over T "
         "tokens)."},
        {"key.rel_rmse", "K rel. RMSE",
         "sqrt(Σ(x̂ − x)² / Σx²) over the keys of the first T tokens of every layer and head; E4M3's rounding alone "
         "gives about 2–3 %."},
        {"value.rel_rmse", "V rel. RMSE", "The same over the values."},
        {"rel_rmse", "K/V rel. RMSE", "The same over K and V together."},
        {"saturated", "Saturated K / V",
         "Values with |x / scale| > 448 (E4M3's largest finite value), which the codec clamps to ±448: what separates "
         "scale 1.0 (none) from the scaled modes."},
        {"max_abs_error", "Max abs error", "max |x̂ − x| over K and V, in the cache's units."},
        {"cosine", "Cosine", "cos(x̂, x) over K and V together."},
        {"elements_per_s", "Elements/s",
         "K and V elements quantised per second (x / scale and encode), by the backend that ran the sweep."},
        {"attn_rel_error", "Old attention figure",
         "Older fp8dash's ‖ô − o‖ / ‖o‖ per head, relative to an exact output close to zero, so misleadingly large; "
         "not comparable with the attention-output error."},
    };
    return defs;
}

std::string kvMetricDefinition(const std::string& key) {
    for (const KvMetricDefinition& d : kvMetricDefinitions())
        if (d.key == key) return d.definition;
    return {};
}

}  // namespace fp8dash
