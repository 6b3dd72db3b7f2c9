// fp8dash-bench-answers: the cost of the changed answers' documents (issue 27's speed target: the paired compare of
// the two 475 MB logs with examples on takes at most 20 % longer than without, peak memory unchanged within 20 MB).
// Two shapes of two runs' logs, 40,000 rows and ~475 MB a log, are generated into the scratch folder at the start:
// the paired benchmark's multiple-choice task (sample_log_shape.h: arc_easy, 11.9 KB a row, ~2.7 KB of few-shot
// prompt per choice) and a generative one (gsm8k: 20,000 documents x two filters, an 8.5 KB 8-shot prompt, responses
// of 0.4-2.4 KB and one in 25 of 6 KB, past the 4 KB cut). The candidate flips answers both ways: 1 in 10 of the
// baseline's right answers lost, 1 in 5 of its wrong ones gained (12.6 % and 15.3 % of the documents change on the
// compared filter); every flip is written to flips.txt beside the logs, which the setup counts back (flips both ways
// on 5-25 % of the documents, or it stops) and every measurement checks its result against: the counts, each example
// a real change of its kind, lost first, no empty or unbounded text. Each measurement is a child process of this
// executable that runs computePairedResults once, as `fp8dash compare` calls it (bootstrap included), with
// answerExamples 0 (counts only) or 200 (the default), so that each variant's peak memory is its own (VmHWM); the
// four alternate, three rounds a run (FP8DASH_BENCH_ROUNDS changes it). FP8DASH_BENCH_DIR keeps the logs between
// runs. Not a test: the figures go to ../README.md and results/.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bench_support.h"
#include "fp8dash/core/eval_comparison.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/paired_tasks.h"
#include "sample_log_shape.h"

namespace fp8dash::bench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBaselineDate = "2026-12-05T09-00-00.000001";
constexpr const char* kCandidateDate = "2026-12-05T11-00-00.000001";
constexpr unsigned kLoseOneIn = 10;  // of the baseline's right answers
constexpr unsigned kGainOneIn = 5;   // of its wrong ones

// The two shapes: the paired benchmark's multiple-choice task (the "two 475 MB logs"), and a generative task
// of the same size with two filters, whose answers and responses are text (some longer than the 4 KB cut).
enum class Shape { MultipleChoice, Generative };
constexpr const char* kGenerativeTask = "gsm8k";

struct Logs {
    Shape shape = Shape::MultipleChoice;
    std::string task;
    fs::path baselineDir, candidateDir, flips;
    double bytes = 0;      // both logs
    std::size_t rows = 0;  // a log's rows (every filter's)
};

// The flips as the generator wrote them: "rows", then "FILTER L|G DOC" a line.
struct Flips {
    std::size_t rows = 0;
    std::map<std::string, std::set<long long>> lost, gained;  // by filter
};

Flips readFlips(const fs::path& file) {
    Flips f;
    std::ifstream in(file);
    in >> f.rows;
    std::string filter;
    char kind = 0;
    long long doc = 0;
    while (in >> filter >> kind >> doc) (kind == 'L' ? f.lost : f.gained)[filter].insert(doc);
    return f;
}

struct FlipWriter {
    std::ofstream out;
    void add(const char* filter, bool baseline, bool candidate, std::size_t doc) {
        if (baseline != candidate) out << filter << (baseline ? " L " : " G ") << doc << '\n';
    }
};

// The candidate's value of a document: the baseline's, flipped 1 in kLoseOneIn right / 1 in kGainOneIn wrong.
bool candidateOf(bool baseline, std::mt19937_64& rng) {
    return rng() % (baseline ? kLoseOneIn : kGainOneIn) == 0 ? !baseline : baseline;
}

// A model's chain of thought for a gsm8k question, `bytes` long (json.dumps-escaped), ending with its answer.
std::string responseText(std::mt19937_64& rng, std::size_t bytes, long answer, bool formatted) {
    std::string s = promptText(rng, bytes);
    s += formatted ? "\\nThe answer is " + std::to_string(answer) + ".\\n#### " + std::to_string(answer)
                   : "\\nSo the total is " + std::to_string(answer) + ".";
    return s;
}

