// The report as a file (report_exporter.h). The PDF is QTextDocument's layout of core's rich-text HTML, drawn page by
// page between a header and a footer of our own (QTextDocument::print would number pages but has no header).
#include "fp8dash/ui/report_exporter.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QUrl>

#include <cmath>
#include <functional>
#include <limits>

#include "fp8dash/core/version.h"
#include "fp8dash/ui/chart_snapshots.h"

namespace fp8dash::ui {

namespace {

constexpr int kPdfResolution = 300;  // dots per inch: crisp text and charts, files of a few hundred KB
constexpr double kMarginSideMm = 16;
constexpr double kMarginTopBottomMm = 12;
constexpr double kHeaderMm = 9;  // the header band inside the top margin's page area, and the footer's likewise
constexpr double kFooterMm = 9;
constexpr double kCssPixelsPerInch = 96;  // QTextDocument's px (and core's image sizes) are 1/96 inch

double mmToPixels(double mm, int dpi) {
    return mm / 25.4 * dpi;
}

std::string utf8(const QString& s) {
    return s.toStdString();
}

// Header: the title on the left, "fp8dash" on the right, a rule below. Footer: a rule, then what and when on the
// left, "Page n of N" on the right. Both in a small grey sans.
void drawPageFrame(QPainter& p, const QRectF& page, const QString& title, const QString& footerLeft, int pageNo,
                   int pages, int dpi) {
    p.save();
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(7.5);
    p.setFont(font);
    const QColor grey(0x57, 0x60, 0x6a);
    p.setPen(grey);
    const double header = mmToPixels(kHeaderMm, dpi), footer = mmToPixels(kFooterMm, dpi);
    const double gap = mmToPixels(2.5, dpi);
    const QFontMetricsF fm(font, p.device());
    const QRectF top(page.left(), page.top(), page.width(), header - gap);
    const QString rightTop = QStringLiteral("fp8dash");
    const double rightWidth = fm.horizontalAdvance(rightTop) + gap;
    p.drawText(QRectF(top.left(), top.top(), top.width() - rightWidth, top.height()), Qt::AlignLeft | Qt::AlignBottom,
               fm.elidedText(title, Qt::ElideRight, top.width() - rightWidth - gap));
    p.drawText(top, Qt::AlignRight | Qt::AlignBottom, rightTop);
    const QRectF bottom(page.left(), page.bottom() - footer + gap, page.width(), footer - gap);
    const QString pageText = QCoreApplication::translate("ReportExporter", "Page %1 of %2").arg(pageNo).arg(pages);
    const double pageWidth = fm.horizontalAdvance(pageText) + gap;
    p.drawText(QRectF(bottom.left(), bottom.top(), bottom.width() - pageWidth, bottom.height()),
               Qt::AlignLeft | Qt::AlignTop,
               fm.elidedText(footerLeft, Qt::ElideMiddle, bottom.width() - pageWidth - gap));
    p.drawText(bottom, Qt::AlignRight | Qt::AlignTop, pageText);
    QPen rule(QColor(0xc5, 0xcc, 0xd3));
    rule.setWidthF(mmToPixels(0.2, dpi));
    p.setPen(rule);
    p.drawLine(QPointF(page.left(), page.top() + header - gap / 2),
               QPointF(page.right(), page.top() + header - gap / 2));
    p.drawLine(QPointF(page.left(), page.bottom() - footer + gap / 2),
               QPointF(page.right(), page.bottom() - footer + gap / 2));
    p.restore();
}

bool inRootFrame(const QTextDocument& doc, const QTextBlock& block) {
    return QTextCursor(block).currentFrame() == doc.rootFrame();
}

bool isImage(const QTextBlock& block) {
    for (auto it = block.begin(); !it.atEnd(); ++it)
        if (it.fragment().charFormat().isImageFormat()) return true;
    return false;
}

// The table whose first cell holds this block, if any.
QTextTable* tableStartingAt(const QTextBlock& block) {
    QTextTable* table = QTextCursor(block).currentTable();
    return table && table->firstPosition() == block.position() ? table : nullptr;
}

// Whether a block must stay on the page of what follows it: a heading, a chart (its caption follows), and a short
// paragraph that leads into a table (the table's introduction, and a heading's through it: "Offline evals", its two
// sentences, its table).
bool keepsWithNext(const QTextDocument& doc, const QTextBlock& block, int depth = 0) {
    if (block.blockFormat().headingLevel() > 0) return true;
    if (!inRootFrame(doc, block)) return false;
    if (isImage(block)) return true;
    if (block.textList() || depth > 3) return false;
    if (block.layout() && block.layout()->lineCount() > 4) return false;
    const QTextBlock next = block.next();
    if (!next.isValid()) return false;
    if (tableStartingAt(next)) return true;
    return inRootFrame(doc, next) && !next.textList() && next.blockFormat().headingLevel() == 0 && !isImage(next) &&
           keepsWithNext(doc, next, depth + 1);
}

// Where a block's first line is in the document: the layout moves lines that do not fit a page to the next one, so a
// block that starts at the foot of a page may show its first line on the next.
double firstLineTop(QAbstractTextDocumentLayout* layout, const QTextBlock& block) {
    const QRectF rect = layout->blockBoundingRect(block);
    const QTextLayout* lines = block.layout();
    return lines && lines->lineCount() > 0 ? rect.top() + lines->lineAt(0).position().y() : rect.top();
}

// The first block of the run of keep-with-next blocks that ends with this one (a heading and the paragraphs that lead
// into its table), as long as the run stays short (a third of a page): the page break goes before all of it.
QTextBlock chainStart(const QTextDocument& doc, QTextBlock block, double pageHeight) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const double bottom = layout->blockBoundingRect(block).bottom();
    for (QTextBlock previous = block.previous(); previous.isValid() && keepsWithNext(doc, previous);
         previous = previous.previous()) {
        if (bottom - layout->blockBoundingRect(previous).top() > pageHeight / 3) break;
        block = previous;
    }
    return block;
}

// A page break before the block, and none before the blocks kept with it (an earlier pass may have moved one of them
// alone: it would now start a page of its own).
void breakBefore(const QTextDocument& doc, const QTextBlock& block) {
    QTextBlockFormat format = block.blockFormat();
    format.setPageBreakPolicy(format.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysBefore);
    QTextCursor(block).setBlockFormat(format);
    for (QTextBlock kept = block; kept.isValid() && keepsWithNext(doc, kept);) {
        kept = kept.next();
        if (!kept.isValid() || !inRootFrame(doc, kept)) break;
        QTextBlockFormat f = kept.blockFormat();
        if (!(f.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)) continue;
        f.setPageBreakPolicy(f.pageBreakPolicy() & ~QTextFormat::PageBreak_AlwaysBefore);
        QTextCursor(kept).setBlockFormat(f);
    }
}

// QTextDocument has neither "keep with next" nor "no break inside" nor orphans and widows (CSS page-break-after/
// -inside: avoid, orphans, widows): a heading can end a page whose next page starts with its table, a short table can
// be cut in two, even inside a row, and a paragraph's last line can start a page alone. So, the earliest such place
// gets a page break before it (a short table: one that fills less than 40 % of a page; a paragraph: one of 8 lines at
// most), and the layout is checked again; each pass moves one thing forward, so it ends.
// Each pass lays the rest of the document out again (a page break moves everything after it), so a report past
// 200,000 characters (notes or reasons pasted whole, a 200k-character unbroken string took 20 s a pass) is printed as
// the layout makes it, in seconds, rather than kept together in minutes.
constexpr int kKeepTogetherMaxCharacters = 200000;

void keepTogether(QTextDocument& doc, double pageHeight) {
    if (doc.characterCount() > kKeepTogetherMaxCharacters) return;
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const auto pageOf = [pageHeight](double y) { return static_cast<int>(std::floor(y / pageHeight)); };
    const auto atPageTop = [&](double y) { return y - pageOf(y) * pageHeight < 1; };
    for (int pass = 0; pass < 200; ++pass) {
        (void)layout->documentSize();  // finishes the layout (it is incremental after a change)
        int firstPosition = std::numeric_limits<int>::max();
        QTextBlock target;  // the earliest block that gets a page break before it
        bool broke = false;
        for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
            auto* table = qobject_cast<QTextTable*>(frame);
            if (!table) continue;
            const QRectF rect = layout->frameBoundingRect(table);
            if (rect.height() > 0.4 * pageHeight || atPageTop(rect.top()) ||
                pageOf(rect.top()) == pageOf(rect.bottom() - 1))
                continue;
            // Tables are in document order: the first one found is the earliest. The layout ignores a table's own
            // page break, so the break goes before the block before it (its introduction) and the heading and
            // paragraphs kept with that.
            const QTextBlock before = doc.findBlock(table->firstPosition() - 1);
            if (!before.isValid()) continue;
            if (keepsWithNext(doc, before)) {
                const QTextBlock start = chainStart(doc, before, pageHeight);
                if (start.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) continue;
                target = start;
            } else {
                // A list or a long paragraph before the table: the table starts the next page.
                QTextBlockFormat format = before.blockFormat();
                if (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysAfter) continue;
                format.setPageBreakPolicy(format.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysAfter);
                QTextCursor(before).setBlockFormat(format);
                broke = true;
            }
            firstPosition = before.position();
            break;
        }
        if (broke) continue;
        for (QTextBlock block = doc.begin(); block.isValid() && block.position() < firstPosition;
             block = block.next()) {
            const double here = firstLineTop(layout, block);
            if (inRootFrame(doc, block) && block.layout() && !atPageTop(here)) {
                // Orphans and widows: a paragraph's first line alone at the foot of a page, or its last line alone
                // at the top of the next.
                const QTextLayout* lines = block.layout();
                const int n = lines->lineCount();
                const double top = layout->blockBoundingRect(block).top();
                const auto linePage = [&](int i) { return pageOf(top + lines->lineAt(i).position().y() + 1); };
                if (n >= 2 && n <= 8 && (linePage(0) != linePage(1) || linePage(n - 2) != linePage(n - 1))) {
                    target = keepsWithNext(doc, block) ? chainStart(doc, block, pageHeight) : block;
                    break;
                }
            }
            const QTextBlock next = block.next();
            if (!next.isValid() || !keepsWithNext(doc, block)) continue;
            // A line moved to the next page starts at its very top; a pixel's slack keeps rounding from hiding it.
            const double there = firstLineTop(layout, next) + 1;
            if (pageOf(there) <= pageOf(here)) continue;  // together
            const QTextBlock start = chainStart(doc, block, pageHeight);
            if (atPageTop(firstLineTop(layout, start))) continue;  // already at the top: too long to keep
            target = start;
            break;
        }
        if (!target.isValid()) return;
        breakBefore(doc, target);
    }
}

}  // namespace

