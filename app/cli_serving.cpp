#include "cli_serving.h"

#include <climits>
#include <filesystem>
#include <ostream>
#include <set>

#include "cli.h"
#include "cli_args.h"
#include "cli_common.h"
#include "fp8dash/core/serving_comparison.h"
#include "fp8dash/core/serving_format.h"
#include "fp8dash/core/untrusted_text.h"

namespace fp8dash::cli {
namespace {

double positiveNumber(const std::string& command, const std::string& option, const std::string& text,
                      const char* expected) {
    const auto v = strictDouble(text);
    if (!v || *v <= 0) throw UsageError{command + ": " + option + " \"" + text + "\": expected " + expected};
    return *v;
}

struct ServingArgs {
    std::vector<std::string> paths, labels;
    ServingOptions options;
    Format format = Format::Text;
};

ServingArgs parseServingArgs(const std::vector<std::string>& args) {
    ServingArgs s;
    Args a(args);
    std::string v;
    while (!a.done()) {
        if (a.option("--label", v)) {
            s.labels.push_back(v);
        } else if (servingOption(a, s.options, "serving")) {
        } else if (a.option("--format", v)) {
            s.format = parseFormat(v);
        } else if (!a.peek().empty() && a.peek()[0] == '-' && a.peek() != "-") {
            a.unknown("serving");
        } else {
            s.paths.push_back(a.next());
        }
    }
    if (s.paths.empty())
        throw UsageError{"serving: give the baseline's results and each candidate's (files or folders)"};
    if (s.labels.size() > s.paths.size())
        throw UsageError{"serving: " + std::to_string(s.labels.size()) + " --label for " +
                         std::to_string(s.paths.size()) + " results"};
    return s;
}

std::string stemOf(const std::string& path) {
    std::filesystem::path p(path);
    if (!p.has_filename()) p = p.parent_path();
    return p.stem().string();
}

}  // namespace

bool servingOption(Args& a, ServingOptions& options, const std::string& command) {
    std::string v;
    if (a.option("--slo", v)) {
        auto slo = parseServingSlo(v);
        if (!slo) throw UsageError{command + ": --slo: " + slo.error().message};
        options.slo = *slo;
    } else if (a.option("--target-load", v)) {
        options.targetLoad =
            positiveNumber(command, "--target-load", v, "a positive number (concurrent requests or req/s)");
    } else if (a.option("--gpu-hour-cost", v)) {
        options.gpuHourCost = positiveNumber(command, "--gpu-hour-cost", v, "a positive price per GPU-hour");
    } else if (a.option("--gpus-per-replica", v)) {
        const auto n = strictInteger(v, 1, 4096);
        if (!n) throw UsageError{command + ": --gpus-per-replica \"" + v + "\": expected a whole number from 1"};
        options.gpusPerReplica = static_cast<int>(*n);
    } else if (a.option("--noise-pct", v)) {
        options.noisePct = positiveNumber(command, "--noise-pct", v, "a positive percentage such as 2");
    } else {
        return false;
    }
    return true;
}

std::string servingUsage() {
    return "  fp8dash serving BASELINE CANDIDATE... [--label L]... [--slo ttft_p99=2000ms,tpot_p99=50ms]\n"
           "                  [--target-load N] [--gpu-hour-cost PRICE] [--gpus-per-replica N] [--noise-pct 2]\n"
           "                  [--format text|json|markdown]\n"
           "                                 what FP8 buys on your server: serving benchmarks (vllm bench serve,\n"
           "                                 vllm bench sweep serve, GuideLLM, AIPerf) compared at matched loads,\n"
           "                                 capacity at the SLO, replicas and cost; each run a file or a folder\n";
}

int runServing(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const ServingArgs s = parseServingArgs(args);
    std::vector<ServingVariantInput> inputs;
    for (std::size_t i = 0; i < s.paths.size(); ++i) {
        auto runs = readServingPath(s.paths[i]);
        if (!runs) {
            err << "fp8dash: " << errorText(runs.error().message) << "\n";
            return kExitBadInput;
        }
        std::string label = i < s.labels.size() ? s.labels[i] : servingVariantLabel(*runs, stemOf(s.paths[i]));
        inputs.push_back({label, std::move(runs).value()});
    }
    // Two variants under one name cannot be told apart in the tables: the later ones take their file names.
    std::set<std::string> seen;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (!seen.insert(inputs[i].label).second) {
            if (i < s.labels.size()) throw UsageError{"serving: the label \"" + inputs[i].label + "\" is given twice"};
            inputs[i].label = stemOf(s.paths[i]);
            if (!seen.insert(inputs[i].label).second) inputs[i].label += " (" + std::to_string(i + 1) + ")";
        }
    const ServingComparison c = compareServing(inputs, s.options);
    switch (s.format) {
        case Format::Json: {
            nlohmann::ordered_json j;
            j["serving"] = servingToJson(c);
            out << j.dump(2) << "\n";
            break;
        }
        case Format::Markdown:
            out << servingToMarkdown(c);
            break;
        case Format::Text:
            out << servingToText(c);
            break;
    }
    if (c.blocked()) {
        err << "fp8dash: the serving results are not comparable (see the problems above)\n";
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace fp8dash::cli
