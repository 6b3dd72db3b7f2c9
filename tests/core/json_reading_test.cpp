// The fast JSON paths (the speed targets, tests/benchmarks/README.md) against the plain ones they replace:
// parseJsonText (simdjson, converted to ordered_json) against nlohmann's own parser, the comparison file's lifted
// timeline lists against the same file read through the JSON tree, and the comparison file's writer against nlohmann's
// dump of toJson. The references are nlohmann's parser and serialiser, run here directly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/lm_eval_results.h"
#include "fp8dash/core/timeline.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

// A key repeated in one object, found with nlohmann's parser callback: the first whose second occurrence comes first
// in the text, and the path of its object ("" at the top level, "a.b[2]" inside).
struct RepeatedKeyFound {
    std::string key;
    std::string path;
};
std::optional<RepeatedKeyFound> firstRepeatedKey(const std::string& text) {
    struct Level {
        bool object = false;
        std::set<std::string> keys;
        std::string key;           // object: the last key read
        std::size_t children = 0;  // array: the values so far
        std::string segment;       // how the level is reached from its parent
    };
    std::vector<Level> open;
    std::optional<RepeatedKeyFound> found;
    const auto pathOf = [&] {
        std::string path;
        for (std::size_t i = 1; i < open.size(); ++i) path += open[i].segment;
        return path;
    };
    const auto child = [&]() -> std::string {  // the place of a value starting now
        if (open.empty()) return "";
        Level& parent = open.back();
        if (!parent.object) return "[" + std::to_string(parent.children++) + "]";
        return (open.size() > 1 ? "." : "") + parent.key;
    };
    const Json::parser_callback_t callback = [&](int, Json::parse_event_t event, Json& parsed) {
        if (found) return true;
        switch (event) {
            case Json::parse_event_t::object_start:
            case Json::parse_event_t::array_start: {
                Level level;
                level.object = event == Json::parse_event_t::object_start;
                level.segment = child();
                open.push_back(std::move(level));
                break;
            }
            case Json::parse_event_t::key:
                open.back().key = parsed.get<std::string>();
                if (!open.back().keys.insert(open.back().key).second)
                    found = RepeatedKeyFound{open.back().key, pathOf()};
                break;
            case Json::parse_event_t::value:
                if (!open.empty() && !open.back().object) ++open.back().children;
                break;
            case Json::parse_event_t::object_end:
            case Json::parse_event_t::array_end:
                open.pop_back();
                break;
        }
        return true;
    };
    try {
        (void)Json::parse(text, callback);
    } catch (const nlohmann::json::exception&) {
    }
    return found;
}

// nlohmann's reading of a text, with the message parseJsonText gives for it on failure (which calls a text of
// nothing but white space empty, and refuses a repeated key: the message up to "appears twice").
Result<Json> nlohmannReading(const std::string& text, const std::string& src) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return Error{src + ": the file is empty (expected JSON)"};
    if (const auto repeated = firstRepeatedKey(text))
        return Error{src + ": " + (repeated->path.empty() ? "" : repeated->path + ": ") + "key \"" + repeated->key +
                     "\" appears twice"};
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        return Error{src + ": not valid JSON (" + what + ")"};
    }
}

