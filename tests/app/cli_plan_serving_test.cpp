// `fp8dash plan`'s serving benchmarks as a user runs them: the printed script is run by a real shell with stand-ins
// for vllm, guidellm, lm_eval, python3 and fp8dash that record their arguments, so what each tool would be called
// with (the loop's loads expanded, the sweep's parameter files written) is checked against the plan's JSON and the
// rule for the request counts; bad options are refused by name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::TempDir;

// Runs the plan's text as a script in `dir` with stand-ins on PATH; returns each call as its argv (argv[0] the tool).
std::vector<std::vector<std::string>> runPlanScript(const std::filesystem::path& dir, const std::string& script) {
    const auto stubs = dir / "stubs";
    std::filesystem::create_directories(stubs);
    for (const char* tool : {"vllm", "guidellm", "lm_eval", "python3", "fp8dash"}) {
        const auto path = stubs / tool;
        std::ofstream(path) << "#!/bin/sh\n{ printf '%s' \"$(basename \"$0\")\"; for a in \"$@\"; do printf '\\037%s' "
                               "\"$a\"; done; printf '\\n'; } >> \"$CALLS\"\n";
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
    std::ofstream(dir / "plan.sh") << script;
    const auto r = test::runProcess({"/bin/sh", "-c",
                                     "cd '" + dir.string() + "' && CALLS='" + (dir / "calls").string() + "' PATH='" +
                                         stubs.string() + ":/usr/bin:/bin' /bin/sh -e plan.sh"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    std::vector<std::vector<std::string>> calls;
    std::ifstream in(dir / "calls");
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> argv;
        std::stringstream s(line);
        for (std::string word; std::getline(s, word, '\037');) argv.push_back(word);
        calls.push_back(argv);
    }
    return calls;
}

std::vector<std::vector<std::string>> callsOf(const std::vector<std::vector<std::string>>& calls,
                                              const std::vector<std::string>& prefix) {
    std::vector<std::vector<std::string>> out;
    for (const auto& c : calls)
        if (c.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), c.begin())) out.push_back(c);
    return out;
}

std::string after(const std::vector<std::string>& argv, const std::string& option) {
    auto it = std::find(argv.begin(), argv.end(), option);
    return it != argv.end() && it + 1 != argv.end() ? *(it + 1) : std::string("<absent>");
}

// vLLM 0.10.1.1 (no sweep): the loop runs vllm bench serve once per load with the rule's request count, exactly as
// the JSON's argv; GuideLLM 0.4 runs once per variant with every load.
TEST(CliPlanServing, TheLoopAsTheShellRunsIt) {
    const std::vector<std::string> args = {"plan",
                                           "--model",
                                           "llama-3.1-8b",
                                           "--gpu",
                                           "h100-sxm",
                                           "--ladder",
                                           "--vllm-version",
                                           "0.10.1.1",
                                           "--bench-tool",
                                           "both",
                                           "--guidellm-version",
                                           "0.4",
                                           "--concurrency",
                                           "1,8,32",
                                           "--input-len",
                                           "512",
                                           "--output-len",
                                           "64",
                                           "--prompts-per-concurrency",
                                           "4"};
    auto text = fp8dashCli(args);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    auto jsonArgs = args;
    jsonArgs.insert(jsonArgs.end(), {"--format", "json"});
    const auto j = parseJson(fp8dashCli(jsonArgs))["serving"];
    EXPECT_EQ(j["vllm"]["mode"], "loop");
    EXPECT_EQ(j["vllm"]["program"], "vllm bench serve");

    TempDir dir;
    const auto calls = runPlanScript(dir.path(), text.out);
    const auto benches = callsOf(calls, {"vllm", "bench", "serve"});
    // 3 variants x 3 loads; requests max(50, 4 x concurrency): 50, 50, 128.
    ASSERT_EQ(benches.size(), 9u);
    const std::vector<std::pair<std::string, std::string>> loads = {{"1", "50"}, {"8", "50"}, {"32", "128"}};
    for (std::size_t i = 0; i < benches.size(); ++i) {
        EXPECT_EQ(after(benches[i], "--max-concurrency"), loads[i % 3].first);
        EXPECT_EQ(after(benches[i], "--num-prompts"), loads[i % 3].second);
        EXPECT_EQ(after(benches[i], "--random-input-len"), "512");
        EXPECT_EQ(after(benches[i], "--random-output-len"), "64");
        // What the shell ran is the JSON's argv for that run and load.
        EXPECT_EQ(benches[i], j["runs"][i / 3]["vllm"]["argv"][i % 3].get<std::vector<std::string>>());
    }
    EXPECT_EQ(after(benches[0], "--label"), "bf16");
    EXPECT_EQ(after(benches[3], "--label"), "fp8_w8a8");
    EXPECT_EQ(after(benches[8], "--result-filename"), "fp8_w8a8_kv-c32.json");
    const auto guidellm = callsOf(calls, {"guidellm", "benchmark"});
    ASSERT_EQ(guidellm.size(), 3u);
    for (const auto& g : guidellm) {
        EXPECT_EQ(after(g, "--profile"), "concurrent");
        EXPECT_EQ(after(g, "--rate"), "1,8,32");
        EXPECT_EQ(after(g, "--data"), "prompt_tokens=512,output_tokens=64");
    }
    // fp8dash serving and compare read the folders the benchmarks were told to write.
    const auto serving = callsOf(calls, {"fp8dash", "serving"});
    ASSERT_EQ(serving.size(), 2u);  // vLLM's and GuideLLM's
    EXPECT_EQ(serving[0][2], after(benches[0], "--result-dir"));
    EXPECT_EQ(serving[1][2], after(guidellm[0], "--output-path"));
    const auto compares = callsOf(calls, {"fp8dash", "compare"});
    ASSERT_EQ(compares.size(), 2u);  // the plan's own, then the one with --serving
    EXPECT_EQ(after(compares[1], "--serving"), "BF16=" + after(benches[0], "--result-dir"));
}

