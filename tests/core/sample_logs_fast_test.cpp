// The sample-log reader's On-Demand fast path against its general reader (the whole row as a JSON tree): random
// rows, well-formed and broken, in every field the reader looks at and in those it only walks, must read alike:
// the same rows, values, filters and warnings, or the same error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fp8dash/core/sample_logs.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

std::string pick(std::mt19937_64& rng, const std::vector<std::string>& options) {
    return options[rng() % options.size()];
}

// A JSON value for a field the reader does not use: nested, escaped, and with `broken`, sometimes malformed.
std::string junk(std::mt19937_64& rng, bool broken, int depth = 0) {
    const bool bad = broken && rng() % 3 == 0;
    switch (rng() % (depth > 3 ? 6 : 9)) {
        case 0:
            return "\"plain text\"";
        case 1:
            if (bad)
                return pick(rng, {"\"\\ud800 lone\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\\udfffb\"",
                                  "\"bad \\x escape\"", "\"unclosed", "\"raw\ttab\"", "\"\xff\xfe\""});
            return pick(rng, {"\"line\\nbreak \\\"quoted\\\" \\u00e9 \\ud83d\\ude00\"", "\"tab\\tslash\\/\"",
                              "\"caf\xc3\xa9\"", "\"\\uDBFF\\uDFFF\""});
        case 2:
            if (bad) return pick(rng, {"01", "1.", "-", "1e400", "+1"});
            return pick(rng, {"12", "-0", "-0.0", "3.25", "18446744073709551616", "1e-320", "-7"});
        case 3:
            if (bad) return pick(rng, {"tru", "nul", "True", "None"});
            return pick(rng, {"true", "false", "null", "NaN", "Infinity", "-Infinity"});
        case 4:
            return "[]";
        case 5:
            return "{}";
        case 6: {
            std::string s = "[";
            const int n = static_cast<int>(rng() % 4);
            for (int i = 0; i < n; ++i) s += (i ? (bad && rng() % 2 ? " " : ", ") : "") + junk(rng, broken, depth + 1);
            return s + (bad && rng() % 2 ? "}" : "]");
        }
        case 7: {
            std::string s = "{";
            const int n = static_cast<int>(rng() % 4);
            for (int i = 0; i < n; ++i)
                s += (i ? ", " : "") + pick(rng, {"\"a\"", "\"b\"", "\"a\"", "\"k\\u0065y\""}) +
                     (bad && rng() % 2 ? " " : ": ") + junk(rng, broken, depth + 1);
            return s + (bad && rng() % 2 ? "]" : "}");
        }
        default:
            if (bad) return std::string(300, '[') + std::string(300, ']');  // deeper than the readers allow
            return std::string(150, '[') + std::string(150, ']');           // deep, but within the limit
    }
}

std::string numberish(std::mt19937_64& rng) {
    return pick(rng, {"1",
                      "0",
                      "1.0",
                      "0.0",
                      "0.5",
                      "-0",
                      "-0.0",
                      "true",
                      "false",
                      "\"NaN\"",
                      "NaN",
                      "Infinity",
                      "-Infinity",
                      "\"Infinity\"",
                      "\"x\"",
                      "null",
                      "[1]",
                      "{}",
                      "2e308",
                      "12345678901234567890123",
                      "0.30000000000000004",
                      "1e-320"});
}

std::string docId(std::mt19937_64& rng, int i) {
    if (rng() % 12 != 0) return std::to_string(i % 50);
    return pick(rng, {"\"7\"", "3.0", "3.5", "-2", "null", "9e15", "1e20", "9223372036854775807", "9223372036854775808",
                      "-0", "-0.0", "[1]", "true"});
}

