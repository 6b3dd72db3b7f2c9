// DocumentController without a window: naming, the modified mark, the title and status line, derived documents and
// the serial that tells a new document from a derived one.
#include <QDir>

#include "fp8dash/ui/document_controller.h"
#include "gui_test_support.h"

namespace fp8dash::ui::test {
namespace {

class DocumentControllerTest : public GuiTest {};

LoadedComparison loadedWithTitle(const std::string& title) {
    ComparisonDocument doc = evalsOnlyDemo();
    doc.title = title;
    auto loaded = evaluateForDisplay(std::move(doc), QStringLiteral("test"));
    EXPECT_TRUE(loaded.ok());
    return std::move(loaded).value();
}

TEST_F(DocumentControllerTest, NothingShownAtFirst) {
    DocumentController c;
    EXPECT_FALSE(c.hasDocument());
    EXPECT_FALSE(c.isModified());
    EXPECT_TRUE(c.path().isEmpty());
    const auto target = c.derivedTarget();
    EXPECT_TRUE(target.path.isEmpty());
    EXPECT_TRUE(target.displayName.isEmpty());
    EXPECT_EQ(target.source, QStringLiteral("the comparison"));
    // Nothing to change: a new document without runs, with the title asked for.
    const ComparisonDocument fresh = c.documentOr(QStringLiteral("Production timeline"));
    EXPECT_FALSE(fresh.hasEvals);
    EXPECT_EQ(fresh.title, "Production timeline");
    EXPECT_FALSE(fresh.created.empty());
}

TEST_F(DocumentControllerTest, TheNameComesFromTheCallerTheFileOrTheTitle) {
    DocumentController c;
    c.show(loadedWithTitle("Llama FP8"), QStringLiteral("/data/reviews/llama.fp8cmp"), {}, false);
    EXPECT_EQ(c.displayName(), QStringLiteral("llama.fp8cmp"));
    EXPECT_EQ(c.windowTitle(), QStringLiteral("llama.fp8cmp — fp8dash"));
    EXPECT_EQ(c.statusText(), QDir::toNativeSeparators(QStringLiteral("/data/reviews/llama.fp8cmp")));

    c.show(loadedWithTitle("Llama FP8"), {}, {}, false);
    EXPECT_EQ(c.displayName(), QStringLiteral("Llama FP8"));
    EXPECT_EQ(c.statusText(), QStringLiteral("Not saved to a file"));

    c.show(loadedWithTitle(""), {}, {}, false);
    EXPECT_EQ(c.displayName(), QStringLiteral("Untitled comparison"));

    c.show(loadedWithTitle("Llama FP8"), QStringLiteral("/data/x.fp8cmp"), QStringLiteral("demo"), false);
    EXPECT_EQ(c.displayName(), QStringLiteral("demo"));
}

TEST_F(DocumentControllerTest, ModifiedUntilSavedAndTheTitleSaysSo) {
    DocumentController c;
    c.show(loadedWithTitle("Llama FP8"), {}, {}, false);
    c.setModified(true);
    EXPECT_EQ(c.windowTitle(), QStringLiteral("Llama FP8* — unsaved — fp8dash"));  // no file: it exists only here
    EXPECT_EQ(c.statusText(), QStringLiteral("Llama FP8 — modified, not saved"));
    const QString file = QDir::temp().filePath(QStringLiteral("saved-here.fp8cmp"));
    c.markSaved(file);
    EXPECT_FALSE(c.isModified());
    EXPECT_EQ(c.path(), file);
    EXPECT_TRUE(c.shows(file));
    EXPECT_EQ(c.displayName(), QStringLiteral("saved-here.fp8cmp"));
    EXPECT_EQ(c.windowTitle(), QStringLiteral("saved-here.fp8cmp — fp8dash"));
    c.setModified(true);
    EXPECT_EQ(c.statusText(), QDir::toNativeSeparators(file) + QStringLiteral(" — modified, not saved"));
}

TEST_F(DocumentControllerTest, ADerivedDocumentKeepsItsPlaceAndSerial) {
    DocumentController c;
    c.show(loadedWithTitle("Llama FP8"), QStringLiteral("/data/llama.fp8cmp"), {}, false);
    const quint64 first = c.serial();
    // A saved document is named by its file: a derived one keeps the path, not a name.
    auto target = c.derivedTarget();
    EXPECT_EQ(target.path, QStringLiteral("/data/llama.fp8cmp"));
    EXPECT_TRUE(target.displayName.isEmpty());
    EXPECT_EQ(target.source, QStringLiteral("/data/llama.fp8cmp"));
    c.show(loadedWithTitle("Llama FP8 with a timeline"), target.path, target.displayName, true);
    EXPECT_EQ(c.serial(), first);
    EXPECT_EQ(c.displayName(), QStringLiteral("llama.fp8cmp"));
    EXPECT_EQ(c.documentOr(QStringLiteral("unused")).title, "Llama FP8 with a timeline");

    // An unsaved one keeps its name.
    c.show(loadedWithTitle("Llama FP8"), {}, QStringLiteral("demo"), false);
    EXPECT_EQ(c.serial(), first + 1);
    target = c.derivedTarget();
    EXPECT_TRUE(target.path.isEmpty());
    EXPECT_EQ(target.displayName, QStringLiteral("demo"));
    EXPECT_EQ(target.source, QStringLiteral("demo"));
}

}  // namespace
}  // namespace fp8dash::ui::test
