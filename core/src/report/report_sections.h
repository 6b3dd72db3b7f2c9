#pragma once
// What the report's section builders share (report_model.h): the words and numbers they write alike, the charts they
// place, and the production sections built in report_production_sections.cpp. Internal to core.

#include <cstdint>
#include <string>

#include "fp8dash/core/number_format.h"
#include "report/report_model.h"

namespace fp8dash::report_doc {

using numfmt::grouped;                          // 1,234,567
std::string format(const char* fmt, double v);  // snprintf of one number
std::string bytesPerSecond(double v);           // "3.35 TB/s", "900 GB/s", "500 MB/s"
std::string significant(double v);              // three significant digits
std::string readable(const std::string& iso);   // readableTimestamp, "—" when empty
std::string upper(std::string s);               // ASCII upper case
// The first `columns` code points of UTF-8 text, "…" when cut; line breaks become spaces.
std::string cellExcerpt(std::string text, std::size_t columns);
// The chart of that key with an image, or null.
const ReportChart* findChart(const ReportContext& ctx, const std::string& key);
// A chart's data table goes into Markdown always and into HTML only when the chart itself is not there.
Only dataTableOnly(const ReportChart* chart);
// Markdown's line in place of a chart.
Line chartLine(const ReportChart& chart);

// Several variants (report_variant_sections.cpp): "Which FP8 layers to enable" and "What each FP8 layer costs".
void addVariants(Report& report, const Decision& d);
void addLayerCosts(Report& report, const Decision& d);

// The production sections (report_production_sections.cpp).
void addTimeline(Report& report, const ComparisonDocument& doc, const Decision& d, const ReportContext& ctx);
void addBenchmarks(Report& report, const ComparisonDocument& doc, const ReportContext& ctx);
void addCapacity(Report& report, const ComparisonDocument& doc, const Decision& d);
// "What FP8 buys on your server" (report_serving_sections.cpp), where the comparison holds serving benchmarks; its
// throughput–latency chart ("serving") under the gain sentences where the context has it.
void addServing(Report& report, const Decision& d, const ReportContext& ctx);

}  // namespace fp8dash::report_doc