std::vector<ReportChart> reportCharts(const LoadedComparison& loaded) {
    std::vector<ReportChart> out;
    for (const ChartSnapshot& s : renderChartSnapshots(loaded, QSize(kReportChartWidth, kReportChartHeight), 2.0)) {
        const QByteArray png = pngBytes(s.image);
        // Each at its own logical size (the forest plot is as tall as its tasks need).
        const QSizeF size = s.image.deviceIndependentSize();
        out.push_back({utf8(s.key), utf8(s.title), utf8(s.caption), png.toStdString(),
                       static_cast<int>(std::lround(size.width())), static_cast<int>(std::lround(size.height()))});
    }
    return out;
}

ReportContext reportContextNow(const QString& source) {
    ReportContext ctx;
    ctx.source = utf8(source);
    ctx.generatedAt = utf8(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    ctx.toolVersion = FP8DASH_VERSION;
    return ctx;
}

Result<QByteArray> reportPdf(const LoadedComparison& loaded, const ReportContext& context, int* pageCount) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QString title = toQString(reportTitle(loaded.document));
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(kPdfResolution);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("fp8dash %1").arg(QStringLiteral(FP8DASH_VERSION)));
        if (!writer.setPageLayout(
                QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                            QMarginsF(kMarginSideMm, kMarginTopBottomMm, kMarginSideMm, kMarginTopBottomMm),
                            QPageLayout::Millimeter)))
            return Error{"the PDF writer refused the A4 page layout"};
        const int dpi = writer.resolution();
        const QRectF page(QPointF(0, 0), writer.pageLayout().paintRectPixels(dpi).size());
        const QRectF body(page.left(), page.top() + mmToPixels(kHeaderMm, dpi), page.width(),
                          page.height() - mmToPixels(kHeaderMm + kFooterMm, dpi));

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer);  // points and CSS pixels scale to the PDF's resolution
        doc.setDocumentMargin(0);
        QFont base(QStringLiteral("DejaVu Sans"));
        base.setPointSizeF(9);
        doc.setDefaultFont(base);
        for (const ReportChart& chart : context.charts) {
            QImage image;
            if (!image.loadFromData(reinterpret_cast<const uchar*>(chart.png.data()),
                                    static_cast<int>(chart.png.size()), "PNG"))
                return Error{"the chart \"" + chart.title + "\" is not a readable PNG"};
            doc.addResource(QTextDocument::ImageResource, QUrl(toQString(chartResourceName(chart.key))), image);
        }
        // Charts as wide as the text at most, in CSS pixels.
        const int maxImageWidth = static_cast<int>(std::floor(body.width() / dpi * kCssPixelsPerInch)) - 2;
        doc.setHtml(toQString(
            reportToHtml(loaded.document, loaded.decision, context, ReportHtmlFlavour::RichText, maxImageWidth)));
        doc.setPageSize(body.size());
        keepTogether(doc, body.height());
        const int pages = doc.pageCount();

        QPainter painter;
        if (!painter.begin(&writer)) return Error{"the PDF writer could not start a page"};
        const QString footer =
            QStringLiteral("fp8dash %1 · %2%3")
                .arg(toQString(context.toolVersion), toQString(readableTimestamp(context.generatedAt)),
                     context.source.empty() ? QString() : QStringLiteral(" · ") + toQString(context.source));
        for (int i = 0; i < pages; ++i) {
            if (i > 0) writer.newPage();
            // The page header repeats the title, shortened where several candidates make it long (the cover has it
            // in full).
            drawPageFrame(painter, page, toQString(reportRunningTitle(loaded.document)), footer, i + 1, pages, dpi);
            painter.save();
            painter.translate(body.left(), body.top() - i * body.height());
            QAbstractTextDocumentLayout::PaintContext paint;
            const QRectF pageRect(0, i * body.height(), body.width(), body.height());
            painter.setClipRect(pageRect);
            // The layout draws every line that touches its clip: a line that starts the next page (or ends the one
            // before) would be drawn here too, hidden by the clip but still text in the PDF (search, copy,
            // pdftotext). Lines lie inside their page (a table cell's last line may overhang the page's foot by a
            // few pixels), so a clip a millimetre short of each edge leaves them out.
            const double edge = mmToPixels(1, dpi);
            paint.clip = pageRect.adjusted(0, edge, 0, -edge);
            doc.documentLayout()->draw(&painter, paint);
            painter.restore();
        }
        painter.end();
        if (pageCount) *pageCount = pages;
    }
    buffer.close();
    return bytes;
}

Result<QByteArray> reportBytes(const LoadedComparison& loaded, ReportFileFormat format, const ReportContext& context) {
    if (format == ReportFileFormat::Pdf) return reportPdf(loaded, context);
    auto text = renderReport(loaded.document, loaded.decision, context, format);
    if (!text) return text.error();
    return QByteArray::fromStdString(*text);
}

Status writeReportFile(const LoadedComparison& loaded, const QString& path, ReportFileFormat format,
                       const QString& source) {
    ReportContext ctx = reportContextNow(source);
    if (format == ReportFileFormat::Html || format == ReportFileFormat::Pdf) ctx.charts = reportCharts(loaded);
    auto bytes = reportBytes(loaded, format, ctx);
    if (!bytes) return Error{utf8(QFileInfo(path).filePath()) + ": " + bytes.error().message};
    return writeFileAtomically(toFsPath(path),
                               std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())));
}

}  // namespace fp8dash::ui
