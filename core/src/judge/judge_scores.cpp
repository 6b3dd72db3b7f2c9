// LLM-as-judge scores: reading, comparing, JSON (judge_scores.h; DESIGN.md step 2).
#include "fp8dash/core/judge_scores.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "text_util.h"

namespace fp8dash {
namespace {

constexpr std::size_t kMaxDistributionBins = 1000;

std::string formatNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string quote(std::string_view s) {
    std::string out = "\"";
    out.append(s.substr(0, 80));
    if (s.size() > 80) out += "...";
    return out + "\"";
}

std::string scaleText(const JudgeScale& s) {
    return "[" + formatNumber(s.min) + ", " + formatNumber(s.max) + "]";
}

// A whole-string decimal number (surrounding blanks allowed); nullopt when it is not one.
std::optional<double> parseNumber(std::string_view s) {
    const std::string t = text::trim(s);
    if (t.empty()) return std::nullopt;
    const char* begin = t.data();
    if (*begin == '+') ++begin;  // from_chars refuses a leading plus; spreadsheets write one
    double v = 0;
    const auto [end, ec] = std::from_chars(begin, t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
    return v;
}

// A JSON value as a score, or the message saying why not.
Result<double> scoreFromJson(const Json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (auto n = parseNumber(s)) return *n;
        return Error{"score " + quote(s) + " is not a number"};
    }
    return Error{"score " + v.dump() + " is not a number"};
}

// A JSON id (string or integer) as text; nullopt for null (no id).
Result<std::optional<std::string>> idFromJson(const Json& v) {
    if (v.is_null()) return std::optional<std::string>();
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s.empty()) return Error{"the id is empty"};
        return std::optional<std::string>(s);
    }
    if (v.is_number_unsigned()) return std::optional<std::string>(std::to_string(v.get<std::uint64_t>()));
    if (v.is_number_integer()) return std::optional<std::string>(std::to_string(v.get<std::int64_t>()));
    return Error{"the id " + v.dump() + " is neither a string nor an integer"};
}

// Accumulates samples with the checks every source shares: finite, in scale, ids on all or none, no duplicate id.
class SampleCollector {
public:
    // Errors read "<prefix><at>: <what>", e.g. prefix "scores.jsonl " and at "line 3".
    SampleCollector(std::string prefix, JudgeScale scale) : m_prefix(std::move(prefix)), m_scale(scale) {}

    Status add(const std::string& at, std::optional<std::string> id, double score, Json fields) {
        if (!std::isfinite(score)) return fail(at, "score " + formatNumber(score) + " is not a finite number");
        if (score < m_scale.min || score > m_scale.max)
            return fail(at, "score " + formatNumber(score) + " is outside the judge's scale " + scaleText(m_scale));
        const bool hasId = id.has_value();
        if (!m_hasIds) {
            m_hasIds = hasId;
            m_firstAt = at;
        } else if (*m_hasIds != hasId) {
            return fail(at, hasId ? "has an id, while " + m_firstAt + " has none (ids go on every sample or none)"
                                  : "has no id, while " + m_firstAt + " has one (ids go on every sample or none)");
        }
        if (hasId) {
            const auto [it, inserted] = m_seen.emplace(*id, at);
            if (!inserted) return fail(at, "duplicate id " + quote(*id) + " (first at " + it->second + ")");
        }
        m_samples.push_back({hasId ? std::move(*id) : std::string(), score, std::move(fields)});
        return success();
    }

    Error fail(const std::string& at, const std::string& what) const { return Error{m_prefix + at + ": " + what}; }

    Result<JudgeScores> finish(const std::string& source, JudgeFileFormat format, const std::string& emptyMessage) {
        if (m_samples.empty()) return Error{emptyMessage};
        JudgeScores s;
        s.source = source;
        s.format = format;
        s.hasIds = m_hasIds.value_or(false);
        s.samples = std::move(m_samples);
        return s;
    }

private:
    std::string m_prefix;
    JudgeScale m_scale;
    std::optional<bool> m_hasIds;
    std::string m_firstAt;
    std::unordered_map<std::string, std::string> m_seen;
    std::vector<JudgeScore> m_samples;
};

