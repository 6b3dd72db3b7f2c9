// Issue 39, "Open at a place": the web page report's task rows are link targets ("report.html#task-gsm8k"). Each
// task's row has the id "task-" + its name as a URL fragment spells it (encoded here, independently of the writer),
// every id on the page is unique (several candidates: "evals-<k>-task-<name>", one table each), and a hostile task
// name cannot leave the attribute. The PDF's rich text keeps its rows plain.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_builder.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "fp8dash/core/report_document.h"
#include "hostile_comparison.h"

namespace fp8dash {
namespace {

// RFC 3986: unreserved characters as they are, every other byte as %XX (upper-case hex).
std::string fragmentOf(const std::string& name) {
    std::string out;
    for (const unsigned char c : name) {
        if (c < 0x80 && std::isalnum(c)) {
            out += static_cast<char>(c);
        } else if (c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

// Every id="…" of the page, in order (an element's id attribute, wherever it is).
std::vector<std::string> idsOf(const std::string& html) {
    static const std::regex id(" id=\"([^\"]*)\"");
    std::vector<std::string> ids;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), id); it != std::sregex_iterator(); ++it)
        ids.push_back((*it)[1]);
    return ids;
}

// The ids of the table rows (<tr id=…>).
std::vector<std::string> rowIdsOf(const std::string& html) {
    static const std::regex row("<tr id=\"([^\"]*)\">");
    std::vector<std::string> ids;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator(); ++it)
        ids.push_back((*it)[1]);
    return ids;
}

void addTaskIds(const std::vector<TaskComparison>& tasks, const std::string& prefix, std::set<std::string>& out) {
    for (const TaskComparison& t : tasks) {
        out.insert(prefix + fragmentOf(t.task));
        addTaskIds(t.subtasks, prefix, out);
    }
}

TEST(ReportAnchors, EachTaskRowOfTheWebPageIsALinkTargetWithAnEscapedUniqueId) {
    // The bundled demo with hostile task names (markup, quotes, spaces, a right-to-left override).
    auto doc = parseComparisonJson(test::hostileComparison(Json::parse(demoComparisonText())), "hostile.fp8cmp");
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    auto decision = decide(*doc);
    ASSERT_TRUE(decision.ok()) << decision.error().message;
    ASSERT_TRUE(decision->evals);
    ReportContext ctx;
    ctx.source = "hostile.fp8cmp";
    const std::string html = reportToHtml(*doc, *decision, ctx);

    std::set<std::string> expected;
    addTaskIds(decision->evals->tasks, "task-", expected);
    ASSERT_GE(expected.size(), 4u);
    const std::vector<std::string> rows = rowIdsOf(html);
    EXPECT_EQ(std::set<std::string>(rows.begin(), rows.end()), expected);
    EXPECT_EQ(rows.size(), expected.size());  // one row each

    // The renamed tasks: their ids spelled out here ("gsm8k <h1 …" -> "task-gsm8k%20%3Ch1…"), nothing raw.
    for (const auto& [from, to] : test::hostileTaskNames()) {
        const std::string id = "task-" + fragmentOf(to);
        EXPECT_TRUE(expected.count(id)) << from;
        EXPECT_EQ(id.rfind("task-" + from + "%20%3C", 0), 0u) << id;
    }
    static const std::regex safe("[A-Za-z0-9._~%-]+");
    for (const std::string& id : rows) EXPECT_TRUE(std::regex_match(id, safe)) << id;

    // Unique on the whole page: the rows' ids and the sections'.
    const std::vector<std::string> all = idsOf(html);
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
    EXPECT_GT(all.size(), rows.size());

    // The PDF's rich text: the same rows, without ids.
    const std::string rich = reportToHtml(*doc, *decision, ctx, ReportHtmlFlavour::RichText, 640);
    EXPECT_TRUE(rowIdsOf(rich).empty());
}

// Several candidates: one evals table per candidate, the same tasks in each; the k-th table's rows are
// "evals-<k>-task-<name>", so each is a target of its own and no id repeats.
TEST(ReportAnchors, SeveralCandidatesEachTableItsOwnIds) {
    const std::filesystem::path ladder = std::filesystem::path(FP8DASH_TEST_DATA) / "lm-eval-ladder";
    ComparisonInputs in;
    in.baselinePath = ladder / "bf16";
    in.candidatePath = ladder / "w8a8";
    in.moreCandidatePaths = {ladder / "w8a8-kv", ladder / "w8a8-kv-cal"};
    auto built = buildComparison(in);
    ASSERT_TRUE(built.ok()) << built.error().message;
    ASSERT_TRUE(built->decision.variants);
    ReportContext ctx;
    ctx.source = "ladder.fp8cmp";
    const std::string html = reportToHtml(built->document, built->decision, ctx);

    std::set<std::string> expected;
    const auto& variants = built->decision.variants->variants;
    ASSERT_EQ(variants.size(), 3u);
    for (std::size_t k = 0; k < variants.size(); ++k)
        addTaskIds(variants[k].report.tasks, "evals-" + std::to_string(k + 1) + "-task-", expected);
    const std::vector<std::string> rows = rowIdsOf(html);
    EXPECT_EQ(std::set<std::string>(rows.begin(), rows.end()), expected);
    EXPECT_EQ(rows.size(), expected.size());
    // The ladder's tasks, by name, in the second candidate's table.
    EXPECT_TRUE(expected.count("evals-2-task-gsm8k"));
    const std::vector<std::string> all = idsOf(html);
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

}  // namespace
}  // namespace fp8dash
