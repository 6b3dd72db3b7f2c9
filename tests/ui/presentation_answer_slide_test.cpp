// The deck's answer slide in the slide view (issue 27): "One answer FP8 changed" shows the question, the target and
// both sides' answers and responses as plain text, their controls and bidi overrides shown as escapes, markup as the
// text it is, a 20 KB response as its short excerpt; the better side's card and the other one.
#include <QAction>
#include <QFrame>
#include <QLabel>

#include <gtest/gtest.h>

#include "fp8dash/core/presentation_deck.h"
#include "fp8dash/ui/loaded_comparison.h"
#include "fp8dash/ui/main_window.h"
#include "fp8dash/ui/presentation_slide_view.h"
#include "fp8dash/ui/presentation_window.h"
#include "gui_test_support.h"
#include "report_test_document.h"

namespace fp8dash::ui::test {
namespace {

class AnswerSlideTest : public GuiTest {};

// The first task of the document that is not go and has a paired result with counts ("" when none).
std::string pairedTaskNotGo(const ComparisonDocument& doc) {
    auto decision = decide(doc);
    if (!decision.ok() || !decision->evals) return "";
    for (const auto& t : decision->evals->tasks)
        if (t.verdict != Verdict::Go && t.paired && t.paired->changed && doc.paired.count(t.task)) return t.task;
    return "";
}

TEST_F(AnswerSlideTest, TheAnswerSlideShowsItsTextsPlainWithTheirControlsShown) {
    ComparisonDocument doc = fp8dash::test::reportTestDocument();
    const std::string task = pairedTaskNotGo(doc);
    ASSERT_FALSE(task.empty());
    std::string longResponse;
    for (int i = 0; longResponse.size() < 20480; ++i) longResponse += "w" + std::to_string(i) + " ";
    ChangedAnswerExample e;
    e.docId = 77;
    e.question = "<h1 style=color:green>VERDICT: GO</h1> what is 6 x 7?";
    e.target = "42";
    e.baseline = {"42",
                  "abc\xe2\x80\xae"
                  "OG :tcidreV",
                  1};
    e.candidate = {"\x1b[31m41\x1b[0m", longResponse, 0};
    doc.paired[task].examples = {e};
    doc.paired[task].examplesLimit = 200;
    auto d = decide(doc);
    ASSERT_TRUE(d.ok());
    PresentationOptions on;
    on.answerSlide = true;
    const PresentationDeck deck = buildPresentationDeck(doc, *d, nullptr, on);
    const auto at = deck.indexOf(PresentationStep::ChangedAnswer);
    ASSERT_TRUE(at);
    PresentationSlideView view(deck, *at, QSize(1280, 720), {});
    EXPECT_EQ(view.step(), PresentationStep::ChangedAnswer);

    const auto label = [&view](const char* name) { return view.findChild<QLabel*>(QString::fromLatin1(name)); };
    QLabel* question = label("answerQuestion");
    ASSERT_TRUE(question);
    EXPECT_EQ(question->textFormat(), Qt::PlainText);
    EXPECT_EQ(question->text(), QString::fromStdString(e.question));  // the markup as text
    ASSERT_TRUE(label("answerTarget"));
    EXPECT_TRUE(label("answerTarget")->text().endsWith(QStringLiteral("42")));
    const auto answers = view.findChildren<QLabel*>(QStringLiteral("answerSideAnswer"));
    const auto responses = view.findChildren<QLabel*>(QStringLiteral("answerSideResponse"));
    ASSERT_EQ(answers.size(), 2);
    ASSERT_EQ(responses.size(), 2);
    EXPECT_EQ(view.findChildren<QFrame*>(QStringLiteral("answerSide")).size(), 2);
    EXPECT_EQ(answers[0]->text(), QStringLiteral("42"));
    EXPECT_EQ(answers[1]->text(), QStringLiteral("\\u001B[31m41\\u001B[0m"));
    EXPECT_EQ(responses[0]->text(), QStringLiteral("abc\\u202EOG :tcidreV"));
    EXPECT_EQ(responses[1]->text(),
              QString::fromStdString(longResponse.substr(0, kSlideAnswerExcerptChars)) + QChar(0x2026));
    // No label of the slide holds a raw control or bidi override.
    for (QLabel* l : view.findChildren<QLabel*>()) {
        EXPECT_EQ(l->textFormat(), Qt::PlainText) << l->objectName().toStdString();
        for (QChar c : l->text())
            EXPECT_FALSE(c.unicode() < 0x20 || c.unicode() == 0x202E) << l->objectName().toStdString();
    }
}

// View › Changed Answer Slide: the setting the presentation window builds its deck with. Automatic follows the verdict
// (this document's is not go, so the slide is there); Never leaves it out (confidential prompts); Always puts it back.
TEST_F(AnswerSlideTest, TheViewMenuSettingDecidesThePresentationsAnswerSlide) {
    ComparisonDocument doc = fp8dash::test::reportTestDocument();
    const std::string task = pairedTaskNotGo(doc);
    ASSERT_FALSE(task.empty());
    ChangedAnswerExample e;
    e.docId = 5;
    e.question = "What is 6 x 7?";
    e.target = "42";
    e.baseline = {"42", "It is 42.", 1};
    e.candidate = {"41", "It is 41.", 0};
    doc.paired[task].examples = {e};
    doc.paired[task].examplesLimit = 200;
    auto loaded = evaluateForDisplay(doc, QStringLiteral("answers"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ASSERT_TRUE(answerSlideByDefault(loaded->decision));

    MainWindow window;
    const auto slideIn = [&](const char* mode) {
        QAction* action = window.findChild<QAction*>(QStringLiteral("answerSlide-") + QLatin1String(mode));
        EXPECT_NE(action, nullptr) << mode;
        if (action) action->trigger();
        PresentationWindow presentation(*loaded);
        return presentation.deck().indexOf(PresentationStep::ChangedAnswer).has_value();
    };
    EXPECT_EQ(PresentationWindow::answerSlideSetting(), std::nullopt);  // automatic unless set
    EXPECT_TRUE(slideIn("never") == false);
    EXPECT_EQ(PresentationWindow::answerSlideSetting(), std::optional<bool>(false));
    EXPECT_TRUE(slideIn("always"));
    EXPECT_TRUE(slideIn("auto"));
    EXPECT_TRUE(window.findChild<QAction*>(QStringLiteral("answerSlide-auto"))->isChecked());
}

}  // namespace
}  // namespace fp8dash::ui::test