// One JSON object (a JSONL line, an array element, a stored sample) into the collector.
Status addObject(SampleCollector& out, const std::string& at, const Json& obj) {
    if (!obj.is_object())
        return out.fail(at, "expected a JSON object with \"score\", got " + std::string(obj.type_name()));
    std::optional<std::string> id;
    if (auto it = obj.find("id"); it != obj.end()) {
        auto r = idFromJson(*it);
        if (!r) return out.fail(at, r.error().message);
        id = std::move(*r);
    }
    auto sit = obj.find("score");
    if (sit == obj.end() || sit->is_null()) return out.fail(at, "no \"score\" field");
    auto score = scoreFromJson(*sit);
    if (!score) return out.fail(at, score.error().message);
    Json fields = Json::object();
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (it.key() != "id" && it.key() != "score") fields[it.key()] = it.value();
    return out.add(at, std::move(id), *score, std::move(fields));
}

std::string emptyFile(const std::string& source) {
    return source + ": the file is empty (no scores)";
}

Result<JudgeScores> parseJsonLines(std::string_view text, const std::string& source, const JudgeScale& scale,
                                   bool detected) {
    SampleCollector out(source + " ", scale);
    std::size_t lineNo = 0;
    for (std::size_t pos = 0; pos <= text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (text::trim(line).empty()) continue;
        const std::string at = "line " + std::to_string(lineNo);
        auto doc = parseJsonText(line, source + " " + at);
        if (!doc) {
            std::string message = doc.error().message;
            if (detected) message += " (read as JSON Lines, one object per line, from its content)";
            return Error{message};
        }
        if (auto st = addObject(out, at, *doc); !st) return st.error();
    }
    return out.finish(source, JudgeFileFormat::JsonLines, emptyFile(source));
}

Result<JudgeScores> parseJsonArray(std::string_view text, const std::string& source, const JudgeScale& scale) {
    auto doc = parseJsonText(text, source);
    if (!doc) return doc.error();
    if (!doc->is_array())
        return Error{source + ": expected a JSON array of scores (or of {\"id\", \"score\"} objects), got " +
                     std::string(doc->type_name())};
    SampleCollector out(source + " ", scale);
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const Json& e = (*doc)[i];
        const std::string at = "[" + std::to_string(i) + "]";
        Status st = success();
        if (e.is_object()) {
            st = addObject(out, at, e);
        } else if (e.is_number() || e.is_string()) {
            auto score = scoreFromJson(e);
            st =
                score ? out.add(at, std::nullopt, *score, Json::object()) : Status(out.fail(at, score.error().message));
        } else {
            st = out.fail(at, "expected a score or an object with \"score\", got " + std::string(e.type_name()));
        }
        if (!st) return st.error();
    }
    return out.finish(source, JudgeFileFormat::JsonArray, source + ": the array holds no scores");
}

struct CsvRecord {
    std::size_t line = 0;  // 1-based line where the record starts
    std::vector<std::string> fields;
    bool blank = false;  // an empty line
};

