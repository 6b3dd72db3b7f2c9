// The changed answers in the reports and the slides (issue 27, README "The answers FP8 changed"): per monitor or
// investigate task, the counts and the first lost answers of the document, in its order, with both sides' texts as the
// document has them (HTML, Markdown, plain text); the counts alone for a file made with --answer-examples 0; and the
// untrusted texts of a hand-made document (markup, Markdown table syntax, escape sequences, a bidi override, invalid
// UTF-8, a 20 KB answer) rendered safely in each medium: the HTML searched for raw tags, the Markdown read back with
// cmark and its pipe tables counted, the text searched for raw controls. The deck's answer slide: when it is there
// and what it shows. The documents are made here: the paired test file of tests/data with examples attached.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fp8dash/core/paired_tasks.h"
#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/core/report_document.h"
#include "hostile_strings.h"
#include "markdown_structure.h"
#include "report_test_document.h"

namespace fp8dash {
namespace {

using test::validUtf8;

struct Built {
    ComparisonDocument doc;
    Decision decision;
    std::string task;  // the monitor or investigate task the examples are attached to
};

// The first compared task whose verdict is monitor or investigate and whose logs were paired (with changed counts).
std::string flaggedPairedTask(const ComparisonDocument& doc, const Decision& d) {
    if (!d.evals) return "";
    for (const auto& t : d.evals->tasks)
        if (t.verdict != Verdict::Go && t.paired && t.paired->changed && t.paired->changed->n() > 0 &&
            doc.paired.count(t.task))
            return t.task;
    return "";
}

Built withExamples(std::vector<ChangedAnswerExample> examples, std::optional<std::uint64_t> limit = 200) {
    Built b;
    b.doc = test::reportTestDocument();
    auto first = decide(b.doc);
    EXPECT_TRUE(first.ok()) << (first.ok() ? "" : first.error().message);
    b.task = flaggedPairedTask(b.doc, first.value());
    EXPECT_FALSE(b.task.empty()) << "the test file has no paired monitor or investigate task";
    if (!b.task.empty()) {
        b.doc.paired[b.task].examples = std::move(examples);
        b.doc.paired[b.task].examplesLimit = limit;
    }
    auto d = decide(b.doc);
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
    b.decision = std::move(d).value();
    return b;
}

ChangedAnswerExample example(long long docId, bool lost, const std::string& tag) {
    ChangedAnswerExample e;
    e.docId = docId;
    e.lost = lost;
    e.question = "question " + tag;
    e.target = "target " + tag;
    e.baseline = {"baseline-answer " + tag, "baseline-response " + tag, lost ? 1.0 : 0.0};
    e.candidate = {"candidate-answer " + tag, "candidate-response " + tag, lost ? 0.0 : 1.0};
    return e;
}

// Every text of an example, as the document holds it.
std::vector<std::string> textsOf(const ChangedAnswerExample& e) {
    return {e.question, e.target, e.baseline.answer, e.baseline.response, e.candidate.answer, e.candidate.response};
}

std::size_t count(const std::string& hay, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
    return n;
}

// No raw C0 control but newline and tab, no DEL, no C1 CSI, no bidi override, embedding, isolate or mark.
void expectNoRawControls(const std::string& text, const std::string& what) {
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            ADD_FAILURE() << what << " holds control 0x" << std::hex << int(c);
            break;
        }
    for (const char* seq : {"\xc2\x9b", "\xe2\x80\xae", "\xe2\x80\xad", "\xe2\x81\xa6", "\xe2\x81\xa9", "\xe2\x80\x8f"})
        EXPECT_EQ(text.find(seq), std::string::npos) << what << " holds a raw bidi or C1 sequence";
    EXPECT_TRUE(validUtf8(text)) << what << " is not valid UTF-8";
}

const char* kContextSource = "changed-answers.fp8cmp";

ReportContext context() {
    ReportContext ctx;
    ctx.source = kContextSource;
    ctx.generatedAt = "2026-12-05T12:00:00Z";
    ctx.toolVersion = "0.0.0-test";
    return ctx;
}

std::string markdownOf(const Built& b) {
    auto md = renderReport(b.doc, b.decision, context(), ReportFileFormat::Markdown);
    EXPECT_TRUE(md.ok());
    return md.ok() ? md.value() : "";
}

std::string htmlOf(const Built& b) {
    return reportToHtml(b.doc, b.decision, context());
}

// Runs of blanks and line breaks as one space.
std::string squeezed(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool blank = c == ' ' || c == '\n' || c == '\t';
        if (blank && !out.empty() && out.back() == ' ') continue;
        out += blank ? ' ' : c;
    }
    return out;
}