// Equal values, keys in the same order, and numbers of the same nlohmann type (unsigned, signed, float).
::testing::AssertionResult sameJson(const Json& a, const Json& b, const std::string& at = "$") {
    if (a.type() != b.type())
        return ::testing::AssertionFailure() << at << ": " << a.type_name() << " vs " << b.type_name() << " ("
                                             << a.dump() << " vs " << b.dump() << ")";
    if (a.is_object()) {
        if (a.size() != b.size()) return ::testing::AssertionFailure() << at << ": object sizes differ";
        auto ib = b.begin();
        for (auto ia = a.begin(); ia != a.end(); ++ia, ++ib) {
            if (ia.key() != ib.key())
                return ::testing::AssertionFailure() << at << ": key " << ia.key() << " vs " << ib.key();
            if (auto r = sameJson(ia.value(), ib.value(), at + "." + ia.key()); !r) return r;
        }
        return ::testing::AssertionSuccess();
    }
    if (a.is_array()) {
        if (a.size() != b.size()) return ::testing::AssertionFailure() << at << ": array sizes differ";
        for (std::size_t i = 0; i < a.size(); ++i)
            if (auto r = sameJson(a[i], b[i], at + "[" + std::to_string(i) + "]"); !r) return r;
        return ::testing::AssertionSuccess();
    }
    if (a.is_number_float()) {
        const double x = a.get<double>(), y = b.get<double>();
        if (std::memcmp(&x, &y, sizeof x) != 0) return ::testing::AssertionFailure() << at << ": " << x << " vs " << y;
        return ::testing::AssertionSuccess();
    }
    if (a != b) return ::testing::AssertionFailure() << at << ": " << a.dump() << " vs " << b.dump();
    return ::testing::AssertionSuccess();
}

// parseJsonText and nlohmann agree: both read the same tree, or both refuse with the same message.
void expectSameAsNlohmann(const std::string& text) {
    SCOPED_TRACE(text.size() < 300 ? text : text.substr(0, 300) + "...");
    const auto ours = parseJsonText(text, "doc.json");
    const auto reference = nlohmannReading(text, "doc.json");
    ASSERT_EQ(ours.ok(), reference.ok()) << (ours.ok() ? reference.error().message : ours.error().message);
    if (ours.ok())
        EXPECT_TRUE(sameJson(*ours, *reference));
    else
        EXPECT_EQ(ours.error().message.substr(0, reference.error().message.size()), reference.error().message);
}

TEST(JsonText, ReadsWhatNlohmannReadsAndRefusesWhatItRefuses) {
    const std::vector<std::string> texts = {
        R"({"a": 1, "b": -2, "c": 3.5, "d": "x", "e": true, "f": false, "g": null, "h": [], "i": {}})",
        R"([0, -0, -0.0, 0.0, 1e2, 1E+2, 1e-2, 1.5e300, -1.5e-300, 5e-324, 2.4e-324, 1e-400])",
        R"([9223372036854775807, 9223372036854775808, 18446744073709551615, 18446744073709551616])",
        R"([-9223372036854775808, -9223372036854775809, 123456789012345678901234567890])",
        R"(["\u0041\u00e9\u4e2d\ud83d\ude00", "\ud800", "\udc00x", "tab\there", "\/\\\"\b\f\n\r\t"])",
        "\xEF\xBB\xBF{\"bom\": 1}",
        std::string("{}\0", 3),
        std::string("[\"a\0b\"]", 7),
        "\"\xff\"",
        "\"\xed\xa0\x80\"",
        "\"a\x01\"",
        R"({"a":1,"a":2})",
        R"({"a":{"x":1},"b":2,"a":[3]})",
        "1.e5",
        "-",
        "+1",
        ".5",
        "1e",
        "0x1",
        "tru",
        "nulll",
        "[1]\f",
        "{}x",
        "{} {}",
        "[1,2]]",
        "[1,]",
        "{\"a\":1,}",
        "[00]",
        "[-01]",
        "1e400",
        "[1e999]",
        "-1e400",
        "\"\\u00zz\"",
        "[\"\x7f\"]",
        "  \t\r\n 7 \n",
        "\"just a string\"",
        "[[[[]]]]",
        R"({"k": "caf\u00e9", "caf√©": "raw utf-8 key"})"};
    for (const auto& text : texts) expectSameAsNlohmann(text);
    // More than 16 keys (the converter's hashed path), one of them repeated.
    std::string wide = "{";
    for (int i = 0; i < 40; ++i)
        wide += "\"k" + std::to_string(i % 33) + "\": " + std::to_string(i) + (i < 39 ? "," : "}");
    expectSameAsNlohmann(wide);
}

