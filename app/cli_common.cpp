#include "cli_common.h"

#include <unistd.h>

#include <ostream>
#include <string_view>

#include "cli.h"
#include "cli_args.h"
#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/untrusted_text.h"
#include "terminal_stream.h"

namespace fp8dash::cli {

double parsePercent(const std::string& option, const std::string& text) {
    const auto v = strictDouble(text);
    if (!v || *v < 0) throw UsageError{option + " \"" + text + "\": expected a percentage such as 0.5"};
    return *v;
}

std::uint64_t parseAnswerExamples(const std::string& text) {
    const auto v = strictInteger(text, 0, 1'000'000'000);
    if (!v)
        throw UsageError{"--answer-examples \"" + text +
                         "\": expected a whole number of documents per task, 0 or more (0 keeps only the counts)"};
    return static_cast<std::uint64_t>(*v);
}

Format parseFormat(const std::string& text) {
    if (text == "text") return Format::Text;
    if (text == "json") return Format::Json;
    if (text == "markdown" || text == "md") return Format::Markdown;
    throw UsageError{"--format \"" + text + "\": expected text, json or markdown"};
}

Verdict parseFailOn(const std::string& text) {
    auto v = parseVerdict(text);
    if (!v || *v == Verdict::Go) throw UsageError{"--fail-on \"" + text + "\": expected monitor or investigate"};
    return *v;
}

std::string errorText(const std::string& message) {
    static constexpr std::string_view kItem = "\n  ";
    std::string out;
    std::size_t start = 0;
    for (std::size_t at = message.find(kItem); at != std::string::npos; at = message.find(kItem, start)) {
        out += oneLine(std::string_view(message).substr(start, at - start));
        out += kItem;
        start = at + kItem.size();
    }
    return out + oneLine(std::string_view(message).substr(start));
}

void printDecision(const Decision& d, const ComparisonDocument& doc, Format format, const std::string& heading,
                   std::ostream& out) {
    switch (format) {
        case Format::Json:
            out << comparisonToJson(doc, d).dump(2) << "\n";
            break;
        case Format::Markdown:
            out << decisionToMarkdown(d, doc, heading);
            break;
        case Format::Text:
            out << decisionToText(d, doc, heading);
            break;
    }
}

SampleProgressFn sampleLogProgress(std::ostream& err, int& lastTenth) {
    if (!::isatty(STDERR_FILENO)) return {};
    return [&err, &lastTenth](std::uint64_t done, std::uint64_t total) {
        const int tenth = total ? static_cast<int>(10 * done / total) : 10;
        if (tenth != lastTenth && total > (64u << 20)) {  // only when reading takes a while
            lastTenth = tenth;
            writeTerminalControl(err, "\r");
            err << "fp8dash: reading sample logs… " << tenth * 10 << "%" << (tenth >= 10 ? "\n" : "") << std::flush;
        }
        return true;
    };
}

int exitFor(const Decision& d, std::optional<Verdict> failOn) {
    return failOn && d.verdict && *d.verdict >= *failOn ? kExitFailOn : kExitOk;
}

}  // namespace fp8dash::cli
