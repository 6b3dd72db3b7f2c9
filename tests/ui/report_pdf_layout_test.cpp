// The demo's PDF report read back with poppler's pdftotext, page by page: every table's header and cell words are
// whole on the page (a column squeezed to a letter a line, or cut short, fails), and a heading that introduces a table
// is on the page of the table's first row (QTextDocument has no keep-with-next: the exporter does it). The tables and
// their headings come from the report's own rich-text HTML, read by QTextDocument here, not from the PDF's layout.
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>

#include "fp8dash/core/demo.h"
#include "fp8dash/ui/report_exporter.h"
#include "gui_test_support.h"
#include "process.h"

namespace fp8dash::ui::test {
namespace {

class ReportPdfLayoutTest : public GuiTest {};

struct ReportTable {
    QString heading;                  // the heading just before it (only paragraphs between), else empty
    QStringList firstRow;             // its first row's cells (the header row of a grid)
    std::vector<QStringList> pieces;  // each word of each cell, cut where the text may break (see wordPieces)
};

// A cell's words, each cut after the points where a line may break inside a word: the zero-width spaces the report
// offers in long identifiers, and after '-', '/' and '_' (Unicode line breaking). Breaking there is whole words.
QStringList wordPieces(const QString& word) {
    QStringList out;
    QString piece;
    for (const QChar c : word) {
        if (c == QChar(0x200B)) {
            if (!piece.isEmpty()) out << piece;
            piece.clear();
            continue;
        }
        piece += c;
        if (c == QLatin1Char('-') || c == QLatin1Char('/') || c == QLatin1Char('_')) {
            out << piece;
            piece.clear();
        }
    }
    if (!piece.isEmpty()) out << piece;
    return out;
}

QStringList words(const QString& text) {
    static const QRegularExpression space(QStringLiteral("[\\s\\x{2028}\\x{2029}\\x{00a0}]+"));
    return text.split(space, Qt::SkipEmptyParts);
}

QString cellText(QTextTable* table, int row, int column) {
    const QTextTableCell cell = table->cellAt(row, column);
    QTextCursor c = cell.firstCursorPosition();
    c.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
    return c.selectedText();
}

bool isImageBlock(const QTextBlock& block) {
    for (auto it = block.begin(); !it.atEnd(); ++it)
        if (it.fragment().charFormat().isImageFormat()) return true;
    return false;
}

std::vector<ReportTable> tablesOf(const QString& html) {
    QTextDocument doc;
    doc.setHtml(html);
    std::vector<ReportTable> out;
    for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table) continue;
        ReportTable t;
        for (QTextBlock b = doc.findBlock(table->firstPosition() - 1); b.isValid(); b = b.previous()) {
            if (QTextCursor(b).currentFrame() != doc.rootFrame()) break;  // another table
            if (b.blockFormat().headingLevel() > 0) {
                t.heading = b.text().trimmed();
                break;
            }
            if (b.textList() || isImageBlock(b)) break;  // a list or a chart between: not its introduction
        }
        for (int r = 0; r < table->rows(); ++r)
            for (int col = 0; col < table->columns(); ++col) {
                const QString text = cellText(table, r, col);
                if (r == 0) t.firstRow << text;
                for (const QString& w : words(text)) t.pieces.push_back(wordPieces(w));
            }
        out.push_back(std::move(t));
    }
    return out;
}

// pdftotext's pages, with its ligatures ("ﬁ") spelt out.
QStringList pdfPages(const std::string& pdftotext, const QString& path) {
    const auto run = fp8dash::test::runProcess({pdftotext, "-layout", "-enc", "UTF-8", path.toStdString(), "-"});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    QString text = QString::fromStdString(run.out);
    for (auto [lig, plain] : {std::pair{u'\uFB00', "ff"}, std::pair{u'\uFB01', "fi"}, std::pair{u'\uFB02', "fl"},
                              std::pair{u'\uFB03', "ffi"}, std::pair{u'\uFB04', "ffl"}})
        text.replace(QChar(lig), QString::fromLatin1(plain));
    QStringList pages = text.split(QLatin1Char('\f'));
    if (!pages.isEmpty() && pages.last().trimmed().isEmpty()) pages.removeLast();
    return pages;
}

// The page (from `from` on) with a line whose text is the heading; -1 if none.
int headingPage(const QStringList& pages, const QString& heading, int from) {
    for (int p = from; p < pages.size(); ++p)
        for (const QString& line : pages[p].split(QLatin1Char('\n')))
            if (line.simplified() == heading.simplified()) return p;
    return -1;
}