// One row: the keys lm-eval writes, in a random order, with random values (mostly well-formed).
std::string fastRow(std::mt19937_64& rng, int i, bool labelled) {
    const bool broken = rng() % 4 == 0;
    const auto junk = [&] { return fp8dash::junk(rng, broken); };
    std::vector<std::string> fields;
    if (rng() % 40 != 0) fields.push_back("\"doc_id\": " + docId(rng, i));
    fields.push_back("\"doc\": {\"question\": " + junk() + ", \"choices\": " + junk() + "}");
    fields.push_back("\"target\": " + junk());
    fields.push_back("\"arguments\": {\"gen_args_0\": {\"arg_0\": \"Question: why?\\nAnswer:\", \"arg_1\": " + junk() +
                     "}}");
    fields.push_back("\"resps\": [[" + junk() + "]]");
    fields.push_back("\"filtered_resps\": [" + junk() + "]");
    if (labelled ? rng() % 60 != 0 : rng() % 60 == 0)
        fields.push_back("\"filter\": " + (rng() % 20 == 0
                                               ? pick(rng, {"null", "3", "[\"none\"]"})
                                               : pick(rng, {"\"none\"", "\"strict-match\"", "\"flexible-extract\""})));
    if (rng() % 3 != 0) fields.push_back("\"metrics\": " + (rng() % 15 == 0 ? junk() : "[\"acc\", \"f1\", 3, \"em\"]"));
    for (const char* h : {"doc_hash", "prompt_hash", "target_hash"})
        if (rng() % 10 != 0)
            fields.push_back(
                std::string("\"") + h + "\": " +
                (rng() % 15 == 0 ? pick(rng, {"null", "12", "[\"ab\"]"}) : "\"" + std::to_string(rng() % 4) + "abc\""));
    for (const char* m : {"acc", "f1", "em", "custom_score"})
        if (rng() % 3 != 0) fields.push_back(std::string("\"") + m + "\": " + numberish(rng));
    if (rng() % 6 == 0) {
        std::string r = "{\"acc\": [" + numberish(rng) + ", " + numberish(rng) + "]";
        if (rng() % 4 == 0) r += ", \"acc\": [1]";
        if (rng() % 4 == 0) r += ", \"f1\": " + junk();
        fields.push_back("\"scores_per_repeat\": " + (rng() % 10 == 0 ? pick(rng, {"null", "[]", "3"}) : r + "}"));
    }
    if (rng() % 25 == 0) fields.push_back("\"acc\": 0.25");        // a repeated key: nlohmann keeps the last
    if (rng() % 25 == 0) fields.push_back("\"d\\u006fc_id\": 4");  // an escaped key spelling doc_id again
    std::shuffle(fields.begin(), fields.end(), rng);
    std::string line = "{";
    for (std::size_t k = 0; k < fields.size(); ++k) line += (k ? ", " : "") + fields[k];
    line += "}";
    switch (rng() % 60) {
        case 0:
            return line + " {}";  // trailing text
        case 1:
            return line.substr(0, line.size() / 2);  // cut short
        case 2:
            return "[" + line + "]";
        case 3:
            return line + "\r";
        case 4:
            return "   ";
        default:
            return line;
    }
}

bool sameNumber(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;  // bit for bit: the sign of a zero counts too
}

void expectSame(const Result<SampleLog>& fast, const Result<SampleLog>& general, const std::string& text) {
    ASSERT_EQ(fast.ok(), general.ok()) << (fast ? general.error().message : fast.error().message) << "\n" << text;
    if (!fast) {
        EXPECT_EQ(fast.error().message, general.error().message);
        return;
    }
    EXPECT_EQ(fast->labelled, general->labelled);
    EXPECT_EQ(fast->filters, general->filters);
    EXPECT_EQ(fast->warnings, general->warnings);
    ASSERT_EQ(fast->rows.size(), general->rows.size()) << text;
    for (std::size_t i = 0; i < fast->rows.size(); ++i) {
        const SampleRow& a = fast->rows[i];
        const SampleRow& b = general->rows[i];
        EXPECT_EQ(a.docId, b.docId);
        EXPECT_EQ(a.docHash, b.docHash);
        EXPECT_EQ(a.promptHash, b.promptHash);
        EXPECT_EQ(a.targetHash, b.targetHash);
        EXPECT_EQ(a.filter, b.filter);
        EXPECT_EQ(a.line, b.line);
        ASSERT_EQ(a.values.size(), b.values.size()) << "line " << a.line;
        for (std::size_t k = 0; k < a.values.size(); ++k) {
            EXPECT_EQ(a.values[k].first, b.values[k].first);
            EXPECT_TRUE(sameNumber(a.values[k].second, b.values[k].second))
                << a.values[k].first << ": " << a.values[k].second << " vs " << b.values[k].second;
        }
        ASSERT_EQ(a.repeats.size(), b.repeats.size());
        for (std::size_t k = 0; k < a.repeats.size(); ++k) {
            EXPECT_EQ(a.repeats[k].first, b.repeats[k].first);
            ASSERT_EQ(a.repeats[k].second.size(), b.repeats[k].second.size());
            for (std::size_t x = 0; x < a.repeats[k].second.size(); ++x)
                EXPECT_TRUE(sameNumber(a.repeats[k].second[x], b.repeats[k].second[x]));
        }
    }
}

