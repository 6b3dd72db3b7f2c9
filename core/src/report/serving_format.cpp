// The serving comparison in words (serving_format.h). The table is built once and written as text or Markdown.
#include "fp8dash/core/serving_format.h"

#include <cmath>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/number_format.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/untrusted_text.h"
#include "report/report_text_parts.h"
#include "serving/serving_words.h"

namespace fp8dash {

namespace {

const char* kMissing = "\u2014";

std::string figure(const std::optional<double>& v, int decimals) {
    if (!v) return kMissing;
    if (std::fabs(*v) >= 1000) return numfmt::grouped(static_cast<std::uint64_t>(std::llround(std::fabs(*v))));
    return numfmt::fixed(*v, decimals);
}

std::string latency(const std::optional<double>& v) {
    if (!v) return kMissing;
    return serving_words::ms(*v);
}

struct DeltaCell {
    std::string text;
    int tone = 0;
};

DeltaCell delta(const ServingPoint& p, const ServingDelta& d) {
    if (!p.hasBaseline) return {};
    if (!d.pct) return {kMissing, 0};
    std::string t = serving_words::pct(*d.pct);
    if (d.low && d.high) t += " [" + serving_words::pct(*d.low) + ", " + serving_words::pct(*d.high) + "]";
    const bool zero = numfmt::signedFixed(*d.pct, 1) == "0.0";
    return {t, zero ? 0 : (d.better ? 1 : -1)};
}

std::string sloCell(const ServingComparison& c, const ServingPoint& p) {
    if (c.slo.empty()) return kMissing;
    if (p.allFailed) return "every request failed";
    if (!p.meetsSlo) {
        if (!p.missed.empty()) return "missed: " + p.missed.front();
        std::string s = "not judged: no ";
        for (std::size_t i = 0; i < p.unknown.size(); ++i) s += (i ? ", " : "") + p.unknown[i];
        return s;
    }
    if (!*p.meetsSlo) {
        std::string s = "missed: ";
        for (std::size_t i = 0; i < p.missed.size(); ++i) s += (i ? "; " : "") + p.missed[i];
        return s;
    }
    return "met";
}

std::string loadsWords(const std::vector<double>& loads) {
    std::string s;
    for (std::size_t i = 0; i < loads.size(); ++i)
        s += (i == 0 ? "" : i + 1 == loads.size() ? " and " : ", ") + serving_words::loadCount(loads[i]);
    return s;
}

}  // namespace

ServingTable servingTable(const ServingComparison& c, const ServingVariantResult& v) {
    ServingTable t;
    t.header = {"Load",   "Runs",     "Output tok/s", "\u0394", "Req/s",   "TTFT p50", "TTFT p99",
                "\u0394", "TPOT p50", "TPOT p99",     "\u0394", "E2E p99", "SLO"};
    for (const ServingPoint& p : v.points) {
        const DeltaCell out = delta(p, p.outputTokensPerS), ttft = delta(p, p.ttft.p99), tpot = delta(p, p.tpot.p99);
        const ServingPointFigures& f = p.figures;
        t.rows.push_back({servingLoadWords(p.load), std::to_string(p.replicates), figure(f.outputTokensPerS, 1),
                          out.text, figure(f.requestsPerS, 2), latency(f.ttft.p50), latency(f.ttft.p99), ttft.text,
                          latency(f.tpot.p50), latency(f.tpot.p99), tpot.text, latency(f.e2el.p99), sloCell(c, p)});
        std::vector<int> tone(t.header.size(), 0);
        tone[3] = out.tone;
        tone[7] = ttft.tone;
        tone[10] = tpot.tone;
        if (p.meetsSlo) tone[12] = *p.meetsSlo ? 1 : -1;
        if (p.allFailed) tone[12] = -1;
        t.tone.push_back(tone);
    }
    return t;
}

std::string servingCapacityWords(const ServingComparison& c, const ServingVariantResult& v) {
    const ServingCapacity& cap = v.capacity;
    if (!cap.judged) return "not judged: " + cap.unjudgedReason;
    const std::string within = " within " + c.slo.words();
    if (!cap.load) {
        std::string s = "none: missed" + within + " already at " + servingLoadValueWords(c.axis, *cap.firstMissAt);
        if (!cap.metAgainAt.empty()) s += "; met again at " + loadsWords(cap.metAgainAt);
        return s;
    }
    std::string s = (cap.firstMissAt ? "" : "at least ") + servingLoadValueWords(c.axis, *cap.load, true) + within;
    if (cap.firstMissAt) {
        s += " (first missed at " + serving_words::loadCount(*cap.firstMissAt);
        if (cap.interpolated) s += "; about " + numfmt::general(*cap.interpolated, 3) + " by interpolation";
        s += ")";
    } else {
        s += " (every measured load meets it)";
    }
    if (!cap.metAgainAt.empty()) s += "; met again at " + loadsWords(cap.metAgainAt);
    return s;
}

std::string servingReplicaWords(const ServingComparison& c, const ServingVariantResult& v) {
    std::string s;
    if (v.replicas && c.options.targetLoad) {
        const int gpus = v.gpus.value_or(1);
        s = std::to_string(*v.replicas) + (*v.replicas == 1 ? " replica" : " replicas") + " of " +
            std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs") + " for " +
            servingLoadValueWords(c.axis, *c.options.targetLoad, true);
    }
    if (v.costPerMillionOutputTokens)
        s += (s.empty() ? "" : "; ") + numfmt::fixed(*v.costPerMillionOutputTokens, 2) +
             " per million output tokens at the SLO";
    return s;
}

namespace {

std::string variantTitle(const ServingComparison& c, std::size_t i) {
    const ServingVariantResult& v = c.variants[i];
    std::string s = v.label + (i == 0 ? " (baseline)" : "");
    std::string detail = v.model;
    for (const std::string& tool : v.tools) detail += (detail.empty() ? "" : ", ") + tool;
    return detail.empty() ? s : s + ": " + detail;
}

}  // namespace

std::string servingToText(const ServingComparison& c, bool commandLine) {
    using report_text::bulletLine;
    std::string out = "Serving benchmarks: ";
    for (std::size_t i = 0; i < c.variants.size(); ++i)
        out += (i == 0 ? "" : i == 1 ? " vs " : ", ") + oneLine(c.variants[i].label) + (i == 0 ? " (baseline)" : "");
    out += "\n";
    out += c.slo.empty() ? std::string("SLO: none given") +
                               (commandLine ? " (--slo ttft_p99=2000ms,tpot_p99=50ms judges capacity)" : "") + "\n"
                         : "SLO: " + c.slo.words() + "\n";
    if (!c.problems.empty()) {
        out += "\nProblems:\n";
        for (const ServingProblem& p : c.problems)
            out += bulletLine(p.blocking ? "\u2716" : "\u2022", p.text + (p.blocking ? " (blocking)" : ""));
    }
    if (c.variants.size() > 1) {
        out += "\nWhat FP8 buys:\n";
        if (c.blocked())
            out += bulletLine("\u2022", "not measured here: the runs are not comparable (the problems above)");
        else
            for (std::size_t i = 1; i < c.variants.size(); ++i)
                if (c.variants[i].gain) out += bulletLine("\u2022", c.variants[i].gain->sentence);
    }
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const ServingVariantResult& v = c.variants[i];
        out += "\n" + oneLine(variantTitle(c, i)) + "\n";  // a label or model from a file: on its own line
        out += "  Capacity: " + servingCapacityWords(c, v) + "\n";
        if (const std::string r = servingReplicaWords(c, v); !r.empty()) out += "  Replicas: " + r + "\n";
        const ServingTable t = servingTable(c, v);
        std::vector<std::size_t> w(t.header.size());
        for (std::size_t k = 0; k < t.header.size(); ++k) {
            w[k] = report_text::width(t.header[k]);
            for (const auto& row : t.rows) w[k] = std::max(w[k], report_text::width(row[k]));
        }
        auto line = [&](const std::vector<std::string>& cells) {
            std::string l = " ";
            for (std::size_t k = 0; k < cells.size(); ++k)
                l += " " + (k + 1 == cells.size() ? cells[k] : report_text::pad(cells[k], w[k], k >= 1 && k < 12));
            return l + "\n";
        };
        out += line(t.header);
        for (const auto& row : t.rows) out += line(row);
        for (const std::string& f : v.flags) out += bulletLine("!", f);
    }
    if (!c.notes.empty()) {
        out += "\nNotes:\n";
        for (const std::string& n : c.notes) out += bulletLine("\u2022", n);
    }
    return out;
}