// RFC 4180: comma-separated, double quotes around fields holding commas, quotes ("" inside) or line breaks; CRLF
// or LF line ends. Unquoted fields are taken as they are (a stray quote inside one is kept literally).
Result<std::vector<CsvRecord>> splitCsv(std::string_view text, const std::string& source) {
    std::vector<CsvRecord> records;
    std::size_t line = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        CsvRecord rec;
        rec.line = line;
        std::string field;
        bool fieldQuoted = false;
        bool recordDone = false;
        auto endField = [&] {
            rec.fields.push_back(std::move(field));
            field.clear();
            fieldQuoted = false;
        };
        while (!recordDone) {
            if (i >= text.size()) {
                endField();
                break;
            }
            const char ch = text[i];
            if (ch == '"' && field.empty() && !fieldQuoted) {
                fieldQuoted = true;
                const std::size_t openLine = line;
                ++i;
                for (;;) {
                    if (i >= text.size())
                        return Error{source + " line " + std::to_string(openLine) +
                                     ": a quoted field is not closed before the end of the file"};
                    if (text[i] == '"') {
                        if (i + 1 < text.size() && text[i + 1] == '"') {
                            field += '"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    if (text[i] == '\n') ++line;
                    field += text[i++];
                }
                if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    return Error{source + " line " + std::to_string(line) + ": unexpected " + quote(text.substr(i, 1)) +
                                 " after a closing quote (a quote inside a quoted field is written \"\")"};
                continue;
            }
            if (ch == ',') {
                endField();
                ++i;
            } else if (ch == '\n' || ch == '\r') {
                if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
                ++i;
                ++line;
                endField();
                recordDone = true;
            } else {
                field += ch;
                ++i;
            }
        }
        rec.blank = rec.fields.size() == 1 && rec.fields[0].empty() && !fieldQuoted;
        records.push_back(std::move(rec));
    }
    return records;
}

Result<JudgeScores> parseCsv(std::string_view text, const std::string& source, const JudgeScale& scale) {
    // JSON formats are checked by the JSON parser; a CSV's bytes go into ids and fields as they are, and the
    // comparison file and the JSON output can hold only UTF-8 (a spreadsheet's "CSV" export is often Windows-1252).
    if (const auto bad = text::firstInvalidUtf8(text)) {
        const std::size_t lineStart = text.rfind('\n', *bad == 0 ? 0 : *bad - 1);
        const std::size_t column = lineStart == std::string_view::npos || *bad == 0 ? *bad + 1 : *bad - lineStart;
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*bad), '\n');
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[*bad])));
        return Error{source + " line " + std::to_string(line) + ": byte " + std::to_string(column) + " (" + byte +
                     ") is not UTF-8 text; save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\")"};
    }
    auto split = splitCsv(text, source);
    if (!split) return split.error();
    std::vector<CsvRecord>& records = *split;
    auto first = std::find_if(records.begin(), records.end(), [](const CsvRecord& r) { return !r.blank; });
    if (first == records.end()) return Error{emptyFile(source)};

    std::vector<std::string> header;
    std::optional<std::size_t> idColumn, scoreColumn;
    for (std::size_t c = 0; c < first->fields.size(); ++c) {
        std::string name = text::trim(first->fields[c]);
        const std::string key = text::lower(name);
        if (key == "id" || key == "score") {
            auto& slot = key == "id" ? idColumn : scoreColumn;
            if (slot)
                return Error{source + " line " + std::to_string(first->line) + ": the header names the \"" + key +
                             "\" column twice"};
            slot = c;
        }
        if (name.empty()) name = "column_" + std::to_string(c + 1);
        header.push_back(std::move(name));
    }
    if (!scoreColumn) {
        std::string names;
        for (const auto& h : header) names += (names.empty() ? "" : ", ") + h;
        return Error{source + " line " + std::to_string(first->line) +
                     ": the header has no \"score\" column (it has: " + names + ")"};
    }

    SampleCollector out(source + " ", scale);
    for (auto it = first + 1; it != records.end(); ++it) {
        if (it->blank) continue;
        const std::string at = "line " + std::to_string(it->line);
        if (it->fields.size() != header.size())
            return out.fail(at, "has " + std::to_string(it->fields.size()) + " fields, the header has " +
                                    std::to_string(header.size()));
        std::optional<std::string> id;
        if (idColumn) {
            id = text::trim(it->fields[*idColumn]);
            if (id->empty()) return out.fail(at, "the id is empty");
        }
        const std::string& raw = it->fields[*scoreColumn];
        const auto score = parseNumber(raw);
        if (!score)
            return out.fail(
                at, text::trim(raw).empty() ? "the score is empty" : "score " + quote(raw) + " is not a number");
        Json fields = Json::object();
        for (std::size_t c = 0; c < header.size(); ++c)
            if (c != idColumn && c != scoreColumn) fields[header[c]] = it->fields[c];
        if (auto st = out.add(at, std::move(id), *score, std::move(fields)); !st) return st.error();
    }
    return out.finish(source, JudgeFileFormat::Csv, source + ": no scores after the header");
}

