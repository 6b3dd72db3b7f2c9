#pragma once
// The report of a comparison as a file (README "Reports"): HTML with the charts embedded, PDF, Markdown,
// text and JSON (core's report_document.h writes all but the PDF and the charts). The charts are drawn by the app's
// own views (chart_snapshots.h). The PDF goes through Qt's PDF writer: A4 portrait, 16 mm side and 12 mm top and
// bottom margins, a header (the report's title, "fp8dash") and a footer (when and from what it was written,
// "Page n of N") on every page, and the body laid out by QTextDocument from core's rich-text HTML with the charts
// registered as its image resources. Needs a QApplication (the offscreen platform will do); GUI thread only (the
// charts are drawn by widgets). Files are written atomically.

#include <QByteArray>
#include <QString>

#include <vector>

#include "fp8dash/core/report_document.h"
#include "fp8dash/core/result.h"
#include "fp8dash/ui/loaded_comparison.h"

namespace fp8dash::ui {

// The size charts are drawn at for reports, in CSS pixels (twice as many pixels in the PNG): a little narrower than
// an A4 page's text, so their lettering keeps its size on paper.
inline constexpr int kReportChartWidth = 800;
inline constexpr int kReportChartHeight = 420;

// The document's charts for a report, as PNG (renderChartSnapshots at the size above, scale 2).
std::vector<ReportChart> reportCharts(const LoadedComparison& loaded);

// When, by which build and from what: generatedAt now (UTC), this fp8dash, no charts yet.
ReportContext reportContextNow(const QString& source);

// The report's bytes in a format, with the context's charts (HTML, PDF). Errors say what failed.
Result<QByteArray> reportBytes(const LoadedComparison& loaded, ReportFileFormat format, const ReportContext& context);
// The PDF alone (A4 pages, header and footer); pageCount, when given, receives the number of pages.
Result<QByteArray> reportPdf(const LoadedComparison& loaded, const ReportContext& context, int* pageCount = nullptr);

// Writes the report to path: the context of reportContextNow(source), with the charts drawn for HTML and PDF. The
// error names the file.
Status writeReportFile(const LoadedComparison& loaded, const QString& path, ReportFileFormat format,
                       const QString& source);

}  // namespace fp8dash::ui
