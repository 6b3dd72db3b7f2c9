// The plan's serving benchmarks: one benchmark per variant, the same for all of them, with only options the chosen
// release of each tool takes.
//
// Where each option comes from (read in the tools' sources; run_plan_serving_test.cpp checks every printed command
// against its own table of these):
//
// vLLM, benchmarks/benchmark_serving.py (the script of a vLLM source checkout, 2024 -> deprecated 2025-09): the
// late-2024 argument list (read in a copy of the file with --max-concurrency and --goodput, before --label) has
// --model, --num-prompts, --seed, --dataset-name, --dataset-path, --random-input-len, --random-output-len,
// --sharegpt-output-len, --max-concurrency (vllm-project/vllm PR #9390, merged 2024-10-16: in 0.6.4),
// --percentile-metrics / --metric-percentiles (PR #7759, 2024-08: from 0.6.0), --ignore-eos (passed to every
// request since PR #9349, 2024-10), --save-result, --result-dir, --result-filename and --metadata KEY=VALUE...
// Not yet: --label (early 2025, "If not specified, the endpoint type will be used as the label") and --save-detailed
// (2025-03), so before `vllm bench serve` the variant is named by --metadata variant=KEY and the file name.
//
// vLLM, `vllm bench serve` (vllm/benchmarks/serve.py): PR #13993 "[Feature] Add `vllm bench` CLI" (merged 2025-03)
// added it with the random dataset only; PR #16508 (2025-04-11) and its follow-ups moved the script's options in. Its
// add_cli_args (read in vllm/benchmarks/serve.py @ 009e6d4a, 2026, and a mid-2025 copy) has all of the above plus
// --label ("The label (prefix) of the benchmark results") and --save-detailed. fp8dash takes it from 0.10 (July 2025),
// when the script was still there for the releases before; 0.6.4 (the oldest release fp8dash knows) gets the script.
//
// vLLM, `vllm bench sweep serve` (vllm/benchmarks/sweep/serve.py @ 0031557f, SweepServeArgs.add_cli_args): --serve-cmd,
// --bench-cmd (both required), --serve-params and --bench-params (a JSON list of parameter dicts; each key becomes
// --key value on the command, ParameterSweepItem.apply_to_cmd in sweep/param_sweep.py @ 0f17ee06, and is merged into
// every record), --num-runs (default 3), -o/--output-dir. The sweep itself adds --percentile-metrics ttft,tpot,itl,e2el
// --save-result --result-dir --result-filename to each benchmark, so the --bench-cmd carries none of the last three.
// PR #27639 "[Frontend] Add `vllm bench sweep` to CLI" merged 2025-10-28, after v0.11.0 (2025-10-02); the docs of
// v0.12.0 have its page (docs.vllm.ai/en/v0.12.0/benchmarking/sweeps/). fp8dash takes it from 0.12.0 (the loop on
// 0.11.1, which may have it, is never wrong).
//
// GuideLLM (vllm-project/guidellm, read at its tags):
//   0.2.0 (src/guidellm/__main__.py @ 876775f2): `guidellm benchmark --target --model --rate-type concurrent --rate
//     1,4,... --data prompt_tokens=N,output_tokens=M --max-seconds --random-seed --output-path`.
//   0.3.0 (@ ad9513fd): the same (`benchmark` became a group whose default command is `run`).
//   0.4.0 (@ f6175cdd) to 0.6.x (@ a963ae97): --profile, with --rate-type as its "legacy alias"; --output-path a
//     "Legacy parameter ... Resolves to fill in output-dir and outputs"; --max-requests one int for every load point
//     (so fp8dash stops each point by time, --max-seconds, the same for every variant).
//   0.7.0 (@ c6389a57, src/guidellm/cli/run.py and utils/click_pydantic.py): `guidellm run` with registry options
//     `--backend kind=openai_http,target=...,model=...`, `--profile` (YAML/JSON accepted: {"kind": "concurrent",
//     "streams": [...]}), `--data kind=synthetic_text,prompt_tokens=,output_tokens=`, `--constraint
//     kind=max_duration,seconds=`, `--seed kind=static,value=`, `--output kind=json,path=`, and `--label k=v`
//     (repeatable, saved as config.metadata.labels); `guidellm benchmark` keeps only from-file.
#include "fp8dash/core/run_plan_serving.h"

#include <algorithm>
#include <filesystem>