double mean(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sampleVariance(const std::vector<double>& v) {
    if (v.size() < 2) return 0;
    const double m = mean(v);
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return ss / static_cast<double>(v.size() - 1);
}

std::vector<std::uint64_t> histogram(const std::vector<double>& scores, const JudgeScale& scale, int& from) {
    const long long lo = std::llround(scale.min), hi = std::llround(scale.max);
    from = static_cast<int>(lo);
    if (hi < lo || static_cast<unsigned long long>(hi - lo) >= kMaxDistributionBins) return {};
    std::vector<std::uint64_t> bins(static_cast<std::size_t>(hi - lo + 1), 0);
    for (double s : scores) {
        const long long b = std::clamp(std::llround(s), lo, hi);  // round half away from zero
        ++bins[static_cast<std::size_t>(b - lo)];
    }
    return bins;
}

std::string judgePct(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f %%", v);
    return buf;
}

std::optional<JudgeFileFormat> formatFromName(std::string_view name) {
    for (auto f : {JudgeFileFormat::Auto, JudgeFileFormat::JsonLines, JudgeFileFormat::Csv, JudgeFileFormat::JsonArray})
        if (name == judgeFileFormatName(f)) return f;
    return std::nullopt;
}

}  // namespace

Status JudgeScale::validate() const {
    if (!std::isfinite(min) || !std::isfinite(max)) return Error{"the judge scale's ends must be finite numbers"};
    if (!(min < max))
        return Error{"the judge scale's minimum (" + formatNumber(min) + ") must be below its maximum (" +
                     formatNumber(max) + ")"};
    return success();
}

const char* judgeFileFormatName(JudgeFileFormat f) {
    switch (f) {
        case JudgeFileFormat::Auto:
            return "auto";
        case JudgeFileFormat::JsonLines:
            return "jsonl";
        case JudgeFileFormat::Csv:
            return "csv";
        case JudgeFileFormat::JsonArray:
            return "json";
    }
    return "auto";
}

Result<JudgeScores> parseJudgeScores(std::string_view text, const std::string& sourceName, const JudgeScale& scale,
                                     JudgeFileFormat format) {
    if (auto st = scale.validate(); !st) return st.error();
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte-order mark (spreadsheet exports)
    const std::size_t firstNonSpace = text.find_first_not_of(" \t\r\n");
    if (firstNonSpace == std::string_view::npos) return Error{emptyFile(sourceName)};
    const char first = text[firstNonSpace];

    bool detected = false;
    if (format == JudgeFileFormat::Auto) {
        const std::string ext = text::lower(std::filesystem::path(sourceName).extension().string());
        if (ext == ".csv") {
            format = JudgeFileFormat::Csv;
        } else if (ext == ".jsonl" || ext == ".ndjson") {
            format = first == '[' ? JudgeFileFormat::JsonArray : JudgeFileFormat::JsonLines;
        } else if (ext == ".json") {
            // Judge scripts often write JSON Lines under .json: the first character decides.
            format = first == '{' ? JudgeFileFormat::JsonLines : JudgeFileFormat::JsonArray;
        } else {
            format = first == '['   ? JudgeFileFormat::JsonArray
                     : first == '{' ? JudgeFileFormat::JsonLines
                                    : JudgeFileFormat::Csv;
        }
        detected = format == JudgeFileFormat::JsonLines && ext != ".jsonl" && ext != ".ndjson";
    }
    switch (format) {
        case JudgeFileFormat::JsonLines:
            return parseJsonLines(text, sourceName, scale, detected);
        case JudgeFileFormat::Csv:
            return parseCsv(text, sourceName, scale);
        case JudgeFileFormat::JsonArray:
        case JudgeFileFormat::Auto:
            break;
    }
    return parseJsonArray(text, sourceName, scale);
}