TEST(JsonText, PythonsNanAndInfinityAndTheDepthLimitAsBefore) {
    const auto j = parseJsonText(R"({"a": NaN, "b": [Infinity, -Infinity], "NaN": "NaN", "c": -0})", "x.json");
    ASSERT_TRUE(j.ok()) << j.error().message;
    EXPECT_EQ((*j)["a"], "NaN");
    EXPECT_EQ((*j)["b"][0], "Infinity");
    EXPECT_EQ((*j)["b"][1], "-Infinity");
    EXPECT_TRUE((*j)["c"].is_number_integer() && !(*j)["c"].is_number_unsigned());  // nlohmann's -0: signed
    const auto deep = parseJsonText(std::string(300, '[') + std::string(300, ']'), "deep.json");
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.error().message, "deep.json: not valid JSON: nesting deeper than 256 levels at byte 256");
}

// Random documents (numbers of every shape, escapes, repeated keys, nesting), and the same with bytes changed: the
// fast reader agrees with nlohmann on every one.
TEST(JsonText, RandomDocumentsAndCorruptionsAgreeWithNlohmann) {
    std::mt19937_64 rng(20261201);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const std::vector<std::string> atoms = {"0",
                                            "-0",
                                            "7",
                                            "-7",
                                            "1.25",
                                            "-0.5e-3",
                                            "6.02E23",
                                            "1e308",
                                            "4e-320",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "-9223372036854775809",
                                            "true",
                                            "false",
                                            "null",
                                            "\"\"",
                                            "\"a\\\"b\"",
                                            "\"\\u00e9\"",
                                            "\"\\ud83d\\ude00\"",
                                            "\"\xc3\xa9\"",
                                            "\"\\n\\t\""};
    std::function<std::string(int)> value = [&](int depth) -> std::string {
        const std::size_t kind = depth > 4 ? 0 : pick(4);
        if (kind <= 1) return atoms[pick(atoms.size())];
        std::string out;
        const std::size_t n = pick(kind == 2 ? 6 : 24);
        if (kind == 2) {
            out = "[";
            for (std::size_t i = 0; i < n; ++i) out += (i ? "," : "") + value(depth + 1);
            return out + "]";
        }
        out = "{";
        for (std::size_t i = 0; i < n; ++i)
            out += (i ? ", " : "") + ("\"k" + std::to_string(pick(12)) + "\": ") + value(depth + 1);
        return out + "}";
    };
    const std::string noise = "{}[],:\"\\-0123456789.eE+ \ntrufalsn\x01\xff";
    for (int round = 0; round < 400; ++round) {
        const std::string doc = value(0);
        expectSameAsNlohmann(doc);
        std::string broken = doc;
        for (int k = 0, edits = 1 + static_cast<int>(pick(3)); k < edits && !broken.empty(); ++k)
            broken[pick(broken.size())] = noise[pick(noise.size())];
        expectSameAsNlohmann(broken);
    }
}

