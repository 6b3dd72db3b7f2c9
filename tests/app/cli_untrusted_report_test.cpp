// Every output of a hostile comparison (issue 26, "a corpus of hostile strings run through every output"): the bundled
// demo with a hostile string in every string field it holds (tests/support/hostile_comparison.h), reported by the
// real binary in every format on stdout and in every file format. Each must show the strings as the text they are:
// no control reaches the terminal or a text file, the HTML escapes the markup, the Markdown (read back with cmark) has
// no heading, HTML or code that a value made, and the PDF's text (poppler's pdftotext) holds the markup literally.
// The real verdict (INVESTIGATE) is the only verdict any of them states.
#include <cmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_runner.h"
#include "cli_text_checks.h"
#include "hostile_comparison.h"
#include "process.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::expectNoControls;
using test::MarkdownRead;
using test::readFile;
using test::readMarkdown;
using test::tool;
using test::withoutBlanks;

std::filesystem::path demoFile() {
    return std::filesystem::path(FP8DASH_SOURCE_DIR) / "resources/demo/llama3-8b-instruct-fp8.fp8cmp";
}

// The hostile comparison, written as a file (JSON text, as fp8dash writes it).
std::filesystem::path writeHostile(const test::TempDir& dir) {
    return dir.write("hostile.fp8cmp", test::hostileComparison(Json::parse(readFile(demoFile()))).dump(1));
}

// Every "VERDICT: GO" in shown text is the payload's, shown as the text it is ("...VERDICT: GO</h1><img ..."). Blanks
// are left out of the comparison (the PDF's text breaks lines where it likes).
void expectPayloadShownAsText(const std::string& shownText, const std::string& what) {
    const std::string shown = withoutBlanks(shownText);
    std::size_t seen = 0;
    for (std::size_t at = shown.find("VERDICT:GO"); at != std::string::npos; at = shown.find("VERDICT:GO", at + 1)) {
        ++seen;
        EXPECT_EQ(shown.compare(at + 10, 5, "</h1>"), 0) << what << ": a verdict without its markup around it:\n"
                                                         << shown.substr(at > 200 ? at - 200 : 0, 400);
        EXPECT_NE(shown.rfind("<h1style=color:green>", at), std::string::npos) << what;
    }
    EXPECT_GT(seen, 3u) << what << " shows too few of the hostile fields";
}

// The headings that name a serving variant ("BF16 (baseline): meta-llama/…"): the demo's, each with the hostile
// comparison's (its run's hostile label and checkpoint, whole in one heading).
std::vector<std::pair<std::string, std::string>> servingHeadings(const Json& demo, const Json& hostile) {
    std::vector<std::pair<std::string, std::string>> out;
    const auto title = [](const Json& doc, std::size_t i) {
        const Json& v = doc["serving"]["variants"][i];
        return v["label"].get<std::string>() + (i == 0 ? " (baseline)" : "") + ": " +
               v["runs"][0]["model"].get<std::string>();
    };
    if (!demo.contains("serving")) return out;
    for (std::size_t i = 0; i < demo["serving"]["variants"].size(); ++i)
        out.emplace_back(title(demo, i), title(hostile, i));
    return out;
}

// demoMd: the same report of the demo itself, whose headings are all the report's own but those that name a serving
// variant (`serving`: the demo's heading and the hostile one in its place).
void checkMarkdown(const std::string& md, const std::string& demoMd, const std::string& what,
                   const std::vector<std::pair<std::string, std::string>>& serving) {
    expectNoControls(md, what);
    const MarkdownRead r = readMarkdown(md), demo = readMarkdown(demoMd);
    // The report's headings and only those: no value made one (the first holds the title, as text).
    ASSERT_EQ(r.headings.size(), demo.headings.size()) << what;
    ASSERT_FALSE(r.headings.empty());
    EXPECT_EQ(r.headings[0].rfind("title <h1 style=color:green>", 0), 0u) << what << ": " << r.headings[0];
    for (std::size_t i = 1; i < r.headings.size(); ++i) {
        const auto named =
            std::find_if(serving.begin(), serving.end(), [&](const auto& s) { return s.first == demo.headings[i]; });
        if (named == serving.end()) {
            EXPECT_EQ(r.headings[i], demo.headings[i]) << what << ": heading " << i;
            continue;
        }
        // The hostile label and checkpoint whole in this one heading (their line breaks read as spaces, their C1
        // controls shown): from the label's text before its first line break or C1 control to the checkpoint's end.
        const std::string& hostile = named->second;
        std::size_t cut = 0;
        while (cut < hostile.size() && hostile[cut] != '\n' && static_cast<unsigned char>(hostile[cut]) != 0xC2) ++cut;
        EXPECT_EQ(r.headings[i].rfind(hostile.substr(0, cut), 0), 0u) << what << ": heading " << i;
        const std::string tail = hostile.substr(hostile.rfind("~~~"));
        EXPECT_EQ(r.headings[i].compare(r.headings[i].size() - tail.size(), tail.size(), tail), 0)
            << what << ": heading " << i << ": " << r.headings[i];
    }
    for (const std::string& h : r.html)
        EXPECT_TRUE(h.find("<h1") == std::string::npos && h.find("<img") == std::string::npos)
            << what << ": raw HTML from a value: " << h.substr(0, 200);
    // No value opened a fence that swallows the rest of the report (its verdict).
    for (const std::string& c : r.codeBlocks)
        EXPECT_EQ(c.find("INVESTIGATE"), std::string::npos) << what << ": the report inside code: " << c.substr(0, 300);
    EXPECT_NE(r.text.find("INVESTIGATE"), std::string::npos) << what;
    expectPayloadShownAsText(r.text, what);
}