Result<JudgeScores> loadJudgeScores(const std::filesystem::path& path, const JudgeScale& scale,
                                    JudgeFileFormat format) {
    auto text = readTextFile(path);
    if (!text) return text.error();
    return parseJudgeScores(*text, path.string(), scale, format);
}

Result<JudgeScores> judgeScoresFromRecords(const std::vector<JudgeRecord>& records, const std::string& sourceName,
                                           const JudgeScale& scale) {
    if (auto st = scale.validate(); !st) return st.error();
    SampleCollector out(sourceName + " ", scale);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const JudgeRecord& r = records[i];
        Json fields = Json::object();
        if (!r.comment.empty()) fields["comment"] = r.comment;
        std::optional<std::string> id;
        if (!r.id.empty()) id = r.id;
        if (auto st = out.add("record " + std::to_string(i), std::move(id), r.value, std::move(fields)); !st)
            return st.error();
    }
    auto scores = out.finish(sourceName, JudgeFileFormat::Auto, sourceName + ": no scores");
    return scores;
}

bool haveCommonIds(const JudgeScores& a, const JudgeScores& b) {
    if (!a.hasIds || !b.hasIds) return false;
    std::unordered_set<std::string_view> ids;
    for (const auto& s : a.samples) ids.insert(s.id);
    return std::any_of(b.samples.begin(), b.samples.end(), [&](const JudgeScore& s) { return ids.count(s.id) > 0; });
}