TEST(SampleLogsFastPath, EachRandomRowReadsAsTheGeneralReaderReadsIt) {
    std::mt19937_64 rng(20261201);
    const SampleTaskInfo info{"gsm8k", {"strict-match", "flexible-extract"}, true};
    int failed = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string text = fastRow(rng, i, rng() % 2 == 0) + "\n";
        const auto fast = parseSampleLogText(text, "s.jsonl", info);
        const auto general = detail::parseSampleLogTextGeneral(text, "s.jsonl", info);
        expectSame(fast, general, text);
        failed += !general.ok();
        if (::testing::Test::HasFailure()) return;
    }
    // Both kinds were met: rows that read and rows with an error.
    EXPECT_GT(failed, 300);
    EXPECT_LT(failed, 2250);
}

TEST(SampleLogsFastPath, RandomFilesReadAlike) {
    std::mt19937_64 rng(77);
    for (const SampleTaskInfo& info : {SampleTaskInfo{"gsm8k", {"strict-match", "flexible-extract"}, true},
                                       SampleTaskInfo{"arc_easy", {"none"}, false}}) {
        for (int file = 0; file < 150; ++file) {
            const bool labelled = rng() % 2 == 0;
            std::string text;
            const int rows = 1 + static_cast<int>(rng() % 40);
            for (int i = 0; i < rows; ++i) {
                std::string r = fastRow(rng, i, labelled);
                // Mostly well-formed files, so that whole files read and their bookkeeping is compared.
                if (rng() % 4 != 0 && r.find("NaN") == std::string::npos) r = fastRow(rng, i, labelled);
                text += r + "\n";
            }
            if (rng() % 2 == 0) text.pop_back();  // no newline at the end
            expectSame(parseSampleLogText(text, "f.jsonl", info),
                       detail::parseSampleLogTextGeneral(text, "f.jsonl", info), text);
            if (::testing::Test::HasFailure()) return;
        }
    }
}

// The file reader reads in chunks: a row longer than a chunk, and rows across chunk edges, read whole.
TEST(SampleLogsFastPath, LongRowsAcrossChunksReadWhole) {
    test::TempDir dir;
    const auto file = dir.path() / "samples_arc_easy_2026-01-01T00-00-00.000001.jsonl";
    std::string text;
    const std::string prompt(3u << 20, 'x');  // one 3 MB row, past the reader's 1 MB chunks
    text += "{\"doc_id\": 0, \"arguments\": [\"" + prompt + "\"], \"filter\": \"none\", \"acc\": 1}\n";
    for (int i = 1; i < 1500; ++i)
        text += "{\"doc_id\": " + std::to_string(i) + ", \"arguments\": [\"" + std::string(1000 + i % 7, 'y') +
                "\"], \"filter\": \"none\", \"acc\": " + std::to_string(i % 2) + "}\n";
    {
        std::ofstream out(file, std::ios::binary);
        out << text;
    }
    const SampleTaskInfo info{"arc_easy", {"none"}, true};
    auto log = readSampleLog(file, info);
    ASSERT_TRUE(log.ok()) << log.error().message;
    ASSERT_EQ(log->rows.size(), 1500u);
    for (std::size_t i = 0; i < log->rows.size(); ++i) {
        EXPECT_EQ(log->rows[i].docId, static_cast<long long>(i));
        EXPECT_EQ(log->rows[i].line, i + 1);
        ASSERT_NE(log->rows[i].value("acc"), nullptr);
        EXPECT_EQ(*log->rows[i].value("acc"), i == 0 ? 1.0 : static_cast<double>(i % 2));
    }
    expectSame(log, detail::parseSampleLogTextGeneral(text, file.string(), info), "");
}

}  // namespace
}  // namespace fp8dash