// One gsm8k row as lm-eval 0.4.9 writes it (generate_until, one request).
void writeGenerativeRow(std::ofstream& out, std::size_t doc, const std::string& fewShot, const std::string& question,
                        const std::string& target, const std::string& docHash, const std::string& promptHash,
                        const std::string& targetHash, const std::string& response, const std::string& filtered,
                        const char* filter, bool right) {
    std::string row;
    row.reserve(fewShot.size() + response.size() + 2 * question.size() + 2 * target.size() + 1024);
    row += "{\"doc_id\": " + std::to_string(doc) + ", \"doc\": {\"question\": \"" + question + "\", \"answer\": \"" +
           target + "\"}, \"target\": \"" + target + "\", \"arguments\": {\"gen_args_0\": {\"arg_0\": \"" + fewShot +
           "Question: " + question +
           "\\nAnswer:\", \"arg_1\": {\"until\": [\"Question:\", \"</s>\", \"<|im_end|>\"], \"do_sample\": false, "
           "\"temperature\": 0.0}}}, \"resps\": [[\"" +
           response + "\"]], \"filtered_resps\": [\"" + filtered + "\"], \"filter\": \"" + filter +
           "\", \"metrics\": [\"exact_match\"], \"doc_hash\": \"" + docHash + "\", \"prompt_hash\": \"" + promptHash +
           "\", \"target_hash\": \"" + targetHash + "\", \"exact_match\": " + (right ? "1.0" : "0.0") + "}\n";
    out << row;
}

void writeGenerativeResults(const fs::path& file, double strict, double flexible, std::size_t n,
                            const std::string& modelArgs) {
    std::ofstream out(file);
    const std::string t = kGenerativeTask;
    out << "{\"results\": {\"" << t << "\": {\"alias\": \"" << t << "\", \"exact_match,strict-match\": " << strict
        << ", \"exact_match_stderr,strict-match\": 0.004, \"exact_match,flexible-extract\": " << flexible
        << ", \"exact_match_stderr,flexible-extract\": 0.004}}, \"group_subtasks\": {\"" << t << "\": []}, "
        << "\"configs\": {\"" << t << "\": {\"task\": \"" << t << "\", \"output_type\": \"generate_until\", "
        << "\"num_fewshot\": 8, \"metric_list\": [{\"metric\": \"exact_match\"}], \"filter_list\": [{\"name\": "
        << "\"strict-match\"}, {\"name\": \"flexible-extract\"}]}}, \"versions\": {\"" << t << "\": 3.0}, "
        << "\"n-shot\": {\"" << t << "\": 8}, \"higher_is_better\": {\"" << t << "\": {\"exact_match\": true}}, "
        << "\"n-samples\": {\"" << t << "\": {\"original\": " << n << ", \"effective\": " << n << "}}, "
        << "\"config\": {\"model\": \"vllm\", \"model_args\": \"" << modelArgs << "\"}, "
        << "\"lm_eval_version\": \"0.4.9\"}\n";
}

// Both logs of the multiple-choice shape (sample_log_shape.h's rows).
void generateMultipleChoice(const Logs& l, const fs::path& bLog, const fs::path& cLog, const fs::path& bResults,
                            const fs::path& cResults) {
    std::ofstream b(bLog, std::ios::binary), c(cLog, std::ios::binary);
    FlipWriter flips{std::ofstream(l.flips)};
    flips.out << l.rows << '\n';
    std::mt19937_64 rng(27);
    std::size_t bRight = 0, cRight = 0;
    for (std::size_t doc = 0; doc < l.rows; ++doc) {
        const std::string prompt = promptText(rng, 2700);
        const std::string docHash = hex64(rng), promptHash = hex64(rng), targetHash = hex64(rng);
        const bool bAcc = rng() % 4 != 0;
        const bool cAcc = candidateOf(bAcc, rng);
        flips.add("none", bAcc, cAcc, doc);
        bRight += bAcc;
        cRight += cAcc;
        writeRow(b, doc, prompt, docHash, promptHash, targetHash, 0, bAcc, bAcc, rng);
        writeRow(c, doc, prompt, docHash, promptHash, targetHash, 0, cAcc, cAcc, rng);
    }
    flips.out.close();
    // The results files last: their presence says the logs are whole.
    const auto n = static_cast<double>(l.rows);
    writeResults(bResults, static_cast<double>(bRight) / n, l.rows, "pretrained=meta-llama/Llama-3.1-8B-Instruct");
    writeResults(cResults, static_cast<double>(cRight) / n, l.rows,
                 "pretrained=RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic");
}