// The position of each needle in order, each after the previous; npos where one is missing or out of order.
bool inOrder(const std::string& hay, const std::vector<std::string>& needles) {
    std::size_t at = 0;
    for (const auto& n : needles) {
        at = hay.find(n, at);
        if (at == std::string::npos) return false;
        at += n.size();
    }
    return true;
}

TEST(ReportChangedAnswers, TheFirstLostAnswersOfTheDocumentInItsOrderWithBothSidesTexts) {
    // Lost and gained interleaved, the doc_ids not ascending: the report keeps the document's order, not the ids'.
    const std::vector<ChangedAnswerExample> examples = {example(201, false, "g201"), example(102, true, "l102"),
                                                        example(101, true, "l101"),  example(203, false, "g203"),
                                                        example(104, true, "l104"),  example(105, true, "l105")};
    const Built b = withExamples(examples);
    ASSERT_FALSE(b.task.empty());
    // The expectation, from the examples made above: the lost ones, in order, the first kReportAnswerExamples.
    std::vector<ChangedAnswerExample> lost;
    for (const auto& e : examples)
        if (e.lost) lost.push_back(e);
    ASSERT_GT(lost.size(), kReportAnswerExamples);
    const std::vector<ChangedAnswerExample> shown(lost.begin(), lost.begin() + kReportAnswerExamples);

    // Markdown read back (its escapes resolved: "doc\\_id" is "doc_id"), every output's blanks squeezed (the text
    // wraps its lines).
    const std::string html = squeezed(htmlOf(b)), md = squeezed(test::parse(markdownOf(b)).text);
    const std::string text = squeezed(reportToPlainText(b.doc, b.decision));
    for (const auto& [output, what] :
         {std::pair{&html, "HTML"}, std::pair{&md, "Markdown"}, std::pair{&text, "text"}}) {
        EXPECT_EQ(count(*output, "Changed answers"), 1u) << what;
        const auto section = output->find("Changed answers");
        ASSERT_NE(section, std::string::npos) << what;
        const std::string part = output->substr(section);
        // The counts line of the task, from the paired result's counts.
        const ChangedAnswers& c = *b.doc.paired.at(b.task).changed;
        EXPECT_NE(part.find(changedAnswersSentence(c, b.decision.evals->candidateLabel)), std::string::npos) << what;
        // Each shown example whole: its doc_id, then its six texts in the report's order (question, target, baseline
        // answer, baseline response, candidate answer, candidate response: Markdown and HTML give the answers'
        // row first, then the responses' row, so the order is checked per row).
        std::vector<std::string> ids;
        for (const auto& e : shown) ids.push_back("doc_id " + std::to_string(e.docId));
        EXPECT_TRUE(inOrder(part, ids)) << what << ": the lost examples out of order\n" << part.substr(0, 3000);
        for (const auto& e : shown) {
            for (const auto& t : textsOf(e)) EXPECT_EQ(count(part, t), 1u) << what << ": " << t;
            EXPECT_TRUE(inOrder(part, {"doc_id " + std::to_string(e.docId), e.question, e.target})) << what;
        }
        // Neither the gained examples nor the lost one after the first three.
        for (const auto& e : examples) {
            const bool isShown = std::any_of(shown.begin(), shown.end(),
                                             [&](const ChangedAnswerExample& s) { return s.docId == e.docId; });
            if (isShown) continue;
            for (const auto& t : textsOf(e)) EXPECT_EQ(part.find(t), std::string::npos) << what << ": " << t;
        }
        // Both runs' labels head the sides, and the values are the examples'.
        EXPECT_NE(part.find(b.decision.evals->baselineLabel), std::string::npos) << what;
        EXPECT_NE(part.find(b.doc.paired.at(b.task).metric + " 1"), std::string::npos) << what;
        EXPECT_NE(part.find(b.doc.paired.at(b.task).metric + " 0"), std::string::npos) << what;
    }
    // The plain text says which side each answer is: the label before it.
    for (const auto& e : shown) {
        EXPECT_NE(text.find(b.decision.evals->baselineLabel + " response: " + e.baseline.response), std::string::npos);
        EXPECT_NE(text.find(b.decision.evals->candidateLabel + " response: " + e.candidate.response),
                  std::string::npos);
    }

    // The number shown is the context's: one.
    ReportContext one = context();
    one.answerExamples = 1;
    const std::string html1 = reportToHtml(b.doc, b.decision, one);
    EXPECT_NE(html1.find(shown[0].question), std::string::npos);
    EXPECT_EQ(html1.find(shown[1].question), std::string::npos);
    EXPECT_EQ(reportToPlainText(b.doc, b.decision, 1).find(shown[1].question), std::string::npos);
}

