#pragma once
// `fp8dash report FILE --out PATH` and `fp8dash demo --out PATH` (README "Reports"): the report of a comparison as a
// file, its format from the extension (.html, .pdf, .md, .txt, .json). HTML and PDF carry the charts, drawn by the
// desktop app's own views: a GUI build creates a QApplication on the offscreen platform for them (no window
// appears, no display is needed). A CLI-only build (FP8DASH_BUILD_GUI=OFF) writes HTML without the charts (their data
// tables stand in) and refuses PDF. Written atomically. Main thread only.

#include <iosfwd>
#include <string>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash::cli {

class Args;

// `report FILE` and `demo` (demo: the bundled comparison): the decision printed in the chosen format (the full
// Markdown report for markdown), and with --out the report written to a file; with --out alone nothing is printed.
int cmdReport(Args& a, bool demo, std::ostream& out, std::ostream& err);

// Throws UsageError when the extension names no report format. Returns kExitOk, or kExitBadInput after a message on
// err naming the file.
int writeReportOut(const ComparisonDocument& doc, const Decision& decision, const std::string& path,
                   const std::string& source, std::ostream& err);

// Checks --out's extension before any work is done; throws UsageError naming the option.
void checkReportOutPath(const std::string& path);

}  // namespace fp8dash::cli
