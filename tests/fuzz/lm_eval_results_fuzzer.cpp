// Fuzz target: lm-eval results files (parseJsonText + parseLmEvalJson, as parseLmEvalText does, and readLmEvalPath on
// the same bytes as a file), the task filter order the sample-log reader takes from them (sampleTaskInfo), and the
// round trip through toJson() that a comparison file relies on (a run it stores must read back the same).
#include <cmath>
#include <cstdint>
#include <string>

#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/sample_logs.h"
#include "fuzz_support.h"

using namespace fp8dash;

namespace {

bool sameNumber(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

void checkSameRun(const LmEvalResults& a, const LmEvalResults& b) {
    fuzz::check(a.tasks.size() == b.tasks.size(), "toJson() round trip changed the number of tasks");
    for (std::size_t i = 0; i < a.tasks.size(); ++i) {
        const TaskResult& x = a.tasks[i];
        const TaskResult& y = b.tasks[i];
        fuzz::check(x.name == y.name, "toJson() round trip changed a task name", x.name);
        fuzz::check(x.metrics.size() == y.metrics.size(), "toJson() round trip changed a task's metrics", x.name);
        for (std::size_t k = 0; k < x.metrics.size(); ++k) {
            fuzz::check(x.metrics[k].key == y.metrics[k].key, "toJson() round trip changed a metric key",
                        x.metrics[k].key);
            fuzz::check(sameNumber(x.metrics[k].value, y.metrics[k].value),
                        "toJson() round trip changed a metric value", x.metrics[k].key);
        }
    }
    fuzz::check(a.modelName == b.modelName, "toJson() round trip changed the model name");
    fuzz::check(a.groupSubtasks.size() == b.groupSubtasks.size(), "toJson() round trip changed the groups");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::ScratchFile scratch("results_2026-01-01T00-00-00.000001.json");
    const std::string source = "fuzz/results.json";
    const auto text = fuzz::text(data, size);

    // parseLmEvalText is parseJsonText then parseLmEvalJson; the document is kept for sampleTaskInfo.
    auto doc = parseJsonText(text, source);
    auto parsed = doc ? parseLmEvalJson(*doc, source) : Result<LmEvalResults>(doc.error());
    auto fromFile = readLmEvalPath(scratch.write(text));
    if (parsed.ok() != fromFile.ok())
        fuzz::fail("parsing the text and readLmEvalPath on the same bytes disagree",
                   parsed.ok() ? fromFile.error().message : parsed.error().message);
    if (!parsed) {
        fuzz::checkErrorNames(parsed.error().message, source);
        fuzz::checkErrorNames(fromFile.error().message, scratch.path().string());
        return 0;
    }

    const LmEvalResults& run = *parsed;
    // What the sample-log reader asks of a results file (findSampleLogs).
    for (const TaskResult& task : run.tasks) {
        const SampleTaskInfo info = sampleTaskInfo(*doc, task);
        fuzz::check(info.task == task.name, "sampleTaskInfo names another task", task.name);
        (void)run.subtasksOf(task.name);
        for (const MetricValue& m : task.metrics) {
            fuzz::check(task.find(m.name, m.filter) != nullptr, "a task does not find its own metric", m.key);
            (void)task.higherIsBetterFor(m.name);
        }
    }
    (void)run.modelArg("pretrained");

    auto again = parseLmEvalJson(run.toJson(), "fuzz/round-trip");
    fuzz::check(again.ok(), "a run's toJson() does not read back", again.ok() ? "" : again.error().message);
    checkSameRun(run, *again);
    return 0;
}