// vLLM 0.28: one sweep per variant; the parameter files the script writes are JSON with the loads and the layers.
TEST(CliPlanServing, TheSweepAndItsParameterFiles) {
    auto text = fp8dashCli({"plan", "--model", "llama-3.1-8b", "--gpu", "h200", "--ladder", "--concurrency", "2,16",
                            "--serving-runs", "5"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    TempDir dir;
    const auto calls = runPlanScript(dir.path(), text.out);
    const auto sweeps = callsOf(calls, {"vllm", "bench", "sweep", "serve"});
    const auto serves = callsOf(calls, {"vllm", "serve"});
    ASSERT_EQ(sweeps.size(), 3u);
    ASSERT_EQ(serves.size(), 3u);
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        EXPECT_EQ(after(sweeps[i], "--num-runs"), "5");
        // The sweep starts the same server the plan serves the run with (the printed vllm serve line).
        std::string serveLine;
        for (const auto& w : serves[i]) serveLine += (serveLine.empty() ? "" : " ") + w;
        EXPECT_EQ(after(sweeps[i], "--serve-cmd"), serveLine);
        const auto params = nlohmann::json::parse(std::ifstream(dir.path() / after(sweeps[i], "--serve-params")));
        ASSERT_EQ(params.size(), 1u);
        EXPECT_EQ(params[0]["kv_cache_dtype"], i == 2 ? "fp8" : "auto");
        EXPECT_EQ(params[0].contains("quantization"), i > 0);
    }
    const auto points = nlohmann::json::parse(std::ifstream(dir.path() / after(sweeps[0], "--bench-params")));
    EXPECT_EQ(points, nlohmann::json::parse(R"([{"max_concurrency": 2, "num_prompts": 50},
                                                {"max_concurrency": 16, "num_prompts": 160}])"));
}

TEST(CliPlanServing, BadOptionsAreRefusedByName) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--bench-tool", "nope"}, "--bench-tool \"nope\": expected vllm, guidellm or both"},
        {{"--vllm-bench", "sometimes"}, "--vllm-bench \"sometimes\": expected sweep or loop"},
        {{"--concurrency", "4,x"}, "--concurrency \"x\""},
        {{"--concurrency", "8,4"}, "--concurrency: the loads must rise (8 then 4)"},
        {{"--vllm-bench", "sweep", "--vllm-version", "0.10.1.1"}, "vLLM 0.10.1.1 has no `vllm bench sweep serve`"},
        {{"--bench-tool", "guidellm", "--guidellm-version", "seven"}, "--guidellm-version: \"seven\""},
        {{"--dataset", "sharegpt:"}, "--dataset sharegpt needs its path"},
        {{"--dataset", "sonnet"}, "--dataset: \"sonnet\" is not random or sharegpt:PATH"},
    };
    for (const auto& [extra, message] : cases) {
        std::vector<std::string> args = {"plan", "--model", "llama-3.1-8b", "--gpu", "h100-sxm"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = fp8dashCli(args);
        EXPECT_NE(r.exitCode, 0) << message;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

}  // namespace
}  // namespace fp8dash