// A timeline-only comparison with both series; `samples` per series.
ComparisonDocument timelineDocument(std::size_t samples, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> rate(800, 1600);
    TimelineData d;
    d.settings.from = 1795852800;
    d.settings.to = d.settings.from + 15.0 * static_cast<double>(samples);
    d.settings.step = 15;
    d.settings.changeAt = d.settings.from + 7.5 * static_cast<double>(samples);
    d.settings.qualitySource = QualitySource::Prometheus;
    d.settings.prometheusUrl = "http://prometheus.invalid:9090";
    Series tp, q;
    tp.labels = {{"model_name", "llama-3.1-8b"}};
    // Values of every shape the writer must keep exactly: full-precision rates, integers, -0, subnormals, extremes,
    // and what JSON cannot hold.
    const double special[] = {0.0,
                              -0.0,
                              1.0,
                              4.0,
                              5e-324,
                              2.2250738585072014e-308,
                              1.7976931348623157e308,
                              1e21,
                              1e-7,
                              123456789012345680.0,
                              std::nan(""),
                              INFINITY,
                              -INFINITY};
    for (std::size_t i = 0; i < samples; ++i) {
        const double t = d.settings.from + 15.0 * static_cast<double>(i) + (i % 7 == 3 ? 0.125 : 0.0);
        tp.samples.push_back({t, i % 11 == 5 ? special[rng() % std::size(special)] : rate(rng)});
        q.samples.push_back({t, static_cast<double>(1 + rng() % 5)});
    }
    d.throughput = std::move(tp);
    d.quality = std::move(q);
    ComparisonDocument doc;
    doc.hasEvals = false;
    doc.title = "timeline";
    doc.timeline = std::move(d);
    return doc;
}

bool sameSamples(const std::vector<Sample>& a, const std::vector<Sample>& b) {
    // Bit for bit (NaN payloads and -0 included); memcmp may not be given the null pointer of an empty vector.
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Sample)) == 0);
}

// The lifted reading and the tree's reading of the same text: the same document, or the same error.
void expectLiftingChangesNothing(const std::string& text) {
    SCOPED_TRACE(text.size() < 400 ? text : text.substr(0, 400) + "...");
    const auto lifted = parseComparisonText(text, "x.fp8cmp");
    auto tree = parseJsonText(text, "x.fp8cmp");
    const auto reference =
        tree ? parseComparisonJson(std::move(tree).value(), "x.fp8cmp") : Result<ComparisonDocument>(tree.error());
    ASSERT_EQ(lifted.ok(), reference.ok()) << (lifted.ok() ? reference.error().message : lifted.error().message);
    if (!lifted.ok()) {
        EXPECT_EQ(lifted.error().message, reference.error().message);
        return;
    }
    ASSERT_EQ(lifted->timeline.has_value(), reference->timeline.has_value());
    if (!lifted->timeline) return;
    for (auto series : {&TimelineData::throughput, &TimelineData::quality}) {
        const auto& a = (*lifted->timeline).*series;
        const auto& b = (*reference->timeline).*series;
        ASSERT_EQ(a.has_value(), b.has_value());
        if (a) {
            EXPECT_EQ(a->labels, b->labels);
            EXPECT_TRUE(sameSamples(a->samples, b->samples));
        }
    }
    EXPECT_EQ(lifted->timeline->alerts, reference->timeline->alerts);
}