TEST(ReportChangedAnswers, AGroupsAnswerNamesItsSubtask) {
    ChangedAnswerExample e = example(31, true, "sub");
    e.subtask = "mmlu_high_school_physics";
    const Built b = withExamples({e});
    ASSERT_FALSE(b.task.empty());
    const std::string title = "doc_id 31, subtask mmlu_high_school_physics";
    EXPECT_NE(htmlOf(b).find(title), std::string::npos);
    EXPECT_NE(test::parse(markdownOf(b)).text.find(title), std::string::npos);
    EXPECT_NE(reportToPlainText(b.doc, b.decision).find(title), std::string::npos);
    PresentationOptions on;
    on.answerSlide = true;
    const PresentationDeck deck = buildPresentationDeck(b.doc, b.decision, nullptr, on);
    ASSERT_TRUE(deck.indexOf(PresentationStep::ChangedAnswer));
    const PresentationSlide& slide = deck.slides[*deck.indexOf(PresentationStep::ChangedAnswer)];
    EXPECT_EQ(slide.answer->subtask, e.subtask);
    EXPECT_NE(slide.subtitle.find(e.subtask), std::string::npos);
}

TEST(ReportChangedAnswers, CountsOnlySaysSoAndAGoTaskOrAnUnpairedOneShowsNothing) {
    const Built counts = withExamples({}, 0);
    ASSERT_FALSE(counts.task.empty());
    const std::string line = "only the counts were kept (0 answer examples per task)";
    const auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    EXPECT_NE(lower(htmlOf(counts)).find(line), std::string::npos);
    EXPECT_NE(lower(reportToPlainText(counts.doc, counts.decision)).find(line), std::string::npos);
    // Markdown escapes the dashes? No: "--" mid-line is text; the parenthesis stays.
    EXPECT_NE(lower(test::parse(markdownOf(counts)).text).find(line), std::string::npos);

    // Without examples and without a limit (a file written before the examples were saved): no section.
    const Built older = withExamples({}, std::nullopt);
    EXPECT_EQ(htmlOf(older).find("Changed answers"), std::string::npos);
    EXPECT_EQ(reportToPlainText(older.doc, older.decision).find("Changed answers"), std::string::npos);

    // A go task's examples are not shown: the same task with its examples, its verdict made go.
    const Built b = withExamples({example(7, true, "shown-unless-go")});
    ASSERT_NE(htmlOf(b).find("question shown-unless-go"), std::string::npos);
    Decision go = b.decision;
    for (auto& t : go.evals->tasks)
        if (t.task == b.task) t.verdict = Verdict::Go;
    EXPECT_EQ(reportToHtml(b.doc, go, context()).find("question shown-unless-go"), std::string::npos);
    EXPECT_EQ(reportToPlainText(b.doc, go).find("question shown-unless-go"), std::string::npos);
    EXPECT_EQ(reportToHtml(b.doc, go, context()).find("Changed answers"), std::string::npos);
}

