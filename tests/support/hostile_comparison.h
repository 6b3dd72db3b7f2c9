#pragma once
// A comparison file with hostile strings in every string field a comparison holds (issue 26, "a corpus ... run
// through every output and every view"): built here from a real comparison (the bundled demo), field by field, so
// that the CLI's reports and the app's views are fed the same document. Every payload holds htmlVerdict() (a green
// "VERDICT: GO" heading and a local image, were it rendered) beside one more string of the corpus, and the field's
// own name, so that a failure says which field reached the output unescaped.
#include <string>
#include <vector>

#include "fp8dash/core/json_text.h"
#include "hostile_strings.h"

namespace fp8dash::test {

// The corpus strings a JSON file can hold (JSON text is UTF-8: the invalid-UTF-8 string cannot be in a file), the
// 200k-character string left out: hostileComparison puts that in a few fields of its own.
inline std::vector<std::string> hostileJsonStrings() {
    std::vector<std::string> out;
    for (const std::string& s : hostileStrings()) {
        if (s.size() > 10000) continue;
        try {
            (void)Json(s).dump();  // throws on invalid UTF-8
            out.push_back(s);
        } catch (const Json::exception&) {
        }
    }
    return out;
}

// The payload of one field: its name, the HTML verdict, then the corpus string `k` (round robin).
inline std::string hostilePayload(const std::string& field, std::size_t k) {
    const auto corpus = hostileJsonStrings();
    return field + " " + htmlVerdict() + " " + corpus[k % corpus.size()];
}

// The tasks hostileComparison renames, and their new names (unique, each with the HTML verdict).
inline std::vector<std::pair<std::string, std::string>> hostileTaskNames() {
    return {{"hellaswag", "hellaswag " + htmlVerdict() + " " + markdownTakeover()},
            {"mmlu", "mmlu " + htmlVerdict() + " " + verdictRewriteSequence()},
            {"winogrande", "winogrande " + htmlVerdict() + " " + markdownHeading()},
            // An FP8-sensitive task keeps its risk flag under a hostile name: the risk and not-compared panels show it.
            {"gsm8k", "gsm8k " + htmlVerdict() + " " + verdictRewriteSequence() + " \xe2\x80\xae"}};
}

namespace detail {
// Renames every object key equal to `from` and replaces every string value equal to it, at any depth.
inline Json renamed(const Json& j, const std::string& from, const std::string& to) {
    if (j.is_object()) {
        Json out = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it) out[it.key() == from ? to : it.key()] = renamed(*it, from, to);
        return out;
    }
    if (j.is_array()) {
        Json out = Json::array();
        for (const auto& e : j) out.push_back(renamed(e, from, to));
        return out;
    }
    if (j.is_string() && j.get<std::string>() == from) return to;
    return j;
}
}  // namespace detail

// demo: the bundled demo comparison (resources/demo/llama3-8b-instruct-fp8.fp8cmp) as JSON.
inline Json hostileComparison(Json demo) {
    std::size_t k = 0;
    const auto set = [&](Json& where, const char* key, const std::string& field) {
        where[key] = hostilePayload(field, k++);
    };
    for (const auto& [from, to] : hostileTaskNames()) demo = detail::renamed(demo, from, to);

    set(demo, "title", "title");
    // One model for both runs (a comparison is of variants of one model), its checkpoint names hostile.
    const std::string model = "org/" + hostilePayload("model", k++);
    for (const char* side : {"baseline", "candidate"}) {
        Json& run = demo["runs"][side];
        const std::string s = side;
        set(run, "label", s + ".label");
        set(run, "source", s + ".source");
        const std::string checkpoint = s == "baseline" ? model : model + "-FP8";
        run["results"]["model_name"] = checkpoint;
        run["results"]["config"]["model_args"]["pretrained"] = checkpoint;
    }
    for (Json& note : demo["notes"]) {
        set(note, "text", "note.text");
        set(note, "author", "note.author");
    }
    demo["notes"].push_back({{"id", "n99"},
                             {"text", "long note " + longString()},
                             {"author", hostilePayload("long note.author", k++)},
                             {"created", "2026-12-01T10:00:00Z"}});
    for (Json& d : demo["review"]["decisions"]) {
        set(d, "by", "decision.by");
        d["why"] = "decision.why " + htmlVerdict() + " " + longString();
    }
    for (const char* side : {"baseline", "candidate"}) {
        Json& judge = demo["judge"][side];
        set(judge, "source", std::string("judge.") + side + ".source");
        Json& sample = judge["samples"][0];
        set(sample["fields"], "prompt", "judge.prompt");
        sample["fields"]["domain"] = hostilePayload("judge.domain", k++);
    }
    // The same sample id on both sides (the judge pairs samples by id), a drop from 5 to 1 (listed among the drops).
    const std::string sampleId = hostilePayload("judge.sample id", k++);
    demo["judge"]["baseline"]["samples"][0]["id"] = sampleId;
    demo["judge"]["candidate"]["samples"][0]["id"] = sampleId;
    demo["judge"]["baseline"]["samples"][0]["score"] = 5.0;
    demo["judge"]["candidate"]["samples"][0]["score"] = 1.0;

    Json& tl = demo["timeline"];
    set(tl, "server", "timeline.server");
    tl["warnings"] = Json::array({hostilePayload("timeline.warning", k++)});
    Json& st = tl["settings"];
    st["prometheus_url"] = "https://prometheus.demo.invalid/" + hostilePayload("prometheus_url", k++);
    st["langfuse_url"] = "https://langfuse.demo.invalid/" + hostilePayload("langfuse_url", k++);
    set(st, "score_name", "timeline.score_name");
    set(st, "throughput_query", "timeline.throughput_query");
    set(st, "quality_query", "timeline.quality_query");
    st["trace_tags"] = Json::array({hostilePayload("timeline.tag", k++)});
    st["environments"] = Json::array({hostilePayload("timeline.environment", k++)});
    set(tl["quality"]["labels"], "name", "timeline.quality.name");

    Json& bench = demo["benchmarks"];
    set(bench["device"], "name", "bench.device.name");
    set(bench["device"], "reason", "bench.device.reason");
    set(bench, "gemm_skipped", "bench.gemm_skipped");
    set(bench, "bandwidth_skipped", "bench.bandwidth_skipped");
    for (Json& kv : bench["kv"]) set(kv["source"], "description", "bench.kv.description");

    // The serving results under the runs' hostile labels and checkpoints (the same-model rule holds), each file named
    // by a hostile source.
    if (demo.contains("serving")) {
        Json& variants = demo["serving"]["variants"];
        for (std::size_t i = 0; i < variants.size() && i < 2; ++i) {
            const char* side = i == 0 ? "baseline" : "candidate";
            variants[i]["label"] = demo["runs"][side]["label"];
            for (Json& r : variants[i]["runs"]) {
                set(r, "source", "serving.source");
                r["label"] = variants[i]["label"];
                r["model"] = i == 0 ? model : model + "-FP8";
            }
        }
    }
    return demo;
}

}  // namespace fp8dash::test