TEST(ComparisonFileLists, LiftedListsReadAsTheTreeReadsThem) {
    const Json whole = toJson(timelineDocument(40, 7));
    expectLiftingChangesNothing(whole.dump());
    expectLiftingChangesNothing(whole.dump(2));
    expectLiftingChangesNothing(whole.dump(4));
    const Json base = toJson(timelineDocument(8, 7));  // the edited lists below have 8 entries too
    // Variants of one list: every entry kind the reader accepts, and each that it refuses with a message.
    const std::vector<std::pair<const char*, std::string>> edits = {
        {"v", R"([1, -0, 2.5e-3, "NaN", "+Inf", "Inf", "-Inf", 4])"},
        {"t", R"([1, -0, 2, 3.5, 4, 5, 6, 7])"},
        {"t",
         R"([1795852800, 1795852815.0, 1.795852830e9, 1795852845E0, 1795852860, 1795852875, 1795852890, 1795852905])"},
        {"t", R"([  1 ,2,	3,
4,5 , 6,7,8  ])"},
        {"v", R"([1, "nan", 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, "N\u0061N", 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, NaN, 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, Infinity, 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, null, 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, [2], 2, 3, 4, 5, 6, 7])"},
        {"v", R"([1, {"x": 2}, 2, 3, 4, 5, 6, 7])"},
        {"t", R"([1, "2", 3, 4, 5, 6, 7, 8])"},
        {"t", R"([1, 3, 2, 4, 5, 6, 7, 8])"},
        {"t", R"([1, 2, 3])"},
        {"t", R"([1, 2, 3, 4, 5, 6, 7, 1e999])"},
        {"t", R"([1, 2, 3, 4, 5, 6, 7, 1e-400])"},
        {"t", R"([1, 2, 3, 4, 5, 6, 7, 8,])"},
        {"t", R"([1, 2, 3, 4, 5, 6, 7 8])"},
        {"t", R"([01, 2, 3, 4, 5, 6, 7, 8])"},
        {"t", R"([1., 2, 3, 4, 5, 6, 7, 8])"},
        {"t", R"([+1, 2, 3, 4, 5, 6, 7, 8])"},
        {"t", R"([-, 2, 3, 4, 5, 6, 7, 8])"},
        {"t", "[1, 2, 3, 4, 5, 6, 7, 8"},
        {"t", R"([18446744073709551617, 18446744073709551618, 3e19, 4e19, 5e19, 6e19, 7e19, 8e19])"},
        {"t", R"([])"},
        {"t", R"({"not": "a list"})"},
        {"t", R"("1,2,3")"},
    };
    for (const auto& [key, list] : edits) {
        Json j = base;
        j["timeline"]["throughput"][key] = "@@LIST@@";
        std::string text = j.dump(2);
        text.replace(text.find("\"@@LIST@@\""), std::strlen("\"@@LIST@@\""), list);
        expectLiftingChangesNothing(text);
    }
}

TEST(ComparisonFileLists, RepeatedKeysAreRefusedAsTheTreeRefusesThem) {
    const std::string settings = toJson(timelineDocument(2, 1))["timeline"]["settings"].dump();
    const std::string head = R"({"format": "fp8dash-comparison", "version": 2, "title": "x", )";
    const std::vector<std::string> timelines = {
        // "t" twice: the second counts.
        R"({"settings": )" + settings + R"(, "throughput": {"t": [1, 2, 3], "v": [1, 2], "t": [4, 5]}})",
        // The second "t" is not liftable: the tree's value counts.
        R"({"settings": )" + settings + R"(, "throughput": {"t": [1, 2], "v": [1, 2], "t": [4, "x"]}})",
        // "throughput" twice: the second object, without a "v".
        R"({"settings": )" + settings + R"(, "throughput": {"t": [1, 2], "v": [1, 2]}, "throughput": {"t": [4, 5]}})",
        R"({"settings": )" + settings + R"(, "throughput": {"t": [1, 2], "v": [1, 2]}, "throughput": null})",
        R"({"settings": )" + settings +
            R"(, "quality": {"t": [1, 2], "v": [3, 4]}, "quality": {"v": [5, 6], "t": [7, 8]}})",
        // A key spelled with an escape is the same key to the tree; the scanner leaves that list to it.
        R"({"settings": )" + settings + R"(, "throughput": {"t": [1, 2], "v": [1, 2], "\u0074": [3, 4]}})",
        R"({"settings": )" + settings + R"(, "throughput": {"labels": {"t": "[1]"}, "t": [1, 2], "v": [9, 8]}})",
    };
    for (const auto& tl : timelines) {
        expectLiftingChangesNothing(head + R"("timeline": )" + tl + "}");
        // Every timeline above repeats a key in one object, but the last (its "t" is in "labels").
        const auto read = parseComparisonText(head + R"("timeline": )" + tl + "}", "x.fp8cmp");
        if (&tl != &timelines.back()) {
            ASSERT_FALSE(read.ok()) << tl;
            EXPECT_NE(read.error().message.find(" appears twice"), std::string::npos) << read.error().message;
        } else {
            EXPECT_TRUE(read.ok()) << read.error().message;
        }
        // "timeline" twice: only the last counts.
        expectLiftingChangesNothing(head + R"("timeline": )" + tl + R"(, "timeline": )" + tl + "}");
        expectLiftingChangesNothing(head + R"("timeline": {"throughput": {"t": [1], "v": [2]}}, "timeline": )" + tl +
                                    "}");
    }
    // Lists under other keys, at other depths, or under a timeline that is not the top level's, stay in the tree.
    expectLiftingChangesNothing(head + R"("timeline": )" + timelines[0] + R"(, "extra": {"timeline": {"throughput": )" +
                                R"({"t": [1, 2], "v": [1, 2]}}}})");
}