// The texts of the hostile example, each holding one attack.
struct Hostile {
    std::string question = "<script>alert(1)</script> <b>bold</b> & more";
    std::string target = "| a | b |\n|---|---|\n| c | d |";
    std::string baselineAnswer = "\x1b[31mred\x1b[0m answer\r overwritten";
    std::string baselineResponse =
        "abc\xe2\x80\xae"
        "OG :tcidreV";                                        // a right-to-left override (U+202E)
    std::string candidateAnswer = "bad \xff\xfe utf-8 \xc3";  // invalid and cut-short UTF-8
    std::string candidateResponse;                            // 20 KB
    Hostile() {
        for (int i = 0; candidateResponse.size() < 20480; ++i) candidateResponse += "w" + std::to_string(i) + " ";
    }
};

Built hostileDocument(const Hostile& h) {
    ChangedAnswerExample e;
    e.docId = 77;
    e.lost = true;
    e.question = h.question;
    e.target = h.target;
    e.baseline = {h.baselineAnswer, h.baselineResponse, 1};
    e.candidate = {h.candidateAnswer, h.candidateResponse, 0};
    // The rest of the hostile corpus as one more lost answer's texts.
    ChangedAnswerExample more;
    more.docId = 78;
    more.lost = true;
    const auto corpus = test::hostileStrings();
    more.question = corpus[0];
    more.target = test::markdownTakeover();
    more.baseline = {test::htmlVerdict(), test::markdownHeading(), 1};
    more.candidate = {corpus[3], test::longString(), 0};
    return withExamples({e, more});
}

TEST(ReportChangedAnswers, HostileTextsAreEscapedInTheHtml) {
    const Hostile h;
    const Built b = hostileDocument(h);
    ASSERT_FALSE(b.task.empty());
    for (const auto flavour : {ReportHtmlFlavour::Browser, ReportHtmlFlavour::RichText}) {
        const std::string html = reportToHtml(b.doc, b.decision, context(), flavour);
        const std::string what = flavour == ReportHtmlFlavour::Browser ? "HTML" : "rich text";
        EXPECT_EQ(html.find("<script"), std::string::npos) << what;
        EXPECT_EQ(html.find("<b>bold"), std::string::npos) << what;
        EXPECT_EQ(html.find("<h1 style=color:green>"), std::string::npos) << what;
        EXPECT_EQ(html.find("<img src=file:"), std::string::npos) << what;
        EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; &amp; more"),
                  std::string::npos)
            << what;
        expectNoRawControls(html, what);
        // The escape sequence and the override shown as escapes, the bad bytes as \xFF.
        EXPECT_NE(html.find("\\u001B[31mred"), std::string::npos) << what;
        EXPECT_NE(html.find("abc\\u202EOG :tcidreV"), std::string::npos) << what;
        EXPECT_NE(html.find("bad \\xFF\\xFE utf-8"), std::string::npos) << what;
        // The 20 KB response: its first kReportAnswerExcerptChars characters (ASCII here), a visible "…" and the note;
        // not a character more.
        const std::string head = h.candidateResponse.substr(0, kReportAnswerExcerptChars);
        EXPECT_NE(html.find(head + "…"), std::string::npos) << what;
        EXPECT_EQ(html.find(h.candidateResponse.substr(0, kReportAnswerExcerptChars + 1)), std::string::npos) << what;
        EXPECT_NE(html.find("the comparison file holds the rest"), std::string::npos) << what;
        // The tags the report itself writes balance: no value opened or closed one.
        EXPECT_EQ(count(html, "<table"), count(html, "</table>")) << what;
        EXPECT_EQ(count(html, "<tr>") + count(html, "<tr "), count(html, "</tr>")) << what;  // rows with an id
        EXPECT_LT(html.size(), 400000u) << what << ": the long texts are cut";
    }
}