Result<JudgeComparison> compareJudgeScores(const JudgeScores& baseline, const JudgeScores& candidate,
                                           const JudgeOptions& options) {
    if (auto st = options.thresholds.validate(); !st) return st.error();
    if (auto st = options.scale.validate(); !st) return st.error();
    if (options.bootstrapIterations <= 0) return Error{"the bootstrap needs at least one iteration"};
    if (options.topDrops < 0) return Error{"the number of biggest drops to list must not be negative"};
    if (baseline.samples.empty()) return Error{baseline.source + ": no scores"};
    if (candidate.samples.empty()) return Error{candidate.source + ": no scores"};

    JudgeComparison c;
    c.scale = options.scale;
    c.baselineSource = baseline.source;
    c.candidateSource = candidate.source;
    c.nBaseline = baseline.samples.size();
    c.nCandidate = candidate.samples.size();
    c.paired = options.pairById && baseline.hasIds && candidate.hasIds;

    std::vector<double> b, k, diffs;
    std::vector<std::pair<const JudgeScore*, const JudgeScore*>> pairs;
    if (c.paired) {
        std::unordered_map<std::string_view, const JudgeScore*> byId;
        for (const auto& s : candidate.samples) byId.emplace(s.id, &s);
        std::unordered_set<std::string_view> inBaseline;
        for (const auto& s : baseline.samples) {
            inBaseline.insert(s.id);
            if (auto it = byId.find(s.id); it != byId.end())
                pairs.emplace_back(&s, it->second);
            else
                c.onlyInBaseline.push_back(s.id);
        }
        for (const auto& s : candidate.samples)
            if (!inBaseline.count(s.id)) c.onlyInCandidate.push_back(s.id);
        if (pairs.empty())
            return Error{baseline.source + " and " + candidate.source + " have no sample id in common (e.g. " +
                         quote(baseline.samples.front().id) + " and " + quote(candidate.samples.front().id) +
                         "): are they scores of the same samples?"};
        for (const auto& [bs, cs] : pairs) {
            b.push_back(bs->score);
            k.push_back(cs->score);
            diffs.push_back(cs->score - bs->score);
        }
        c.nPairs = pairs.size();
    } else {
        for (const auto& s : baseline.samples) b.push_back(s.score);
        for (const auto& s : candidate.samples) k.push_back(s.score);
    }

    c.baselineMean = mean(b);
    c.candidateMean = mean(k);
    if (!(c.baselineMean > 0))
        return Error{baseline.source + ": the mean baseline score is " + formatNumber(c.baselineMean) +
                     "; a degradation in % needs a positive baseline mean"};
    c.meanDiff = c.paired ? mean(diffs) : c.candidateMean - c.baselineMean;
    // DESIGN.md "Degradation and the verdict": delta% = (candidate - baseline) / baseline * 100; an improvement is
    // zero degradation.
    c.deltaPct = c.meanDiff / c.baselineMean * 100;
    c.degradationPct = std::max(0.0, -c.deltaPct);

    double se = 0;
    std::uint64_t n = 0;
    if (c.paired) {
        c.meanDiffCi = bootstrapMeanCi(diffs, options.seed, options.bootstrapIterations);
        se = std::sqrt(sampleVariance(diffs) / static_cast<double>(diffs.size()));
        c.test = wilcoxonSignedRank(diffs);
        c.testName = "wilcoxon";
        n = c.nPairs;
    } else {
        c.meanDiffCi = bootstrapMeanDifferenceCi(b, k, options.seed, options.bootstrapIterations);
        se = std::sqrt(sampleVariance(b) / static_cast<double>(b.size()) +
                       sampleVariance(k) / static_cast<double>(k.size()));
        c.test = mannWhitneyU(b, k);
        c.testName = "mann_whitney";
        n = (c.nBaseline + c.nCandidate + 1) / 2;  // per side, for the samples-needed answer
    }
    c.standardErrorPct = se / c.baselineMean * 100;

    // The degradation interval: the mean difference's interval in % of the baseline mean, sign flipped.
    const double degLow = -c.meanDiffCi.high / c.baselineMean * 100 + 0.0;  // + 0.0: no "-0" in the output
    const double degHigh = -c.meanDiffCi.low / c.baselineMean * 100 + 0.0;
    const Thresholds& t = options.thresholds;
    c.confidence = confidenceAnswer(-c.deltaPct, degLow, degHigh, n, t.goBelow, t.investigateAbove);
    c.equivalence = equivalenceCheck(c.deltaPct, c.standardErrorPct, t.goBelow);

    c.pointVerdict = verdictForDegradation(c.degradationPct, t);
    c.verdict = c.pointVerdict;
    if (options.cautious && c.confidence.confidence == Confidence::Inconclusive)
        c.verdict = worst(c.pointVerdict, verdictForDegradation(std::max(0.0, c.confidence.highPct), t));

    char means[96];
    std::snprintf(means, sizeof means, "%.3f to %.3f", c.baselineMean, c.candidateMean);
    c.reason = std::string("mean judge score ") + means + " (" + judgePct(c.degradationPct) +
               " degradation; 95 % interval " + judgePct(c.confidence.lowPct) + " to " +
               judgePct(c.confidence.highPct) + ", " + bandWords(c.confidence.confidence) +
               "): " + std::string(verdictName(c.verdict));
    if (c.verdict != c.pointVerdict)
        c.reason += " (cautious: the interval reaches the " + std::string(verdictName(c.verdict)) +
                    " band; the estimate alone says " + std::string(verdictName(c.pointVerdict)) + ")";

    c.baselineDistribution = histogram(b, options.scale, c.distributionFrom);
    c.candidateDistribution = histogram(k, options.scale, c.distributionFrom);

    if (c.paired) {
        std::vector<std::size_t> drops;
        for (std::size_t i = 0; i < pairs.size(); ++i)
            if (diffs[i] < 0) drops.push_back(i);
        std::stable_sort(drops.begin(), drops.end(), [&](std::size_t x, std::size_t y) { return diffs[x] < diffs[y]; });
        if (drops.size() > static_cast<std::size_t>(options.topDrops))
            drops.resize(static_cast<std::size_t>(options.topDrops));
        for (std::size_t i : drops)
            c.biggestDrops.push_back({pairs[i].first->id, pairs[i].first->score, pairs[i].second->score,
                                      pairs[i].first->fields, pairs[i].second->fields});
    }
    return c;
}

