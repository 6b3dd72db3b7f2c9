// `fp8dash report FILE --out PATH` and `fp8dash demo --out PATH` run headless (no DISPLAY, no QT_QPA_PLATFORM), as
// in CI: every extension, --format beside --out, --fail-on, and bad paths that must give a clear message naming the
// file. The PDF is read back with poppler's pdfinfo/pdftotext where installed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_runner.h"
#include "fp8dash/core/comparison_file.h"
#include "process.h"
#include "report_test_document.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::fp8dashCli;
using test::parseJson;
using test::TempDir;

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The report test's comparison, saved where the CLI can read it.
std::filesystem::path savedComparison(const TempDir& dir) {
    const auto path = dir.path() / "review.fp8cmp";
    const Status saved = saveComparisonFile(test::reportTestDocument(), path);
    EXPECT_TRUE(saved.ok()) << (saved.ok() ? "" : saved.error().message);
    return path;
}

std::string tool(const std::string& name) {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/bin/"})
        if (std::filesystem::exists(std::string(dir) + name)) return std::string(dir) + name;
    return "";
}

TEST(CliReportOut, EachExtensionGivesItsFormat) {
    TempDir dir;
    const auto file = savedComparison(dir);
    const auto html = dir.path() / "report.html", md = dir.path() / "report.md", txt = dir.path() / "report.txt",
               json = dir.path() / "report.json";
    for (const auto& out : {html, md, txt, json}) {
        auto r = fp8dashCli({"report", file.string(), "--out", out.string()});
        ASSERT_EQ(r.exitCode, 0) << out << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << "--out alone prints nothing: " << r.out;
        EXPECT_NE(r.err.find("wrote the report to " + out.string()), std::string::npos) << r.err;
        ASSERT_TRUE(std::filesystem::exists(out)) << out;
    }
    const std::string h = readFile(html);
    EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(h.find("<td class=\"title\">INVESTIGATE</td>"), std::string::npos);
    EXPECT_NE(h.find("Lee Chen"), std::string::npos);
    EXPECT_NE(h.find("File</td><td>" + file.string()), std::string::npos);
#if FP8DASH_TEST_GUI
    // Drawn headless on the offscreen platform: the evals' forest plot, the judge, timeline and KV charts, as PNG.
    std::size_t images = 0;
    for (auto p = h.find("data:image/png;base64,iVBORw0KGgo"); p != std::string::npos;
         p = h.find("data:image/png;base64,iVBORw0KGgo", p + 1))
        ++images;
    EXPECT_EQ(images, 4u);
    EXPECT_NE(h.find("<figure id=\"chart-evals-forest\">"), std::string::npos);
#else
    EXPECT_EQ(h.find("<img"), std::string::npos);
#endif
    const std::string m = readFile(md);
    EXPECT_EQ(m.rfind("# BF16 vs FP8: RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic\n", 0), 0u) << m.substr(0, 200);
    EXPECT_NE(m.find("## Notes"), std::string::npos);
    EXPECT_NE(readFile(txt).find("Overall verdict: INVESTIGATE"), std::string::npos);
    const auto j = nlohmann::json::parse(readFile(json));
    EXPECT_EQ(j["verdict"], "investigate");
    EXPECT_EQ(j["evals_verdict"], "investigate");
}