// The pipe tables of a Markdown text: each run of lines starting with '|', and its cells per line (unescaped '|'
// outside code spans counted; the writer escapes a data '|' everywhere in a cell).
std::vector<std::vector<std::size_t>> pipeTables(const std::string& md) {
    std::vector<std::vector<std::size_t>> tables;
    bool inTable = false;
    std::size_t start = 0;
    while (start < md.size()) {
        std::size_t end = md.find('\n', start);
        if (end == std::string::npos) end = md.size();
        const std::string line = md.substr(start, end - start);
        if (!line.empty() && line[0] == '|') {
            std::size_t pipes = 0;
            for (std::size_t i = 0; i < line.size(); ++i)
                if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
            if (!inTable) tables.emplace_back();
            tables.back().push_back(pipes);
            inTable = true;
        } else {
            inTable = false;
        }
        start = end + 1;
    }
    return tables;
}

TEST(ReportChangedAnswers, HostileTextsMakeNoMarkdownStructure) {
    const Hostile h;
    const Built b = hostileDocument(h);
    ASSERT_FALSE(b.task.empty());
    const std::string md = markdownOf(b);
    expectNoRawControls(md, "Markdown");
    // Every pipe table keeps its header's columns on every line: no cell split by a value's '|', no line of a value's
    // table ("|---|---|") starting a table of its own.
    for (const auto& t : pipeTables(md)) {
        ASSERT_GE(t.size(), 2u) << "a pipe table of one line (a value's?)";
        for (std::size_t cells : t) EXPECT_EQ(cells, t.front()) << "a table row with other columns than its header";
    }
    std::size_t lineStart = 0;
    while (lineStart < md.size()) {
        const std::size_t end = std::min(md.find('\n', lineStart), md.size());
        const std::string line = md.substr(lineStart, end - lineStart);
        // The value's table lines never start a line (the report's own delimiter rows do, under their headers).
        EXPECT_NE(line.rfind("| a | b |", 0), 0u) << line;
        EXPECT_NE(line.rfind("| c | d |", 0), 0u) << line;
        lineStart = end + 1;
    }
    // Read back with cmark: no raw HTML, and the markup a reader sees is the text itself.
    const test::Parsed p = test::parse(md);
    for (const auto& kind : p.inlineKinds) EXPECT_NE(kind, "html_inline");
    for (const auto& block : p.blocks) {
        EXPECT_EQ(block.find("html_block"), std::string::npos) << block;
        EXPECT_EQ(block.find("code_block"), std::string::npos) << block << ": a value opened a fence";
    }
    EXPECT_NE(p.text.find("<script>alert(1)</script> <b>bold</b> & more"), std::string::npos);
    EXPECT_NE(p.text.find("\\u001B[31mred"), std::string::npos);
    EXPECT_NE(p.text.find(h.candidateResponse.substr(0, kReportAnswerExcerptChars) + "…"), std::string::npos);
    // The report's own headings and no other: the value's "# Verdict: GO" stays text.
    const Built plain = withExamples({example(5, true, "plain")});
    const test::Parsed q = test::parse(markdownOf(plain));
    EXPECT_EQ(count(md, "\n#"), count(markdownOf(plain), "\n#"));
    EXPECT_EQ(std::count(p.blocks.begin(), p.blocks.end(), "heading"),
              std::count(q.blocks.begin(), q.blocks.end(), "heading"));
}