// Random timeline sections: keys in any order, repeated or spelled with escapes, lists of any entries, broken ones.
TEST(ComparisonFileLists, RandomTimelinesReadAsTheTreeReadsThem) {
    std::mt19937_64 rng(7001);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const std::string settings = toJson(timelineDocument(2, 1))["timeline"]["settings"].dump();
    const std::vector<std::string> entries = {
        "1",        "2.5",  "-0",      "-0.0",     "1e3",      "17958528e2",    "0.1",   "1e999",
        "1e-400",   "01",   "\"NaN\"", "\"+Inf\"", "\"-Inf\"", "\"Inf\"",       "\"x\"", "NaN",
        "Infinity", "null", "true",    "[]",       "{}",       "\"\\u004eaN\"", "-",     "3 4"};
    const std::vector<std::string> spaces = {"", " ", "\n  ", "\t"};
    const auto list = [&] {
        std::string out = "[" + spaces[pick(spaces.size())];
        // Mostly ascending numbers, so that more lists get past the timeline's own checks.
        const std::size_t n = pick(5);
        for (std::size_t i = 0; i < n; ++i) {
            out += (i ? "," + spaces[pick(spaces.size())] : "") +
                   (pick(3) == 0 ? entries[pick(entries.size())] : std::to_string(10 * (i + 1)));
        }
        return out + spaces[pick(spaces.size())] + "]";
    };
    const auto series = [&] {
        std::vector<std::string> members = {"\"t\": " + list(), "\"v\": " + list(), R"("labels": {"a": "b"})"};
        if (pick(4) == 0) members.push_back("\"t\": " + list());
        if (pick(4) == 0) members.push_back("\"v\": " + (pick(2) ? list() : std::string("5")));
        if (pick(8) == 0) members.push_back("\"\\u0076\": " + list());
        std::shuffle(members.begin(), members.end(), rng);
        std::string out = "{";
        for (std::size_t i = 0; i < members.size(); ++i) out += (i ? ", " : "") + members[i];
        return out + "}";
    };
    for (int round = 0; round < 500; ++round) {
        std::vector<std::string> members = {"\"settings\": " + settings, "\"throughput\": " + series(),
                                            "\"quality\": " + series()};
        if (pick(5) == 0) members.push_back("\"throughput\": " + (pick(2) ? series() : std::string("null")));
        std::shuffle(members.begin(), members.end(), rng);
        std::string timeline = "{";
        for (std::size_t i = 0; i < members.size(); ++i) timeline += (i ? ", " : "") + members[i];
        timeline += "}";
        std::string text = R"({"format": "fp8dash-comparison", "version": 2, "timeline": )" + timeline;
        if (pick(6) == 0)
            text +=
                ", \"timeline\": " + (pick(2) ? timeline : std::string("{\"throughput\": {\"t\": [1], \"v\": [2]}}"));
        text += "}";
        if (pick(10) == 0) text[pick(text.size())] = ",]}\"["[pick(5)];
        expectLiftingChangesNothing(text);
    }
}

TEST(ComparisonFileLists, ErrorsAfterALiftedListNameTheirPlaceInTheFile) {
    std::string text = toJson(timelineDocument(50, 3)).dump(2);
    text.insert(text.rfind('}'), ", oops");
    const auto lifted = parseComparisonText(text, "x.fp8cmp");
    const auto reference = nlohmannReading(text, "x.fp8cmp");
    ASSERT_FALSE(lifted.ok());
    ASSERT_FALSE(reference.ok());
    EXPECT_EQ(lifted.error().message, reference.error().message);  // line and column of the original text
}