TEST(CliReportOut, PdfHeadless) {
    TempDir dir;
    const auto file = savedComparison(dir);
    const auto pdf = dir.path() / "report.pdf";
    auto r = fp8dashCli({"report", file.string(), "--out", pdf.string()});
#if !FP8DASH_TEST_GUI
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("FP8DASH_BUILD_GUI=OFF"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(pdf));
    return;  // a CLI-only build refuses PDF, as checked
#endif
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(readFile(pdf).rfind("%PDF-", 0), 0u);
    EXPECT_EQ(r.err.find("Qt:"), std::string::npos) << "no Qt chatter on the command line: " << r.err;
    const std::string pdfinfo = tool("pdfinfo"), pdftotext = tool("pdftotext");
    if (pdfinfo.empty() || pdftotext.empty()) GTEST_SKIP() << "pdfinfo/pdftotext not found (Debian: poppler-utils)";
    const auto info = test::runProcess({pdfinfo, pdf.string()});
    ASSERT_EQ(info.exitCode, 0) << info.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(info.out, m, std::regex("Pages:\\s+(\\d+)"))) << info.out;
    const int pages = std::stoi(m[1]);
    EXPECT_GE(pages, 3);
    const auto text = test::runProcess({pdftotext, "-layout", pdf.string(), "-"});
    ASSERT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("INVESTIGATE"), std::string::npos);
    EXPECT_NE(text.out.find("gsm8k"), std::string::npos);
    EXPECT_NE(text.out.find("Hand-edited note that already carries an id."), std::string::npos);
    EXPECT_NE(text.out.find("Page 1 of " + std::to_string(pages)), std::string::npos);
}

TEST(CliReportOut, FormatBesideOutPrintsTooAndFailOnStillCounts) {
    TempDir dir;
    const auto file = savedComparison(dir);
    const auto md = dir.path() / "r.md";
    auto r =
        fp8dashCli({"report", file.string(), "--out", md.string(), "--format", "json", "--fail-on", "investigate"});
    EXPECT_EQ(r.exitCode, 3) << r.err;  // the verdict reached --fail-on, and the report was written all the same
    EXPECT_TRUE(std::filesystem::exists(md));
    EXPECT_EQ(parseJson(r)["verdict"], "investigate");
}

TEST(CliReportOut, DemoToAFile) {
    TempDir dir;
    const auto md = dir.path() / "demo.md";
    auto r = fp8dashCli({"demo", "--out=" + md.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string m = readFile(md);
    EXPECT_NE(m.find("| `gsm8k` |"), std::string::npos);
    EXPECT_NE(m.find("-2.593%"), std::string::npos);  // (73.99 - 75.96) / 75.96
}

TEST(CliReportOut, MarkdownOnStdoutIsTheWholeReport) {
    TempDir dir;
    const auto file = savedComparison(dir);
    auto r = fp8dashCli({"report", file.string(), "--format", "markdown"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* heading : {"## Verdict", "## Review decision", "## Offline evals", "## Domain judge",
                                "## Production timeline", "## Local benchmarks", "## KV-cache capacity", "## Notes"})
        EXPECT_NE(r.out.find(heading), std::string::npos) << heading;
}

TEST(CliReportOut, BadPathsNameTheFile) {
    TempDir dir;
    const auto file = savedComparison(dir);
    // No such folder: exit 2, the message names the file; nothing is left behind.
    for (const char* name : {"report.html", "report.pdf", "report.md", "report.json"}) {
        const auto out = dir.path() / "no-such-folder" / name;
        auto r = fp8dashCli({"report", file.string(), "--out", out.string()});
        EXPECT_EQ(r.exitCode, 2) << name;
        EXPECT_NE(r.err.find(out.string()), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(out.parent_path()));
    }
    // An extension that names no format: a usage error before anything is read.
    auto bad = fp8dashCli({"report", file.string(), "--out", (dir.path() / "report.docx").string()});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("report.docx"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find(".html, .pdf, .md, .txt or .json"), std::string::npos) << bad.err;
    // A folder where the file should go.
    std::filesystem::create_directories(dir.path() / "taken.md");
    auto folder = fp8dashCli({"report", file.string(), "--out", (dir.path() / "taken.md").string()});
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_NE(folder.err.find("taken.md"), std::string::npos) << folder.err;
    // --out without a value, and a comparison file that does not exist.
    EXPECT_EQ(fp8dashCli({"report", file.string(), "--out"}).exitCode, 2);
    auto missing =
        fp8dashCli({"report", (dir.path() / "nope.fp8cmp").string(), "--out", (dir.path() / "r.md").string()});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nope.fp8cmp"), std::string::npos) << missing.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "r.md"));
}

}  // namespace
}  // namespace fp8dash