std::string servingToMarkdown(const ServingComparison& c, bool commandLine) {
    using markdown::escape;
    using markdown::Where;
    std::string out = "## What FP8 buys on your server\n\n";
    out += c.slo.empty()
               ? std::string("No latency SLO was given") +
                     (commandLine ? escape(" (--slo ttft_p99=2000ms,tpot_p99=50ms judges capacity)") : "") + ".\n\n"
               : "SLO: " + escape(c.slo.words()) + ".\n\n";
    for (const ServingProblem& p : c.problems)
        out += "- **" + std::string(p.blocking ? "Not comparable" : "Note") + ":** " + escape(p.text) + "\n";
    if (!c.problems.empty()) out += "\n";
    for (std::size_t i = 1; i < c.variants.size() && !c.blocked(); ++i)
        if (c.variants[i].gain) out += "- " + escape(c.variants[i].gain->sentence) + "\n";
    if (c.variants.size() > 1) out += "\n";
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const ServingVariantResult& v = c.variants[i];
        out += "### " + escape(variantTitle(c, i), Where::Heading) + "\n\n";
        out += "Capacity: " + escape(servingCapacityWords(c, v)) + ".\n";
        if (const std::string r = servingReplicaWords(c, v); !r.empty()) out += "Replicas: " + escape(r) + ".\n";
        out += "\n";
        const ServingTable t = servingTable(c, v);
        std::vector<markdown::Align> align(t.header.size(), markdown::Align::Right);
        align[0] = align[12] = markdown::Align::Left;
        std::vector<std::vector<std::string>> rows;
        for (const auto& row : t.rows) {
            rows.emplace_back();
            for (const std::string& cell : row) rows.back().push_back(escape(cell, Where::TableCell));
        }
        out += markdown::table(t.header, align, rows) + "\n";
        for (const std::string& f : v.flags) out += "- " + escape(f) + "\n";
        if (!v.flags.empty()) out += "\n";
    }
    for (const std::string& n : c.notes) out += "- " + escape(n) + "\n";
    return out;
}

}  // namespace fp8dash