// Both logs of the generative shape: rows/2 documents, each with a strict-match and a flexible-extract row. The
// 8-shot prompt is the same for every document (as gsm8k's), ~8.5 KB; the responses ~0.4-2.4 KB, one in 25 a
// runaway of ~6 KB (longer than the 4 KB cut). strict-match is right when flexible-extract is and the answer was
// formatted ("#### N"); each filter's values flip on their own.
void generateGenerative(const Logs& l, const fs::path& bLog, const fs::path& cLog, const fs::path& bResults,
                        const fs::path& cResults) {
    std::ofstream b(bLog, std::ios::binary), c(cLog, std::ios::binary);
    FlipWriter flips{std::ofstream(l.flips)};
    flips.out << l.rows << '\n';
    std::mt19937_64 rng(2027);
    const std::string fewShot = promptText(rng, 8500) + "\\n\\n";
    const std::size_t docs = l.rows / 2;
    std::size_t right[2][2] = {{0, 0}, {0, 0}};  // [run][strict, flexible]
    for (std::size_t doc = 0; doc < docs; ++doc) {
        const long answer = static_cast<long>(rng() % 1000);
        const std::string question = promptText(rng, 150 + rng() % 300) + "How many are left?";
        const std::string target = promptText(rng, 100 + rng() % 250) + "\\n#### " + std::to_string(answer);
        const std::string docHash = hex64(rng), promptHash = hex64(rng), targetHash = hex64(rng);
        bool flexible[2], strict[2];
        flexible[0] = rng() % 5 != 0;
        flexible[1] = candidateOf(flexible[0], rng);
        strict[0] = flexible[0] && rng() % 10 != 0;
        strict[1] = candidateOf(strict[0], rng) && flexible[1];
        flips.add("strict-match", strict[0], strict[1], doc);
        flips.add("flexible-extract", flexible[0], flexible[1], doc);
        for (int run = 0; run < 2; ++run) {
            right[run][0] += strict[run];
            right[run][1] += flexible[run];
            const long given = flexible[run] ? answer : answer + 1 + static_cast<long>(rng() % 50);
            const std::size_t bytes = rng() % 25 == 0 ? 6000 : 400 + rng() % 2000;
            const std::string response = responseText(rng, bytes, given, strict[run] || !flexible[run]);
            const std::string number = std::to_string(given);
            auto& out = run == 0 ? b : c;
            writeGenerativeRow(out, doc, fewShot, question, target, docHash, promptHash, targetHash, response,
                               strict[run] || !flexible[run] ? number : "[invalid]", "strict-match", strict[run]);
            writeGenerativeRow(out, doc, fewShot, question, target, docHash, promptHash, targetHash, response, number,
                               "flexible-extract", flexible[run]);
        }
    }
    flips.out.close();
    const auto n = static_cast<double>(docs);
    writeGenerativeResults(bResults, static_cast<double>(right[0][0]) / n, static_cast<double>(right[0][1]) / n, docs,
                           "pretrained=meta-llama/Llama-3.1-8B-Instruct");
    writeGenerativeResults(cResults, static_cast<double>(right[1][0]) / n, static_cast<double>(right[1][1]) / n, docs,
                           "pretrained=RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic");
}

// Generated once per process (kept between runs when FP8DASH_BENCH_DIR is set: the rows depend on the count only).
Logs makeLogs(Shape shape) {
    Logs l;
    l.shape = shape;
    l.task = shape == Shape::MultipleChoice ? kTask : kGenerativeTask;
    l.rows = rowCount();
    const fs::path root = scratchDir() / ("changed-answers-" + l.task + "-" + std::to_string(l.rows));
    l.baselineDir = root / "bf16";
    l.candidateDir = root / "fp8";
    l.flips = root / "flips.txt";
    fs::create_directories(l.baselineDir);
    fs::create_directories(l.candidateDir);
    const auto bLog = l.baselineDir / ("samples_" + l.task + "_" + kBaselineDate + ".jsonl");
    const auto cLog = l.candidateDir / ("samples_" + l.task + "_" + kCandidateDate + ".jsonl");
    const auto bResults = l.baselineDir / (std::string("results_") + kBaselineDate + ".json");
    const auto cResults = l.candidateDir / (std::string("results_") + kCandidateDate + ".json");
    if (!fs::exists(bResults) || !fs::exists(cResults)) {
        if (shape == Shape::MultipleChoice)
            generateMultipleChoice(l, bLog, cLog, bResults, cResults);
        else
            generateGenerative(l, bLog, cLog, bResults, cResults);
    }
    l.bytes = static_cast<double>(fs::file_size(bLog) + fs::file_size(cLog));
    // Counted back from the file: flips both ways at a realistic rate on the compared filter, or the benchmark
    // proves nothing.
    const Flips f = readFlips(l.flips);
    const std::string filter = shape == Shape::MultipleChoice ? "none" : "strict-match";
    const double docs = static_cast<double>(shape == Shape::MultipleChoice ? l.rows : l.rows / 2);
    const std::size_t lost = f.lost.count(filter) ? f.lost.at(filter).size() : 0;
    const std::size_t gained = f.gained.count(filter) ? f.gained.at(filter).size() : 0;
    const double rate = static_cast<double>(lost + gained) / docs;
    if (f.rows != l.rows || lost == 0 || gained == 0 || (docs >= 1000 && (rate < 0.05 || rate > 0.25))) {
        std::cerr << l.flips.string() << ": expected flips both ways on 5-25 % of the documents (" << filter
                  << "), found " << lost << " lost and " << gained << " gained of " << docs << "\n";
        std::exit(1);
    }
    return l;
}