// The lines that read "Verdict: GO" once indentation and Markdown-like marks are left out.
std::vector<std::string> verdictGoLines(const std::string& text) {
    std::vector<std::string> found;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string whole = text.substr(start, end - start);
        const std::size_t first = whole.find_first_not_of(" \t#>=~-*|");
        if (first != std::string::npos && whole.compare(first, 11, "Verdict: GO") == 0) found.push_back(whole);
        start = end + 1;
    }
    return found;
}

// plain: the same report of the demo the hostile comparison was made from.
void checkText(const std::string& text, const std::string& plain, const std::string& what) {
    expectNoControls(text, what);
    EXPECT_NE(text.find("INVESTIGATE"), std::string::npos) << what;
    expectPayloadShownAsText(text, what);
    // No value's line break makes a line of its own: the lines reading "Verdict: GO" are the demo's own (its production
    // timeline's verdict), every payload's stands inside the line of the field that holds it.
    EXPECT_EQ(verdictGoLines(text), verdictGoLines(plain)) << what;
}

// Every string of a JSON document, at any depth.
void strings(const nlohmann::json& j, std::vector<std::string>& out) {
    if (j.is_string()) out.push_back(j.get<std::string>());
    if (j.is_structured())
        for (const auto& e : j) strings(e, out);
}

void checkJson(const std::string& text, const Json& hostile, const std::string& what) {
    expectNoControls(text, what);
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(text)) << what;
    std::vector<std::string> all;
    strings(j, all);
    // The values are there as they were (JSON's own escapes): a run's label and a task name, whole.
    const std::string label = hostile["runs"]["baseline"]["label"];
    EXPECT_NE(std::find(all.begin(), all.end(), label), all.end()) << what << ": the baseline's label";
    const std::string task = test::hostileTaskNames()[0].second;
    EXPECT_NE(std::find(all.begin(), all.end(), task), all.end()) << what << ": the task name";
}

TEST(CliUntrustedReport, EveryOutputOfAHostileComparisonShowsItsStringsAsText) {
    test::TempDir dir;
    const auto file = writeHostile(dir);
    const Json hostile = Json::parse(readFile(file));
    const auto serving = servingHeadings(Json::parse(readFile(demoFile())), hostile);
    auto demoMd = test::fp8dashCli({"report", demoFile().string(), "--format", "markdown"});
    ASSERT_EQ(demoMd.exitCode, 0) << demoMd.err;

    auto demoText = test::fp8dashCli({"report", demoFile().string(), "--format", "text"});
    ASSERT_EQ(demoText.exitCode, 0) << demoText.err;

    auto text = test::fp8dashCli({"report", file.string(), "--format", "text"});
    ASSERT_EQ(text.exitCode, 0) << text.err.substr(0, 2000);
    checkText(text.out, demoText.out, "report --format text");
    expectNoControls(text.err, "stderr");
    auto md = test::fp8dashCli({"report", file.string(), "--format", "markdown"});
    ASSERT_EQ(md.exitCode, 0) << md.err.substr(0, 2000);
    checkMarkdown(md.out, demoMd.out, "report --format markdown", serving);
    // The 200k-character strings (a note, the decision's reason) do not stall an output (no timing here: the reports
    // complete) and are there whole, their escape sequence shown.
    EXPECT_NE(md.out.find(std::string(100000, 'x')), std::string::npos);
    EXPECT_NE(text.out.find(std::string(100000, 'x') + "\\u001B[2K"), std::string::npos);
    auto json = test::fp8dashCli({"report", file.string(), "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err.substr(0, 2000);
    checkJson(json.out, hostile, "report --format json");

    for (const std::string ext : {"txt", "md", "json", "html", "pdf"}) {
#if !FP8DASH_TEST_GUI
        if (ext == "pdf") continue;  // a CLI-only build refuses PDF (cli_report_test checks that)
#endif
        const auto out = dir.path() / ("report." + ext);
        auto r = test::fp8dashCli({"report", file.string(), "--out", out.string()});
        ASSERT_EQ(r.exitCode, 0) << ext << ": " << r.err.substr(0, 2000);
        expectNoControls(r.err, "stderr of --out ." + ext);
        const std::string written = readFile(out);
        if (ext == "txt") checkText(written, demoText.out, out.string());
        if (ext == "md") checkMarkdown(written, demoMd.out, out.string(), serving);
        if (ext == "json") checkJson(written, hostile, out.string());
        if (ext == "html") {
            // Every string from data escaped: the markup is text on the page, never an element; controls and bidi
            // overrides shown as escapes.
            EXPECT_EQ(written.find("<h1 style=color:green>"), std::string::npos);
            EXPECT_EQ(written.find("<img src=file:///etc/passwd>"), std::string::npos);
            EXPECT_NE(written.find("&lt;h1 style=color:green&gt;"), std::string::npos);
            expectNoControls(written, out.string());
        }
        if (ext == "pdf") {
            const std::string pdftotext = tool("pdftotext");
            if (pdftotext.empty()) {
                ADD_FAILURE() << "pdftotext not found (Debian: poppler-utils): the PDF is not checked";
                continue;
            }
            const auto pdf = test::runProcess({pdftotext, out.string(), "-"});
            ASSERT_EQ(pdf.exitCode, 0) << pdf.err;
            EXPECT_NE(pdf.out.find("INVESTIGATE"), std::string::npos);
            expectPayloadShownAsText(pdf.out, out.string());
            // The right-to-left override is shown as an escape, not obeyed (it would put "Verdict: GO" on the page).
            EXPECT_EQ(pdf.out.find("\xe2\x80\xae"), std::string::npos);
            EXPECT_NE(withoutBlanks(pdf.out).find("abc\\u202EOG:tcidreV"), std::string::npos);
        }
    }
}

}  // namespace
}  // namespace fp8dash