// Issue 26: a key repeated in one object is refused, naming the key and its object, wherever the shared reader reads
// (results files, comparison files, server answers); JSON leaves its meaning open, and fp8dash once kept the last.
std::string repeatedKeyError(const std::string& text, const std::string& src = "doc.json") {
    const auto r = parseJsonText(text, src);
    return r.ok() ? std::string("(read)") : r.error().message;
}

TEST(RepeatedKeys, AResultsFileWithAMetricTwiceNamesItAndItsTask) {
    // Built here: a results file whose gsm8k holds its strict-match score twice (a 16.7 % drop, then none).
    const Json results = {
        {"results",
         {{"arc_easy", {{"alias", "arc_easy"}, {"acc,none", 0.8}}},
          {"gsm8k",
           {{"alias", "gsm8k"}, {"exact_match,strict-match", 0.75}, {"exact_match_stderr,strict-match", 0.01}}}}},
        {"config", {{"model_args", "pretrained=m"}}}};
    std::string text = results.dump(2);
    const std::string first = "\"exact_match,strict-match\": 0.75";
    ASSERT_NE(text.find(first), std::string::npos);
    text.replace(text.find(first), first.size(), first + ",\n      \"exact_match,strict-match\": 0.9");
    const std::string expected = "results.json: results.gsm8k: key \"exact_match,strict-match\" appears twice";
    const auto read = parseLmEvalText(text, "results.json");
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message.substr(0, expected.size()), expected) << read.error().message;
    // nlohmann's builder (a "-0" sends the text there) says the same as the simdjson one.
    std::string viaNlohmann = text;
    viaNlohmann.insert(viaNlohmann.rfind('}'), ", \"minus_zero\": -0");
    EXPECT_EQ(repeatedKeyError(viaNlohmann, "results.json"), read.error().message);
    // More than 16 keys in the object (the converter's hashed path), the repeat the last of them, and in an array.
    std::string wide = "{\"rows\": [{}, {";
    for (int i = 0; i < 20; ++i) wide += "\"m" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    wide += "\"m7\": 0}]}";
    EXPECT_EQ(repeatedKeyError(wide).rfind("doc.json: rows[1]: key \"m7\" appears twice (", 0), 0u)
        << repeatedKeyError(wide);
    // At the top level; and a key spelled with an escape is the same key.
    EXPECT_EQ(
        repeatedKeyError(R"({"a": 1, "\u0061": 2})").rfind("doc.json: key \"a\" appears twice at the top level (", 0),
        0u);
    // Keys repeated in different objects are not a repeat.
    EXPECT_EQ(repeatedKeyError(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})"), "(read)");
}