TEST(ReportChangedAnswers, HostileTextsReachThePlainTextAsVisibleEscapes) {
    const Hostile h;
    const Built b = hostileDocument(h);
    ASSERT_FALSE(b.task.empty());
    const Built plain = withExamples({example(5, true, "plain")});
    // reportToPlainText itself (what `report --format text` prints) and the file format.
    auto file = renderReport(b.doc, b.decision, context(), ReportFileFormat::Text);
    ASSERT_TRUE(file.ok());
    for (const auto& [text, what] :
         {std::pair{reportToPlainText(b.doc, b.decision), "reportToPlainText"}, std::pair{file.value(), "text file"}}) {
        expectNoRawControls(text, what);
        // The escape sequence shown; the CR, a line break to a terminal, is a space in the one-line excerpt.
        EXPECT_NE(text.find("\\u001B[31mred\\u001B[0m answer  overwritten"), std::string::npos) << what;
        EXPECT_NE(text.find("abc\\u202EOG :tcidreV"), std::string::npos) << what;
        EXPECT_NE(text.find("<script>alert(1)</script>"), std::string::npos) << what;
        // A value's line breaks are no lines of their own: the target's table stays inside its line.
        EXPECT_EQ(text.find("\n|---|---|"), std::string::npos) << what;
        EXPECT_EQ(count(text, "\nVerdict: GO"), count(reportToPlainText(plain.doc, plain.decision), "\nVerdict: GO"))
            << what;
        EXPECT_LT(text.size(), 200000u) << what << ": the long texts are cut";
    }
}

// ---- the deck's answer slide

TEST(ReportChangedAnswers, TheAnswerSlideShowsTheFirstLostAnswerOfTheWorstTaskWhenTheVerdictIsNotGo) {
    const std::vector<ChangedAnswerExample> examples = {example(201, false, "g201"), example(102, true, "l102"),
                                                        example(101, true, "l101")};
    Built b = withExamples(examples);
    ASSERT_FALSE(b.task.empty());
    ASSERT_TRUE(b.decision.verdict);
    // The worst task keeping a lost answer: here the only one with examples.
    const ChangedAnswerExample& first = examples[1];

    const auto answerSlides = [](const PresentationDeck& deck) {
        return std::count_if(deck.slides.begin(), deck.slides.end(),
                             [](const PresentationSlide& s) { return s.step == PresentationStep::ChangedAnswer; });
    };
    // Forced on: after the evals slide, the first lost example's texts, the sides' labels and values.
    PresentationOptions on;
    on.answerSlide = true;
    const PresentationDeck deck = buildPresentationDeck(b.doc, b.decision, nullptr, on);
    const auto at = deck.indexOf(PresentationStep::ChangedAnswer);
    ASSERT_TRUE(at);
    ASSERT_TRUE(deck.indexOf(PresentationStep::Evals));
    EXPECT_EQ(*at, *deck.indexOf(PresentationStep::Evals) + 1);
    const PresentationSlide& s = deck.slides[*at];
    EXPECT_EQ(s.title, "One answer " + b.decision.evals->candidateLabel + " changed");
    EXPECT_FALSE(s.verdict);
    ASSERT_TRUE(s.answer);
    EXPECT_EQ(s.answer->task, b.task);
    EXPECT_EQ(s.answer->docId, first.docId);
    EXPECT_EQ(s.answer->question, first.question);
    EXPECT_EQ(s.answer->target, first.target);
    EXPECT_EQ(s.answer->baseline.answer, first.baseline.answer);
    EXPECT_EQ(s.answer->baseline.response, first.baseline.response);
    EXPECT_EQ(s.answer->candidate.answer, first.candidate.answer);
    EXPECT_EQ(s.answer->baseline.label, b.decision.evals->baselineLabel);
    EXPECT_TRUE(s.answer->baseline.better);
    EXPECT_FALSE(s.answer->candidate.better);
    EXPECT_NE(s.talkingPoints.find(first.candidate.answer), std::string::npos);
    // The verdict slide is not changed by it: no reason of its own.
    const auto& verdict = deck.slides.back();
    for (const auto& f : verdict.figures) EXPECT_NE(f.label, "Changed answer");

    // Forced off; and the default follows the overall verdict: on unless it is go.
    PresentationOptions off;
    off.answerSlide = false;
    EXPECT_EQ(answerSlides(buildPresentationDeck(b.doc, b.decision, nullptr, off)), 0);
    Decision notGo = b.decision;
    notGo.verdict = Verdict::Investigate;
    EXPECT_EQ(answerSlides(buildPresentationDeck(b.doc, notGo)), 1);
    notGo.verdict = Verdict::Monitor;
    EXPECT_EQ(answerSlides(buildPresentationDeck(b.doc, notGo)), 1);
    Decision go = b.decision;
    go.verdict = Verdict::Go;
    EXPECT_EQ(answerSlides(buildPresentationDeck(b.doc, go)), 0);
    EXPECT_EQ(answerSlides(buildPresentationDeck(b.doc, go, nullptr, on)), 1);
    // No lost example kept: no slide, even when asked for.
    const Built gainedOnly = withExamples({example(9, false, "g9")});
    EXPECT_EQ(answerSlides(buildPresentationDeck(gainedOnly.doc, gainedOnly.decision, nullptr, on)), 0);
}