Json judgeComparisonToJson(const JudgeComparison& c) {
    Json j = Json::object();
    j["baseline_mean"] = c.baselineMean;
    j["candidate_mean"] = c.candidateMean;
    j["delta_pct"] = c.deltaPct;
    j["degradation_pct"] = c.degradationPct;
    // Clamped at 0 like degradation_pct, so that the interval holds its own point (the sign convention).
    j["degradation_ci95"] = Json::array({std::max(0.0, c.confidence.lowPct), std::max(0.0, c.confidence.highPct)});
    j["verdict"] = verdictName(c.verdict);
    j["point_verdict"] = verdictName(c.pointVerdict);
    j["reason"] = c.reason;
    j["paired"] = c.paired;
    j["n_pairs"] = c.nPairs;
    j["n_baseline"] = c.nBaseline;
    j["n_candidate"] = c.nCandidate;
    j["mean_diff"] = c.meanDiff;
    j["ci95"] = Json::array({c.meanDiffCi.low, c.meanDiffCi.high});
    j["p_value"] = c.test.pValue;
    j["test"] = c.testName;
    j["test_exact"] = c.test.exact;
    j["z"] = c.test.z;
    j["confidence"] = confidenceName(c.confidence.confidence);
    j["samples_needed"] = c.confidence.samplesNeeded ? Json(*c.confidence.samplesNeeded) : Json(nullptr);
    j["confidence_explanation"] = c.confidence.explanation;
    j["equivalent"] = c.equivalence.equivalent;
    j["equivalence_ci90_pct"] = Json::array({c.equivalence.lowPct, c.equivalence.highPct});
    j["scale"] = Json::array({c.scale.min, c.scale.max});
    j["distribution"] = {
        {"from", c.distributionFrom}, {"baseline", c.baselineDistribution}, {"candidate", c.candidateDistribution}};
    j["only_in_baseline"] = c.onlyInBaseline;
    j["only_in_candidate"] = c.onlyInCandidate;
    Json drops = Json::array();
    for (const auto& d : c.biggestDrops)
        drops.push_back({{"id", d.id},
                         {"baseline", d.baseline},
                         {"candidate", d.candidate},
                         {"diff", d.candidate - d.baseline},
                         {"baseline_fields", d.baselineFields},
                         {"candidate_fields", d.candidateFields}});
    j["biggest_drops"] = std::move(drops);
    j["baseline_source"] = c.baselineSource;
    j["candidate_source"] = c.candidateSource;
    return Json{{"judge", std::move(j)}};
}

Json judgeSectionToJson(const JudgeSection& section) {
    auto side = [](const JudgeScores& s) {
        Json samples = Json::array();
        for (const auto& x : s.samples) {
            Json e = Json::object();
            if (!x.id.empty()) e["id"] = x.id;
            e["score"] = x.score;
            e["fields"] = x.fields;
            samples.push_back(std::move(e));
        }
        return Json{{"source", s.source}, {"format", judgeFileFormatName(s.format)}, {"samples", std::move(samples)}};
    };
    const JudgeOptions& o = section.options;
    Json j{{"scale", {{"min", o.scale.min}, {"max", o.scale.max}}},
           {"cautious", o.cautious},
           {"bootstrap", {{"seed", o.seed}, {"iterations", o.bootstrapIterations}}},
           {"top_drops", o.topDrops},
           {"baseline", side(section.baseline)},
           {"candidate", side(section.candidate)}};
    if (!o.pairById) j["pair_by_id"] = false;  // absent: paired by id whenever both sides have ids (older files)
    return j;
}

