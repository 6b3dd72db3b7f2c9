#pragma once
// The sample-log shape of the paired benchmarks (sample_logs_bench.cpp, variants_bench.cpp): lm-eval 0.4.9
// --log_samples rows of one multiple-choice task with ~2.7 KB few-shot prompts on four choices (~11.9 KB a row, 475 MB
// for 40,000 rows), and the results file beside them. Header-only; generated rows depend on the generator's seed only.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

namespace fp8dash::bench {

constexpr const char* kTask = "arc_easy";

// FP8DASH_BENCH_SAMPLE_ROWS, else 40,000 rows a log.
inline std::size_t rowCount() {
    if (const char* n = std::getenv("FP8DASH_BENCH_SAMPLE_ROWS"); n && *n) return std::strtoull(n, nullptr, 10);
    return 40'000;
}

inline std::string hex64(std::mt19937_64& rng) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s(64, '0');
    for (char& c : s) c = kHex[rng() & 15];
    return s;
}

// Few-shot prompt text: words, sentences, "\n\n" between the shots and a quoted phrase now and then, as lm-eval's
// json.dumps writes them (escaped newlines and quotes).
inline std::string promptText(std::mt19937_64& rng, std::size_t bytes) {
    static const char* kWords[] = {"the",    "energy", "plant",  "water",   "cell",    "which",    "light",
                                   "moves",  "heat",   "earth",  "because", "animals", "rock",     "sound",
                                   "answer", "force",  "object", "through", "surface", "Question:"};
    std::string s;
    s.reserve(bytes + 32);
    std::size_t word = 0;
    while (s.size() < bytes) {
        if (word % 97 == 96)
            s += "\\n\\nQuestion: ";
        else if (word % 41 == 40)
            s += "\\\"quoted\\\" ";
        s += kWords[rng() % std::size(kWords)];
        s += (word % 13 == 12) ? ". " : " ";
        ++word;
    }
    return s;
}

// One multiple-choice row as lm-eval 0.4.9 writes it (keys in evaluator.py's order).
inline void writeRow(std::ofstream& out, std::size_t doc, const std::string& prompt, const std::string& docHash,
                     const std::string& promptHash, const std::string& targetHash, int target, bool acc, bool accNorm,
                     std::mt19937_64& rng) {
    static const char* kChoices[] = {" light energy", " heat", " a magnet", " the moon"};
    std::string row;
    row.reserve(prompt.size() * 4 + 2048);
    row += "{\"doc_id\": " + std::to_string(doc) + ", \"doc\": {\"id\": \"Mercury_" + std::to_string(7000000 + doc) +
           "\", \"question\": \"Which form of energy is used when a plant grows?\", \"choices\": {\"text\": "
           "[\"light energy\", \"heat\", \"a magnet\", \"the moon\"], \"label\": [\"A\", \"B\", \"C\", \"D\"]}, "
           "\"answerKey\": \"A\"}, \"target\": " +
           std::to_string(target) + ", \"arguments\": {";
    for (int k = 0; k < 4; ++k) {
        row += (k ? ", " : "");
        row += "\"gen_args_" + std::to_string(k) + "\": {\"arg_0\": \"" + prompt + "\", \"arg_1\": \"" + kChoices[k] +
               "\"}";
    }
    row += "}, \"resps\": [";
    char buf[64];
    std::string filtered;
    for (int k = 0; k < 4; ++k) {
        std::snprintf(buf, sizeof buf, "%.10f", -static_cast<double>(rng() % 100000) / 1000.0 - 0.5);
        row += std::string(k ? ", " : "") + "[[\"" + buf + "\", \"False\"]]";
        filtered += std::string(k ? ", " : "") + "[\"" + buf + "\", \"False\"]";
    }
    row += "], \"filtered_resps\": [" + filtered + "], \"filter\": \"none\", \"metrics\": [\"acc\", \"acc_norm\"], ";
    row += "\"doc_hash\": \"" + docHash + "\", \"prompt_hash\": \"" + promptHash + "\", \"target_hash\": \"" +
           targetHash + "\", \"acc\": " + (acc ? "1.0" : "0.0") + ", \"acc_norm\": " + (accNorm ? "1.0" : "0.0") +
           "}\n";
    out << row;
}

// The results file of a run of kTask (`modelArgs` as lm-eval records them: "pretrained=...,kv_cache_dtype=fp8").
inline void writeResults(const std::filesystem::path& file, double acc, std::size_t n, const std::string& modelArgs) {
    std::ofstream out(file);
    out << "{\"results\": {\"" << kTask << "\": {\"alias\": \"" << kTask << "\", \"acc,none\": " << acc
        << ", \"acc_stderr,none\": 0.002, \"acc_norm,none\": " << acc << ", \"acc_norm_stderr,none\": 0.002}}, "
        << "\"group_subtasks\": {\"" << kTask << "\": []}, \"configs\": {\"" << kTask << "\": {\"task\": \"" << kTask
        << "\", \"num_fewshot\": 25, \"metric_list\": [{\"metric\": \"acc\"}, {\"metric\": \"acc_norm\"}], "
        << "\"filter_list\": [{\"name\": \"none\"}]}}, \"versions\": {\"" << kTask << "\": 1.0}, \"n-shot\": {\""
        << kTask << "\": 25}, \"higher_is_better\": {\"" << kTask << "\": {\"acc\": true, \"acc_norm\": true}}, "
        << "\"n-samples\": {\"" << kTask << "\": {\"original\": " << n << ", \"effective\": " << n << "}}, "
        << "\"config\": {\"model\": \"vllm\", \"model_args\": \"" << modelArgs << "\"}, "
        << "\"lm_eval_version\": \"0.4.9\"}\n";
}

}  // namespace fp8dash::bench