TEST(ReportChangedAnswers, TheAnswerSlideTakesTheWorstTaskKeepingALostAnswer) {
    // A lost answer on every paired task: the slide shows the worst task's (the highest verdict, then the largest
    // degradation), whatever the order of the file.
    Built b = withExamples({});
    ASSERT_FALSE(b.task.empty());
    for (auto& [name, paired] : b.doc.paired) {
        paired.examples = {example(1, false, "gained-" + name), example(2, true, "lost-" + name)};
        paired.examplesLimit = 200;
    }
    auto d = decide(b.doc);
    ASSERT_TRUE(d.ok());
    const TaskComparison* worst = nullptr;
    for (const auto& t : d->evals->tasks) {
        if (!t.paired || !b.doc.paired.count(t.task)) continue;
        const auto key = [](const TaskComparison& x) {
            return std::pair{static_cast<int>(x.verdict), x.degradationPct.value_or(0)};
        };
        if (!worst || key(t) > key(*worst)) worst = &t;
    }
    ASSERT_TRUE(worst);
    PresentationOptions on;
    on.answerSlide = true;
    const PresentationDeck deck = buildPresentationDeck(b.doc, *d, nullptr, on);
    const auto at = deck.indexOf(PresentationStep::ChangedAnswer);
    ASSERT_TRUE(at);
    EXPECT_EQ(deck.slides[*at].answer->task, worst->task);
    EXPECT_EQ(deck.slides[*at].answer->question, "question lost-" + worst->task);
}

TEST(ReportChangedAnswers, TheAnswerSlideCutsLongTextsToShortExcerpts) {
    const Hostile h;
    const Built b = hostileDocument(h);
    ASSERT_FALSE(b.task.empty());
    PresentationOptions on;
    on.answerSlide = true;
    const PresentationDeck deck = buildPresentationDeck(b.doc, b.decision, nullptr, on);
    const auto at = deck.indexOf(PresentationStep::ChangedAnswer);
    ASSERT_TRUE(at);
    const SlideAnswer& a = *deck.slides[*at].answer;
    EXPECT_EQ(a.docId, 77);
    EXPECT_EQ(a.candidate.response, h.candidateResponse.substr(0, kSlideAnswerExcerptChars) + "…");
    // One line: the target's line breaks are spaces.
    EXPECT_EQ(a.target.find('\n'), std::string::npos);
    EXPECT_EQ(a.target, "| a | b | |---|---| | c | d |");
}

}  // namespace
}  // namespace fp8dash