TEST(RepeatedKeys, AComparisonFileWithAKeyTwiceIsRefusedNamingIt) {
    test::TempDir dir;
    auto base = readLmEvalPath(test::testData() / "lm-eval/seed-pair/bf16");
    auto cand = readLmEvalPath(test::testData() / "lm-eval/seed-pair/fp8");
    ASSERT_TRUE(base.ok() && cand.ok());
    RunRecord b, c;
    b.label = "BF16";
    b.results = std::move(base).value();
    c.label = "FP8";
    c.results = std::move(cand).value();
    ComparisonDocument doc = makeComparisonDocument(std::move(b), std::move(c), {});
    Note note;
    note.id = "n1";
    note.text = "checked by hand";
    note.created = "2026-12-01T09:00:00Z";
    note.task = "gsm8k";
    doc.notes.push_back(note);
    doc.timeline = timelineDocument(4, 1).timeline;
    const auto path = dir.path() / "c.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    const std::string saved = readTextFile(path).value();
    ASSERT_TRUE(loadComparisonFile(path).ok());
    // Each edit repeats one key in one object of the saved file; the error names the key and the object.
    struct Edit {
        std::string after;   // the text the repeated member follows
        std::string member;  // the member inserted after it
        std::string named;   // what the error must say
    };
    const std::vector<Edit> edits = {
        {"\"title\": ", "\"title\": \"GO: approved\", ", "key \"title\" appears twice at the top level"},
        {"\"id\": \"n1\"", ", \"id\": \"n2\"", "notes[0]: key \"id\" appears twice"},
        {"\"format\": ", "\"format\": \"fp8dash-comparison\", ", "key \"format\" appears twice at the top level"},
        {"\"exact_match,strict-match\": ", "\"exact_match,strict-match\": 0.99, ",
         "runs.baseline.results.results.gsm8k: key \"exact_match,strict-match\" appears twice"},
        {"\"step\": ", "\"step\": 60, ", "timeline.settings: key \"step\" appears twice"},
        {"\"t\": [", "\"t\": [], ", "timeline.throughput: key \"t\" appears twice"},
    };
    for (const auto& e : edits) {
        SCOPED_TRACE(e.member);
        std::string text = saved;
        const auto at = text.find(e.after);
        ASSERT_NE(at, std::string::npos);
        // After the key's own member for "..: " edits (insert before it), after the member's value otherwise.
        if (e.after.back() == ' ' || e.after.back() == '[')
            text.insert(at, e.member);
        else
            text.insert(at + e.after.size(), e.member);
        const auto file = dir.write("edited.fp8cmp", text);
        const auto read = loadComparisonFile(file);
        ASSERT_FALSE(read.ok());
        EXPECT_NE(read.error().message.find(file.string() + ": " + e.named), std::string::npos) << read.error().message;
    }
}

TEST(ComparisonFileWriter, WritesWhatNlohmannsDumpWrites) {
    test::TempDir dir;
    // Without a timeline: byte for byte the dump the writer used before.
    ComparisonDocument plain = timelineDocument(3, 5);
    plain.timeline.reset();
    plain.notes.push_back({"n1", "caf\xc3\xa9 \"quoted\"\nsecond line \xff", "ana", "2026-11-29T10:00:00Z", "", ""});
    const auto plainPath = dir.path() / "plain.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(plain, plainPath).ok());
    EXPECT_EQ(readTextFile(plainPath).value(),
              toJson(plain).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

    // With one: the same JSON, the lists on one line each, and every sample back bit for bit.
    const ComparisonDocument doc = timelineDocument(5000, 11);
    const auto path = dir.path() / "timeline.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(doc, path).ok());
    const std::string text = readTextFile(path).value();
    EXPECT_TRUE(sameJson(Json::parse(text), Json::parse(toJson(doc).dump())));
    EXPECT_NE(text.find("\n      \"t\": [1795852800.0,1795852815.0,"), std::string::npos);
    const auto loaded = loadComparisonFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(sameSamples(loaded->timeline->throughput->samples, doc.timeline->throughput->samples));
    EXPECT_TRUE(sameSamples(loaded->timeline->quality->samples, doc.timeline->quality->samples));
    // Its lines outside the lists are nlohmann's: the file with the lists emptied is the dump of the same.
    std::string emptied = text;
    for (const std::string key : {"\"t\": [", "\"v\": ["}) {
        for (std::size_t p = 0; (p = emptied.find(key, p)) != std::string::npos;) {
            const std::size_t open = p + key.size();
            emptied.erase(open, emptied.find(']', open) - open);
            p = open;
        }
    }
    Json shape = toJson(doc);
    for (const char* s : {"throughput", "quality"})
        for (const char* k : {"t", "v"}) shape["timeline"][s][k] = Json::array();
    EXPECT_EQ(emptied, shape.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace
}  // namespace fp8dash