// The page (from `from` on) with a line that holds the first word of each of the row's first two cells, in order.
int rowPage(const QStringList& pages, const QStringList& row, int from) {
    QStringList firsts;
    for (const QString& cell : row.mid(0, 2))
        if (const QStringList w = words(cell); !w.isEmpty()) firsts << wordPieces(w.first()).first();
    for (int p = from; p < pages.size(); ++p)
        for (const QString& line : pages[p].split(QLatin1Char('\n'))) {
            qsizetype at = 0;
            bool all = !firsts.isEmpty();
            for (const QString& f : firsts) {
                at = line.indexOf(f, at);
                if (at < 0) {
                    all = false;
                    break;
                }
                at += f.size();
            }
            if (all) return p;
        }
    return -1;
}

TEST_F(ReportPdfLayoutTest, DemoTablesHaveWholeWordsAndTheirHeadings) {
    const std::string pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext")).toStdString();
    if (pdftotext.empty()) GTEST_SKIP() << "pdftotext not found (Debian: poppler-utils)";
    auto demo = loadDemoComparison();
    ASSERT_TRUE(demo.ok()) << demo.error().message;
    auto loaded = evaluateForDisplay(*demo, QString::fromUtf8(kDemoName.data(), kDemoName.size()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    ReportContext ctx;
    ctx.source = std::string(kDemoName);
    ctx.generatedAt = "2026-12-02T09:30:00Z";
    ctx.toolVersion = "0.0.0-test";
    ctx.charts = reportCharts(*loaded);
    int pageCount = 0;
    auto pdf = reportPdf(*loaded, ctx, &pageCount);
    ASSERT_TRUE(pdf.ok()) << pdf.error().message;
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("demo.pdf"));
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(*pdf);
    }
    const QStringList pages = pdfPages(pdftotext, path);
    ASSERT_EQ(pages.size(), pageCount);

    const auto tables = tablesOf(toQString(
        reportToHtml(loaded->document, loaded->decision, ctx, ReportHtmlFlavour::RichText, /*maxImageWidth=*/600)));
    ASSERT_GE(tables.size(), 8u);  // meta, banner, review, runs, evals, judge, biggest drops, timeline, KV, capacity...
    bool sawKv = false;
    int from = 0;
    for (const ReportTable& table : tables) {
        const QString where = table.heading.isEmpty() ? table.firstRow.join(QLatin1Char('|')) : table.heading;
        sawKv = sawKv || table.firstRow.contains(QStringLiteral("Scaling"));
        // The first row's page: from the heading's page on, when there is one.
        int headingAt = -1;
        if (!table.heading.isEmpty()) {
            headingAt = headingPage(pages, table.heading, from);
            ASSERT_GE(headingAt, 0) << "heading not found: " << where.toStdString();
        }
        const int start = headingAt >= 0 ? headingAt : from;
        int rowAt = rowPage(pages, table.firstRow, start);
        if (rowAt < 0) {
            ADD_FAILURE() << "first row not found (its words cut?): " << where.toStdString();
            rowAt = start;  // its words are checked from there
        }
        if (headingAt >= 0) {
            EXPECT_EQ(headingAt, rowAt) << "\"" << table.heading.toStdString() << "\" is on page " << headingAt + 1
                                        << ", its table starts on page " << rowAt + 1;
        }
        from = rowAt;
        // Each word whole: each of its pieces a word of the PDF's text on the table's pages (it may continue on
        // the next), so a word cut inside ("Eleme" + "nts/s", "p" + "e" + "r") fails.
        QSet<QString> tokens;
        for (int p = rowAt; p < std::min<int>(rowAt + 2, pages.size()); ++p)
            for (const QString& w : words(pages[p]))
                for (const QString& piece : wordPieces(w)) tokens.insert(piece);
        for (const QStringList& word : table.pieces) {
            bool whole = true;
            for (const QString& piece : word) whole = whole && tokens.contains(piece);
            EXPECT_TRUE(whole) << "in the table \"" << where.toStdString() << "\": the word \""
                               << word.join(QString()).toStdString() << "\" is not whole on page " << rowAt + 1;
        }
    }
    EXPECT_TRUE(sawKv) << "the demo's KV-cache table is not in the report";
}

}  // namespace
}  // namespace fp8dash::ui::test