Result<JudgeSection> parseJudgeSection(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    JudgeSection s;
    JudgeOptions& o = s.options;
    auto number = [&](const Json& obj, const std::string& w, const char* key, double& out) -> Status {
        auto it = obj.find(key);
        if (it == obj.end() || !it->is_number() || !std::isfinite(it->get<double>()))
            return Error{w + "." + key + " must be a finite number"};
        out = it->get<double>();
        return success();
    };
    auto sc = j.find("scale");
    if (sc == j.end() || !sc->is_object()) return Error{where + ".scale is missing or not an object"};
    if (auto st = number(*sc, where + ".scale", "min", o.scale.min); !st) return st.error();
    if (auto st = number(*sc, where + ".scale", "max", o.scale.max); !st) return st.error();
    if (auto st = o.scale.validate(); !st) return Error{where + ".scale: " + st.error().message};
    if (auto it = j.find("cautious"); it != j.end() && !it->is_null()) {
        if (!it->is_boolean()) return Error{where + ".cautious must be true or false"};
        o.cautious = it->get<bool>();
    }
    if (auto it = j.find("bootstrap"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) return Error{where + ".bootstrap must be an object"};
        if (auto seed = it->find("seed"); seed != it->end()) {
            if (!seed->is_number_unsigned() && !(seed->is_number_integer() && seed->get<std::int64_t>() >= 0))
                return Error{where + ".bootstrap.seed must be a non-negative integer"};
            o.seed = seed->get<std::uint64_t>();
        }
        if (auto iters = it->find("iterations"); iters != it->end()) {
            if (!iters->is_number_integer() || iters->get<std::int64_t>() < 1 ||
                iters->get<std::int64_t>() > kMaxBootstrapIterations)
                return Error{where + ".bootstrap.iterations must be an integer from 1 to " +
                             std::to_string(kMaxBootstrapIterations) + " (fp8dash writes 10000), not " + iters->dump()};
            o.bootstrapIterations = iters->get<int>();
        }
    }
    if (auto it = j.find("top_drops"); it != j.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 1000000)
            return Error{where + ".top_drops must be a non-negative integer"};
        o.topDrops = it->get<int>();
    }
    if (auto it = j.find("pair_by_id"); it != j.end() && !it->is_null()) {
        if (!it->is_boolean()) return Error{where + ".pair_by_id must be true or false"};
        o.pairById = it->get<bool>();
    }
    for (auto [key, out] :
         {std::pair<const char*, JudgeScores*>{"baseline", &s.baseline}, {"candidate", &s.candidate}}) {
        const std::string w = where + "." + key;
        auto side = j.find(key);
        if (side == j.end() || !side->is_object()) return Error{w + " is missing or not an object"};
        auto src = side->find("source");
        if (src != side->end() && !src->is_string()) return Error{w + ".source must be a string"};
        const std::string source = src != side->end() ? src->get<std::string>() : std::string();
        JudgeFileFormat format = JudgeFileFormat::Auto;
        if (auto f = side->find("format"); f != side->end() && !f->is_null()) {
            const auto parsed = f->is_string() ? formatFromName(f->get<std::string>()) : std::nullopt;
            if (!parsed) return Error{w + ".format must be one of \"jsonl\", \"csv\", \"json\", \"auto\""};
            format = *parsed;
        }
        auto samples = side->find("samples");
        if (samples == side->end() || !samples->is_array()) return Error{w + ".samples is missing or not an array"};
        SampleCollector collector(w + ".samples", o.scale);
        for (std::size_t i = 0; i < samples->size(); ++i) {
            const Json& e = (*samples)[i];
            const std::string at = "[" + std::to_string(i) + "]";
            if (!e.is_object()) return collector.fail(at, "must be an object");
            std::optional<std::string> id;
            if (auto it = e.find("id"); it != e.end()) {
                auto r = idFromJson(*it);
                if (!r) return collector.fail(at, r.error().message);
                id = std::move(*r);
            }
            auto score = e.find("score");
            if (score == e.end() || !score->is_number()) return collector.fail(at, "score must be a number");
            Json fields = Json::object();
            if (auto f = e.find("fields"); f != e.end() && !f->is_null()) {
                if (!f->is_object()) return collector.fail(at, "fields must be an object");
                fields = *f;
            }
            if (auto st = collector.add(at, std::move(id), score->get<double>(), std::move(fields)); !st)
                return st.error();
        }
        auto scores = collector.finish(source, format, w + ".samples is empty");
        if (!scores) return scores.error();
        *out = std::move(*scores);
    }
    return s;
}

}  // namespace fp8dash