#include "fp8dash/core/run_plan.h"

namespace fp8dash {
namespace {

std::string servingPath(const std::string& dir, const std::string& leaf) {
    return (std::filesystem::path(dir) / leaf).generic_string();
}

std::string servingJoinInts(const std::vector<int>& v, const char* sep) {
    std::string out;
    for (int x : v) out += (out.empty() ? "" : sep) + std::to_string(x);
    return out;
}

std::string servingJoinCounts(const std::vector<long long>& v, const char* sep) {
    std::string out;
    for (long long x : v) out += (out.empty() ? "" : sep) + std::to_string(x);
    return out;
}

bool guidellmHasRunCommand(const VllmVersion& g) {  // 0.7: `guidellm run` with registry options
    return !(g < VllmVersion{0, 7, 0, {}});
}
bool guidellmHasProfile(const VllmVersion& g) {  // 0.4: --profile (--rate-type its legacy alias)
    return !(g < VllmVersion{0, 4, 0, {}});
}

Status checkServingInputs(const ServingPlanInputs& in) {
    if (in.concurrency.empty()) return Error{"--concurrency names no load"};
    if (in.concurrency.size() > 32) return Error{"--concurrency: at most 32 load points"};
    for (std::size_t i = 0; i < in.concurrency.size(); ++i) {
        const int c = in.concurrency[i];
        if (c < 1 || c > kServingMaxConcurrency)
            return Error{"--concurrency: " + std::to_string(c) + " is not between 1 and " +
                         std::to_string(kServingMaxConcurrency)};
        if (i > 0 && c <= in.concurrency[i - 1])
            return Error{"--concurrency: the loads must rise (" + std::to_string(in.concurrency[i - 1]) + " then " +
                         std::to_string(c) + ")"};
    }
    if (in.inputLen < 1) return Error{"--input-len must be at least 1 token"};
    if (in.outputLen < 1) return Error{"--output-len must be at least 1 token"};
    if (in.seed < 0) return Error{"--bench-seed must be 0 or more"};
    if (in.promptsPerConcurrency < 1) return Error{"--prompts-per-concurrency must be at least 1"};
    if (in.numRuns < 1) return Error{"--serving-runs must be at least 1"};
    if (in.dataset != "random" && in.dataset != "sharegpt")
        return Error{"--dataset: \"" + in.dataset + "\" is not random or sharegpt:PATH"};
    if (in.dataset == "sharegpt" && in.datasetPath.empty()) return Error{"--dataset sharegpt needs its path"};
    if (in.dataset == "sharegpt" && in.tool != ServingBenchTool::Vllm)
        return Error{
            "--dataset sharegpt is for vllm bench only: GuideLLM's synthetic prompts are the workload fp8dash can "
            "make the same for both tools (--dataset random)"};
    if (in.slo.empty() || in.slo.find_first_of(" \t\n'\"") != std::string::npos)
        return Error{"--slo: \"" + in.slo + "\" is not an SLO such as " + kDefaultServingSlo};
    return success();
}

std::string servingMetadataValue(const ServingVariant& v, const char* key) {
    const std::string k = key;
    if (k == "quantization") return v.fp8Weights ? "fp8" : "none";
    if (k == "kv_cache_dtype") return v.fp8Kv ? "fp8" : "auto";
    return "";
}

// The options of one vLLM benchmark: the workload, the percentiles, what was served; without the load (added per
// point) and without where the result goes (the sweep adds it itself).
std::vector<std::string> vllmBenchBase(const ServingPlanInputs& in, bool benchServe, const ServingRunCommands& r,
                                       const std::string& model) {
    std::vector<std::string> a;
    if (benchServe)
        a = {"vllm", "bench", "serve"};
    else
        a = {"python3", "benchmarks/benchmark_serving.py"};
    a.insert(a.end(), {"--model", model});
    if (benchServe) a.insert(a.end(), {"--label", r.key});
    a.push_back("--metadata");
    for (const auto& [k, v] : r.metadata) a.push_back(k + "=" + v);
    if (in.dataset == "sharegpt")
        a.insert(a.end(), {"--dataset-name", "sharegpt", "--dataset-path", in.datasetPath, "--sharegpt-output-len",
                           std::to_string(in.outputLen)});
    else
        a.insert(a.end(), {"--dataset-name", "random", "--random-input-len", std::to_string(in.inputLen),
                           "--random-output-len", std::to_string(in.outputLen)});
    a.insert(a.end(), {"--ignore-eos", "--seed", std::to_string(in.seed), "--percentile-metrics", "ttft,tpot,itl,e2el",
                       "--metric-percentiles", "50,90,99"});
    if (benchServe) a.push_back("--save-detailed");  // per-request arrays: goodput at any SLO afterwards
    return a;
}

// A JSON list, one element a line.
std::string servingJsonLines(const Json& list) {
    std::string out = "[\n";
    for (std::size_t i = 0; i < list.size(); ++i) out += "  " + list[i].dump() + (i + 1 < list.size() ? ",\n" : "\n");
    return out + "]\n";
}

void servingReplaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

void addVllmCommands(const ServingPlan& p, const ServingVariant& v, ServingRunCommands& r) {
    const ServingPlanInputs& in = p.inputs;
    const bool benchServe = p.vllmProgram != "benchmarks/benchmark_serving.py";
    r.vllmResultPath = servingPath(servingPath(p.directory, "vllm"), v.folder);
    const std::vector<std::string> base = vllmBenchBase(in, benchServe, r, v.model);
    if (p.vllmMode == "sweep") {
        Json params = Json::object();
        // The served layers as flags the serve command already has (so the sweep changes nothing), merged by the
        // sweep into every record: --quantization only where the command has it (not beside a checkpoint's own).
        if (std::find(v.serve.begin(), v.serve.end(), "--quantization") != v.serve.end())
            params["quantization"] = "fp8";
        params["kv_cache_dtype"] = v.fp8Kv ? "fp8" : "auto";
        r.serveParams = ServingFile{servingPath(p.directory, v.folder + ".serve_params.json"),
                                    servingJsonLines(Json::array({params}))};
        r.vllm.push_back({"vllm", "bench", "sweep", "serve", "--serve-cmd", shellLine(v.serve), "--bench-cmd",
                          shellLine(base), "--serve-params", r.serveParams->path, "--bench-params", p.benchParams->path,
                          "--num-runs", std::to_string(in.numRuns), "--output-dir", r.vllmResultPath});
        return;
    }
    for (std::size_t i = 0; i < in.concurrency.size(); ++i) {
        const std::string c = std::to_string(in.concurrency[i]);
        std::vector<std::string> a = base;
        a.insert(a.end(), {"--max-concurrency", c, "--num-prompts", std::to_string(p.numPrompts[i]), "--save-result",
                           "--result-dir", r.vllmResultPath, "--result-filename", v.key + "-c" + c + ".json"});
        r.vllm.push_back(std::move(a));
    }
    // The loop as a shell loop: the same argv with the load as $c and $n.
    std::vector<std::string> body = base;
    body.insert(body.end(), {"--max-concurrency", "@C@", "--num-prompts", "@N@", "--save-result", "--result-dir",
                             r.vllmResultPath, "--result-filename", v.key + "-c@C@.json"});
    std::string block = shellBlock(body);
    servingReplaceAll(block, "@C@", "\"$c\"");
    servingReplaceAll(block, "@N@", "\"$n\"");
    std::string pairs;
    for (std::size_t i = 0; i < in.concurrency.size(); ++i)
        pairs += (i ? " " : "") + std::to_string(in.concurrency[i]) + ":" + std::to_string(p.numPrompts[i]);
    r.vllmLoop = "for cn in " + pairs + "; do c=${cn%:*}; n=${cn#*:}\n" + block + "\ndone";
}

void addGuidellmCommand(const ServingPlan& p, const VllmVersion& g, const ServingVariant& v, ServingRunCommands& r) {
    const ServingPlanInputs& in = p.inputs;
    r.guidellmResultPath = servingPath(servingPath(p.directory, "guidellm"), v.folder + ".json");
    const std::string seconds = std::to_string(kGuidellmSecondsPerLoad);
    if (guidellmHasRunCommand(g)) {
        const Json profile = {{"kind", "concurrent"}, {"streams", in.concurrency}};
        r.guidellm = {"guidellm",
                      "run",
                      "--backend",
                      "kind=openai_http,target=" + std::string(kServingTarget) + ",model=" + v.model,
                      "--profile",
                      profile.dump(),
                      "--data",
                      "kind=synthetic_text,prompt_tokens=" + std::to_string(in.inputLen) +
                          ",output_tokens=" + std::to_string(in.outputLen),
                      "--constraint",
                      "kind=max_duration,seconds=" + seconds,
                      "--seed",
                      "kind=static,value=" + std::to_string(in.seed),
                      "--output",
                      "kind=json,path=" + r.guidellmResultPath};
        for (const auto& [k, val] : r.metadata) r.guidellm.insert(r.guidellm.end(), {"--label", k + "=" + val});
        return;
    }
    r.guidellm = {"guidellm",
                  "benchmark",
                  "--target",
                  kServingTarget,
                  "--model",
                  v.model,
                  guidellmHasProfile(g) ? "--profile" : "--rate-type",
                  "concurrent",
                  "--rate",
                  servingJoinInts(in.concurrency, ","),
                  "--data",
                  "prompt_tokens=" + std::to_string(in.inputLen) + ",output_tokens=" + std::to_string(in.outputLen),
                  "--max-seconds",
                  seconds,
                  "--random-seed",
                  std::to_string(in.seed),
                  "--output-path",
                  r.guidellmResultPath};
}

std::vector<std::string> servingCommand(const ServingPlan& p, bool guidellm) {
    std::vector<std::string> a = {"fp8dash", "serving"};
    for (const auto& r : p.runs) a.push_back(guidellm ? r.guidellmResultPath : r.vllmResultPath);
    for (const auto& r : p.runs) a.insert(a.end(), {"--label", r.label});
    a.insert(a.end(), {"--slo", p.inputs.slo});
    return a;
}

}  // namespace

long long servingNumPrompts(int concurrency, int promptsPerConcurrency) {
    return std::max<long long>(kServingMinPrompts,
                               static_cast<long long>(promptsPerConcurrency) * static_cast<long long>(concurrency));
}

bool vllmHasBenchSweep(const VllmVersion& v) {
    return !(v < VllmVersion{0, 12, 0, {}});
}

bool vllmHasBenchServe(const VllmVersion& v) {
    return !(v < VllmVersion{0, 10, 0, {}});
}

Result<ServingPlan> makeServingPlan(const ServingPlanInputs& in, const VllmVersion& vllm,
                                    const std::vector<ServingVariant>& variants, const std::string& outDir,
                                    const std::string& comparisonPath) {
    if (Status ok = checkServingInputs(in); !ok) return ok.error();
    ServingPlan p;
    p.inputs = in;
    p.vllmVersion = vllm.text;
    p.directory = servingPath(outDir, "serving");
    for (int c : in.concurrency) p.numPrompts.push_back(servingNumPrompts(c, in.promptsPerConcurrency));
    const bool withVllm = in.tool != ServingBenchTool::Guidellm;
    const bool withGuidellm = in.tool != ServingBenchTool::Vllm;
    if (withVllm) {
        const bool sweep = vllmHasBenchSweep(vllm);
        if (in.mode == VllmBenchMode::Sweep && !sweep)
            return Error{"--vllm-bench sweep: vLLM " + vllm.text +
                         " has no `vllm bench sweep serve` (from 0.12); --vllm-bench loop runs vllm bench serve "
                         "once per load"};
        p.vllmMode = in.mode == VllmBenchMode::Loop ? "loop" : sweep ? "sweep" : "loop";
        p.vllmProgram = p.vllmMode == "sweep"     ? "vllm bench sweep serve"
                        : vllmHasBenchServe(vllm) ? "vllm bench serve"
                                                  : "benchmarks/benchmark_serving.py";
        if (p.vllmMode == "sweep") {
            Json points = Json::array();
            for (std::size_t i = 0; i < in.concurrency.size(); ++i)
                points.push_back(Json{{"max_concurrency", in.concurrency[i]}, {"num_prompts", p.numPrompts[i]}});
            p.benchParams = ServingFile{servingPath(p.directory, "bench_params.json"), servingJsonLines(points)};
        }
    }
    std::optional<VllmVersion> guidellm;
    if (withGuidellm) {
        auto g = parseVllmVersion(in.guidellmVersion);
        if (!g || g->major != 0 || g->minor < 2)
            return Error{"--guidellm-version: \"" + in.guidellmVersion +
                         "\" is not a GuideLLM release fp8dash knows (0.2 or later, such as 0.7)"};
        guidellm = *g;
        p.guidellmVersion = g->text;
    }
    std::vector<std::string> evals;
    for (const ServingVariant& v : variants) {
        ServingRunCommands r;
        r.key = v.key;
        r.label = v.label;
        r.serve = v.serve;
        r.metadata = {{"variant", v.key},
                      {"quantization", servingMetadataValue(v, "quantization")},
                      {"kv_cache_dtype", servingMetadataValue(v, "kv_cache_dtype")}};
        if (v.fp8Kv && !v.kvScales.empty()) r.metadata.emplace_back("kv_scales", v.kvScales);
        if (withVllm) addVllmCommands(p, v, r);
        if (guidellm) addGuidellmCommand(p, *guidellm, v, r);
        evals.push_back(v.evalPath);
        p.runs.push_back(std::move(r));
    }
    if (withVllm) p.servingVllm = servingCommand(p, false);
    if (withGuidellm) p.servingGuidellm = servingCommand(p, true);
    p.compare = {"fp8dash", "compare"};
    p.compare.insert(p.compare.end(), evals.begin(), evals.end());
    for (const auto& r : p.runs) p.compare.insert(p.compare.end(), {"--label", r.label});
    for (const auto& r : p.runs)
        p.compare.insert(p.compare.end(),
                         {"--serving", r.label + "=" + (withVllm ? r.vllmResultPath : r.guidellmResultPath)});
    p.compare.insert(p.compare.end(), {"--save", comparisonPath});
    return p;
}

Json servingPlanToJson(const ServingPlan& p) {
    const ServingPlanInputs& in = p.inputs;
    Json j;
    j["tool"] = in.tool == ServingBenchTool::Vllm       ? "vllm"
                : in.tool == ServingBenchTool::Guidellm ? "guidellm"
                                                        : "both";
    j["vllm"] = p.vllmMode.empty() ? Json(nullptr)
                                   : Json{{"version", p.vllmVersion},
                                          {"mode", p.vllmMode},
                                          {"program", p.vllmProgram},
                                          {"num_runs", p.vllmMode == "sweep" ? Json(in.numRuns) : Json(nullptr)}};
    j["guidellm"] = p.guidellmVersion.empty() ? Json(nullptr) : Json{{"version", p.guidellmVersion}};
    j["concurrency"] = in.concurrency;
    j["num_prompts"] = p.numPrompts;
    j["prompts_per_concurrency"] = in.promptsPerConcurrency;
    j["min_prompts"] = kServingMinPrompts;
    j["dataset"] = in.dataset;
    j["dataset_path"] = in.datasetPath.empty() ? Json(nullptr) : Json(in.datasetPath);
    j["input_len"] = in.dataset == "random" ? Json(in.inputLen) : Json(nullptr);
    j["output_len"] = in.outputLen;
    j["seed"] = in.seed;
    j["percentile_metrics"] = {"ttft", "tpot", "itl", "e2el"};
    j["metric_percentiles"] = {50, 90, 99};
    j["guidellm_seconds_per_load"] = p.guidellmVersion.empty() ? Json(nullptr) : Json(kGuidellmSecondsPerLoad);
    j["slo"] = in.slo;
    j["directory"] = p.directory;
    Json files = Json::array();
    if (p.benchParams) files.push_back(Json{{"path", p.benchParams->path}, {"content", p.benchParams->content}});
    Json runs = Json::array();
    for (const auto& r : p.runs) {
        if (r.serveParams) files.push_back(Json{{"path", r.serveParams->path}, {"content", r.serveParams->content}});
        Json metadata = Json::object();
        for (const auto& [k, v] : r.metadata) metadata[k] = v;
        Json run = {{"key", r.key}, {"label", r.label}, {"metadata", metadata}};
        if (!p.vllmMode.empty()) {
            Json lines = Json::array();
            for (const auto& a : r.vllm) lines.push_back(shellLine(a));
            run["vllm"] = Json{{"result_path", r.vllmResultPath},
                               {"commands", lines},
                               {"argv", r.vllm},
                               {"loop", r.vllmLoop.empty() ? Json(nullptr) : Json(r.vllmLoop)},
                               {"serve_params", r.serveParams ? Json(r.serveParams->path) : Json(nullptr)}};
        }
        if (!r.guidellm.empty())
            run["guidellm"] =
                Json{{"result_path", r.guidellmResultPath}, {"command", shellLine(r.guidellm)}, {"argv", r.guidellm}};
        runs.push_back(std::move(run));
    }
    j["files"] = files;
    j["runs"] = runs;
    j["serving"] = p.servingVllm.empty() ? Json(nullptr) : Json(shellLine(p.servingVllm));
    j["serving_argv"] = p.servingVllm.empty() ? Json(nullptr) : Json(p.servingVllm);
    j["serving_guidellm"] = p.servingGuidellm.empty() ? Json(nullptr) : Json(shellLine(p.servingGuidellm));
    j["serving_guidellm_argv"] = p.servingGuidellm.empty() ? Json(nullptr) : Json(p.servingGuidellm);
    j["compare"] = shellLine(p.compare);
    j["compare_argv"] = p.compare;
    return j;
}

namespace {

std::string servingHeredoc(const ServingFile& f) {
    return "cat > " + shellQuote(f.path) + " <<'EOF'\n" + f.content + "EOF\n";
}

std::string servingHeader(const ServingPlan& p) {
    const ServingPlanInputs& in = p.inputs;
    std::string t = "\n# Serving benchmarks: every variant measured the same way";
    if (!p.vllmMode.empty())
        t += " (vLLM " + p.vllmVersion + ": " + p.vllmProgram +
             (p.vllmMode == "sweep" ? ", " + std::to_string(in.numRuns) + " runs per load"
                                    : std::string(", once per load")) +
             ")";
    t += "\n#   load: concurrency " + servingJoinInts(in.concurrency, ", ") + "; requests " +
         servingJoinCounts(p.numPrompts, ", ") + " (" + std::to_string(in.promptsPerConcurrency) +
         " per concurrent request, at least " + std::to_string(kServingMinPrompts) + ")\n";
    if (in.dataset == "sharegpt")
        t += "#   workload: ShareGPT prompts (" + in.datasetPath + "), " + std::to_string(in.outputLen) + " tokens out";
    else
        t += "#   workload: random prompts of " + std::to_string(in.inputLen) + " tokens, " +
             std::to_string(in.outputLen) + " tokens out";
    t += " (EOS ignored), seed " + std::to_string(in.seed) + "; p50, p90, p99 of TTFT, TPOT, ITL, E2E latency\n";
    if (!p.guidellmVersion.empty())
        t += "#   GuideLLM " + p.guidellmVersion + ": the same loads, " + std::to_string(kGuidellmSecondsPerLoad) +
             " s each, against the variant's vllm serve (" + kServingTarget + ")\n";
    return t;
}

}  // namespace

std::string servingPlanToText(const ServingPlan& p) {
    std::string t = servingHeader(p);
    t += "mkdir -p " + shellQuote(p.directory) + "\n";
    if (p.benchParams)
        t += "# The loads, the same for every variant (the sweep's --bench-params)\n" + servingHeredoc(*p.benchParams);
    for (std::size_t i = 0; i < p.runs.size(); ++i) {
        const ServingRunCommands& r = p.runs[i];
        t += "\n# Serving " + std::to_string(i + 1) + " of " + std::to_string(p.runs.size()) + ": " + r.label;
        if (p.vllmMode == "sweep") {
            t += " -> " + r.vllmResultPath + " (the sweep starts and stops its vllm serve)\n";
            t += servingHeredoc(*r.serveParams) + shellBlock(r.vllm.front()) + "\n";
        } else if (!p.vllmMode.empty()) {
            t += " -> " + r.vllmResultPath + " (with its vllm serve up" +
                 (p.vllmProgram == "benchmarks/benchmark_serving.py" ? ", from a vLLM " + p.vllmVersion + " checkout"
                                                                     : std::string()) +
                 ")\n" + r.vllmLoop + "\n";
        } else {
            t += "\n";
        }
        if (!r.guidellm.empty())
            t +=
                "# GuideLLM (with its vllm serve up) -> " + r.guidellmResultPath + "\n" + shellBlock(r.guidellm) + "\n";
    }
    t += "\n# Read the serving results at your SLO (the baseline first, the labels in the same order)\n";
    if (!p.servingVllm.empty()) t += shellBlock(p.servingVllm) + "\n";
    if (!p.servingGuidellm.empty()) t += shellBlock(p.servingGuidellm) + "\n";
    t += "\n# Decide with the measured gain beside the evals\n" + shellBlock(p.compare) + "\n";
    return t;
}

}  // namespace fp8dash
