// The changed answers through the real binary (issue 27): a comparison file whose monitor or investigate task keeps
// lost answers with hostile texts (markup, a Markdown table, an escape sequence and a CR, a bidi override, invalid
// UTF-8, a 20 KB response), saved here, then `fp8dash report --out` in every format. The PDF is read back with
// poppler's pdftotext: the answers are text on the page (the markup literally, the override shown as an escape), and
// the document is whole (the verdict and the sections after the answers are there).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.h"
#include "cli_text_checks.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_document.h"
#include "process.h"
#include "report_test_document.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::expectNoControls;
using test::readFile;
using test::tool;
using test::withoutBlanks;

struct Saved {
    std::filesystem::path file;
    std::string task;
    std::string longResponse;
};

// The report test document with two hostile lost answers on its first paired monitor or investigate task, saved.
Saved saveHostile(const test::TempDir& dir) {
    Saved s;
    ComparisonDocument doc = test::reportTestDocument();
    auto d = decide(doc);
    EXPECT_TRUE(d.ok());
    for (const auto& t : d->evals->tasks)
        if (s.task.empty() && t.verdict != Verdict::Go && t.paired && t.paired->changed && doc.paired.count(t.task))
            s.task = t.task;
    EXPECT_FALSE(s.task.empty());
    for (int i = 0; s.longResponse.size() < 20480; ++i) s.longResponse += "w" + std::to_string(i) + " ";
    ChangedAnswerExample e;
    e.docId = 77;
    e.question = "<script>alert(1)</script> <b>bold</b> QMARKER";
    e.target = "| a | b |\n|---|---|\n| c | d |";
    e.baseline = {"\x1b[31mred\x1b[0m answer\r overwritten",
                  "abc\xe2\x80\xae"
                  "OG :tcidreV",
                  1};
    e.candidate = {"bad \xff\xfe utf-8 \xc3", s.longResponse, 0};
    ChangedAnswerExample second;
    second.docId = 78;
    second.question = "second QMARKER2";
    second.target = "42";
    second.baseline = {"42", "The answer is 42.", 1};
    second.candidate = {"41", "The answer is 41.", 0};
    doc.paired[s.task].examples = {e, second};
    doc.paired[s.task].examplesLimit = 200;
    s.file = dir.path() / "answers.fp8cmp";
    const Status saved = saveComparisonFile(doc, s.file);
    EXPECT_TRUE(saved.ok()) << (saved.ok() ? "" : saved.error().message);
    return s;
}

TEST(CliChangedAnswersReport, HostileAnswersRenderAsTextInEveryFormat) {
    test::TempDir dir;
    const Saved s = saveHostile(dir);
    ASSERT_FALSE(s.task.empty());
    const std::string head = s.longResponse.substr(0, kReportAnswerExcerptChars);
    for (const std::string ext : {"txt", "md", "html", "pdf"}) {
#if !FP8DASH_TEST_GUI
        if (ext == "pdf") continue;  // a CLI-only build refuses PDF
#endif
        const auto out = dir.path() / ("report." + ext);
        auto r = test::fp8dashCli({"report", s.file.string(), "--out", out.string()});
        ASSERT_EQ(r.exitCode == 0 || r.exitCode == 1 || r.exitCode == 2, true) << ext << ": " << r.err.substr(0, 2000);
        ASSERT_TRUE(std::filesystem::exists(out)) << ext << ": " << r.err.substr(0, 2000);
        const std::string written = readFile(out);
        if (ext == "html") {
            EXPECT_EQ(written.find("<script"), std::string::npos);
            EXPECT_EQ(written.find("<b>bold"), std::string::npos);
            EXPECT_NE(written.find("&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; QMARKER"),
                      std::string::npos);
            EXPECT_NE(written.find(head + "…"), std::string::npos);
            expectNoControls(written, "HTML");
        }
        if (ext == "md" || ext == "txt") {
            expectNoControls(written, ext);
            EXPECT_NE(written.find("QMARKER2"), std::string::npos) << ext;
            // The escape sequence shown ("[" is escaped in Markdown: "\\u001B\\[31m").
            EXPECT_NE(written.find(ext == "md" ? "\\u001B\\[31mred" : "\\u001B[31mred"), std::string::npos) << ext;
        }
        if (ext == "pdf") {
            const std::string pdftotext = tool("pdftotext");
            if (pdftotext.empty()) {
                ADD_FAILURE() << "pdftotext not found (Debian: poppler-utils): the PDF is not checked";
                continue;
            }
            const auto pdf = test::runProcess({pdftotext, "-enc", "UTF-8", out.string(), "-"});
            ASSERT_EQ(pdf.exitCode, 0) << pdf.err;
            const std::string text = withoutBlanks(pdf.out);
            // The answers are text on the page, in the section, with both sides and the escapes shown.
            EXPECT_NE(text.find("Changedanswers"), std::string::npos);
            EXPECT_NE(text.find("<script>alert(1)</script><b>bold</b>QMARKER"), std::string::npos)
                << pdf.out.substr(0, 3000);
            EXPECT_NE(text.find("\\u001B[31mred"), std::string::npos);
            EXPECT_NE(text.find("abc\\u202EOG:tcidreV"), std::string::npos);
            EXPECT_EQ(pdf.out.find("\xe2\x80\xae"), std::string::npos);
            // The invalid bytes, replaced when the file was written (U+FFFD), around the text that was there.
            EXPECT_EQ(pdf.out.find('\xff'), std::string::npos);
            EXPECT_NE(text.find("bad\xef\xbf\xbd"), std::string::npos);
            EXPECT_NE(text.find(withoutBlanks(head) + "…"), std::string::npos);
            EXPECT_NE(text.find("QMARKER2"), std::string::npos);
            EXPECT_NE(text.find("Theansweris41."), std::string::npos);
            // The document goes on after the answers: the notes at its end are there.
            EXPECT_NE(text.find("Notes"), std::string::npos);
            EXPECT_GT(text.rfind("Notes"), text.find("QMARKER2"));
        }
    }
}

}  // namespace
}  // namespace fp8dash