const Logs& logs(Shape shape) {
    // Each made on first use only, so that a --benchmark_filter of one shape generates that shape's logs alone.
    if (shape == Shape::MultipleChoice) {
        static const Logs multipleChoice = makeLogs(Shape::MultipleChoice);
        return multipleChoice;
    }
    static const Logs generative = makeLogs(Shape::Generative);
    return generative;
}

// --fp8dash-paired-child N TASK BASELINE_DIR CANDIDATE_DIR FLIPS: one paired compare with answerExamples = N,
// checked against the flips of the filter it compared. Prints "seconds peak_rss_KiB examples lost gained cut
// cpu_seconds" (peak: this process' VmHWM; cut: the example texts cut at the 4 KB bound; cpu: the compare's, all
// threads), or why it failed on standard error with exit 1.
int pairedChild(std::uint64_t examples, const std::string& task, const fs::path& bDir, const fs::path& cDir,
                const fs::path& flipsFile) {
    const auto fail = [](const std::string& why) {
        std::cerr << "paired child: " << why << "\n";
        return 1;
    };
    const Flips flips = readFlips(flipsFile);
    auto b = readLmEvalPath(bDir);
    auto c = readLmEvalPath(cDir);
    if (!b || !c) return fail((b ? c.error() : b.error()).message);
    auto report = compareEvals(*b, *c, {});
    if (!report) return fail(report.error().message);
    PairedOptions options;
    options.answerExamples = examples;
    const auto cpuNow = [] {
        timespec t{};
        ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    };
    const double cpuStarted = cpuNow();
    const auto started = std::chrono::steady_clock::now();
    auto paired = computePairedResults(*report, bDir, cDir, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpuSeconds = cpuNow() - cpuStarted;
    if (!paired) return fail(paired.error().message);
    const auto it = paired->results.find(task);
    if (it == paired->results.end()) return fail("the task was not paired");
    const PairedTaskResult& r = it->second;
    const std::set<long long> none;
    const auto& lost = flips.lost.count(r.filter) ? flips.lost.at(r.filter) : none;
    const auto& gained = flips.gained.count(r.filter) ? flips.gained.at(r.filter) : none;
    if (!r.changed || r.changed->n() != r.n) return fail("no counts, or counts that do not add up to n");
    if (r.changed->lost != lost.size() || r.changed->gained != gained.size())
        return fail("counts " + std::to_string(r.changed->lost) + " lost, " + std::to_string(r.changed->gained) +
                    " gained on " + r.filter + "; the generator flipped " + std::to_string(lost.size()) + " and " +
                    std::to_string(gained.size()));
    const std::size_t expected = std::min<std::size_t>(examples, lost.size() + gained.size());
    if (r.examples.size() != expected || r.examplesLimit != examples)
        return fail(std::to_string(r.examples.size()) + " examples, expected " + std::to_string(expected));
    bool gainedSeen = false;
    std::size_t cut = 0;
    for (const auto& e : r.examples) {
        if ((e.lost ? lost : gained).count(e.docId) == 0)
            return fail("doc_id " + std::to_string(e.docId) + " is listed as " + (e.lost ? "lost" : "gained") +
                        " but the generator did not flip it that way on " + r.filter);
        if (e.lost && gainedSeen) return fail("a lost answer after a gained one");
        gainedSeen = gainedSeen || !e.lost;
        if (e.question.empty() || e.target.empty() || e.baseline.answer.empty() || e.baseline.response.empty() ||
            e.candidate.answer.empty() || e.candidate.response.empty())
            return fail("doc_id " + std::to_string(e.docId) + ": an empty text");
        if (e.baseline.value != (e.lost ? 1.0 : 0.0) || e.candidate.value != (e.lost ? 0.0 : 1.0))
            return fail("doc_id " + std::to_string(e.docId) + ": values that are not its flip");
        for (const auto* text : {&e.question, &e.target, &e.baseline.response, &e.candidate.response}) {
            if (text->size() > options.answerTextBytes + 64)
                return fail("doc_id " + std::to_string(e.docId) + ": a text of " + std::to_string(text->size()) +
                            " bytes, past the bound");
            cut += text->find("[cut: ") != std::string::npos;
        }
    }
    std::printf("%.6f %ld %zu %zu %zu %zu %.6f\n", seconds, selfPeakRssKiB(), r.examples.size(), lost.size(),
                gained.size(), cut, cpuSeconds);
    return 0;
}

void comparePaired(benchmark::State& state, Shape shape, std::uint64_t examples) {
    const Logs& l = logs(shape);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    ChildRun run;
    for (auto _ : state) {
        run = runChild({self, "--fp8dash-paired-child", std::to_string(examples), l.task, l.baselineDir.string(),
                        l.candidateDir.string(), l.flips.string()});
        if (run.exitCode != 0) {
            state.SkipWithError("the paired child failed or its result did not check (its standard error says why)");
            return;
        }
        state.SetIterationTime(std::stod(run.out));
    }
    double seconds = 0, peakKiB = 0, shown = 0, lost = 0, gained = 0, cut = 0, cpu = 0;
    if (std::sscanf(run.out.c_str(), "%lf %lf %lf %lf %lf %lf %lf", &seconds, &peakKiB, &shown, &lost, &gained, &cut,
                    &cpu) != 7) {
        state.SkipWithError("the paired child's output did not read");
        return;
    }
    const double docs = static_cast<double>(shape == Shape::MultipleChoice ? l.rows : l.rows / 2);
    state.counters["peak_rss_MiB"] = peakKiB / 1024.0;
    state.counters["cpu_s"] = cpu;  // the compare's CPU time, every thread (less moved by a loaded machine)
    state.counters["child_wall_s"] = run.wallSeconds;  // the whole child: start, results files, compare, exit
    state.counters["examples"] = shown;
    state.counters["examples_cut"] = cut;
    state.counters["lost"] = lost;
    state.counters["gained"] = gained;
    state.counters["change_rate_pct"] = (lost + gained) * 100.0 / docs;
    state.counters["logs_MB"] = l.bytes / 1e6;
    state.counters["bytes_per_second"] = benchmark::Counter(l.bytes, benchmark::Counter::kIsRate);
}

void BM_PairedCountsOnly(benchmark::State& state) {
    comparePaired(state, Shape::MultipleChoice, 0);
}
void BM_PairedWithExamples(benchmark::State& state) {
    comparePaired(state, Shape::MultipleChoice, PairedOptions{}.answerExamples);
}
void BM_PairedGenerativeCountsOnly(benchmark::State& state) {
    comparePaired(state, Shape::Generative, 0);
}
void BM_PairedGenerativeWithExamples(benchmark::State& state) {
    comparePaired(state, Shape::Generative, PairedOptions{}.answerExamples);
}

}  // namespace
}  // namespace fp8dash::bench

int main(int argc, char** argv) {
    using namespace fp8dash::bench;
    if (argc == 7 && std::strcmp(argv[1], "--fp8dash-paired-child") == 0)
        return pairedChild(std::strtoull(argv[2], nullptr, 10), argv[3], argv[4], argv[5], argv[6]);
    int rounds = 3;
    if (const char* r = std::getenv("FP8DASH_BENCH_ROUNDS"); r && std::atoi(r) > 0) rounds = std::atoi(r);
    // Counts only and with examples alternate, so that a machine shared with other work loads both alike.
    registerAlternatingRounds({{"BM_PairedCountsOnly", BM_PairedCountsOnly, true},
                               {"BM_PairedWithExamples", BM_PairedWithExamples, true},
                               {"BM_PairedGenerativeCountsOnly", BM_PairedGenerativeCountsOnly, true},
                               {"BM_PairedGenerativeWithExamples", BM_PairedGenerativeWithExamples, true}},
                              rounds);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
