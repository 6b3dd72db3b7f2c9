// lm-eval --log_samples reader. Format: ../shared/notes/statistics-and-samples.md §2 (row keys, hashes, the
// "filter"/"metrics" fields added in lm-eval 0.4.7, file names samples_<task>_<date_id>.jsonl).
#include "fp8dash/core/sample_logs.h"

#include "evals/sample_row_fast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace fp8dash {
namespace fs = std::filesystem;

namespace {

bool sampleIsDigit(char c) {
    return c >= '0' && c <= '9';
}

// lm-eval's date_id: datetime.now().isoformat().replace(":", "-"), i.e. YYYY-MM-DDTHH-MM-SS[.ffffff].
bool isDateId(std::string_view s) {
    static constexpr std::string_view kShape = "dddd-dd-ddTdd-dd-dd";
    if (s.size() < kShape.size()) return false;
    for (std::size_t i = 0; i < kShape.size(); ++i) {
        if (kShape[i] == 'd' ? !sampleIsDigit(s[i]) : s[i] != kShape[i]) return false;
    }
    std::string_view rest = s.substr(kShape.size());
    if (rest.empty()) return true;
    if (rest.front() != '.' || rest.size() == 1) return false;
    return std::all_of(rest.begin() + 1, rest.end(), sampleIsDigit);
}

std::string_view stemOf(std::string_view name) {
    if (name.ends_with(".jsonl")) return name.substr(0, name.size() - 6);
    if (name.ends_with(".json")) return name.substr(0, name.size() - 5);
    return name;
}

// samples_<task>_<date>.jsonl -> {task, date}; nullopt for other names. Task names hold underscores, dates do not.
std::optional<std::pair<std::string, std::string>> splitSamplesName(std::string_view name) {
    if (!name.starts_with("samples_") || !name.ends_with(".jsonl")) return std::nullopt;
    const std::string_view middle = stemOf(name).substr(8);
    const auto cut = middle.rfind('_');
    if (cut == std::string_view::npos || cut == 0 || !isDateId(middle.substr(cut + 1))) return std::nullopt;
    return std::make_pair(std::string(middle.substr(0, cut)), std::string(middle.substr(cut + 1)));
}

std::string joinedSamples(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
}

// Top-level row keys that are not metric values (lm_eval/evaluator.py).
bool isRowBookkeeping(const std::string& key) {
    static const std::set<std::string> kKeys = {
        "doc_id", "doc",     "target",   "arguments",   "resps",       "filtered_resps",
        "filter", "metrics", "doc_hash", "prompt_hash", "target_hash", "scores_per_repeat"};
    return kKeys.count(key) != 0;
}

std::optional<double> sampleNumber(const Json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
    if (v.is_string()) {  // parseJsonText turns Python's bare NaN/Infinity into these strings
        const auto& s = v.get_ref<const std::string&>();
        if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

// "scores_per_repeat": {"<metric>": [score of repeat 1, 2, ...]} (lm-eval 0.5 previews, result_schema.SampleResult).
Status readRepeats(const Json& row, const std::string& where, SampleRow& out) {
    const auto it = row.find("scores_per_repeat");
    if (it == row.end() || it->is_null()) return success();
    if (!it->is_object())
        return Error{where + ": field \"scores_per_repeat\" must be an object of score lists by metric, found " +
                     it->type_name()};
    for (const auto& [metric, list] : it->items()) {
        if (!list.is_array())
            return Error{where + ": field scores_per_repeat." + metric + " must be a list of scores, found " +
                         list.type_name()};
        std::vector<double> scores;
        for (const auto& v : list) {
            auto x = sampleNumber(v);
            if (!x)
                return Error{where + ": field scores_per_repeat." + metric + " must hold numbers, found " +
                             (v.is_string() ? "the string " + v.dump() : std::string(v.type_name()))};
            scores.push_back(*x);
        }
        out.repeats.emplace_back(metric, std::move(scores));
    }
    return success();
}

// Builds a SampleLog row by row; shared by the streaming file reader and the in-memory parser.
class RowReader {
public:
    RowReader(std::string source, const SampleTaskInfo& info) : m_source(std::move(source)), m_info(info) {
        m_log.task = info.task;
        m_log.path = m_source;
        m_filters = info.filters.empty() ? std::vector<std::string>{"none"} : info.filters;
    }

    // `capacity`: how many bytes from line.data() may be read (the fast path reads up to SIMDJSON_PADDING past
    // the line); 0 when the line is not padded, which sends it to the general reader.
    // `offset`: where the line starts in the file (or text), kept in the row with its length (SampleRow::offset).
    Status add(std::string_view line, std::uint64_t lineNo, std::uint64_t offset, std::size_t capacity = 0) {
        m_lineOffset = offset;
        m_lineLength = line.size();
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos) return success();
        if (capacity >= line.size() + simdjson::SIMDJSON_PADDING &&
            m_fast.parse(line.data(), line.size(), capacity, m_fastRow)) {
            bool skip = false;
            if (auto s = admit(m_fastRow.row, m_fastRow.labelled, m_fastRow.filter, lineNo, skip); !s || skip) return s;
            commit(std::move(m_fastRow.row));
            return success();
        }
        return addGeneral(line, lineNo);
    }

    // The general reader: the whole row parsed by parseJsonText. It decides every row the fast path leaves, and
    // so says what is wrong with a malformed one.
    Status addGeneral(std::string_view line, std::uint64_t lineNo) {
        const std::string where = m_source + " line " + std::to_string(lineNo);
        auto parsed = parseJsonText(line, where);
        if (!parsed) return parsed.error();
        const Json& j = *parsed;
        if (!j.is_object()) return Error{where + ": expected a JSON object (one sample), found " + j.type_name()};

        SampleRow row;
        const auto id = j.find("doc_id");
        if (id == j.end()) return Error{where + ": field \"doc_id\" is missing"};
        if (id->is_number_integer()) {
            row.docId = id->get<long long>();
        } else if (id->is_number_float() && std::isfinite(id->get<double>()) &&
                   id->get<double>() == std::floor(id->get<double>()) && std::fabs(id->get<double>()) < 9e15) {
            row.docId = static_cast<long long>(id->get<double>());
        } else {
            return Error{where + ": field \"doc_id\" must be an integer document index, found " +
                         (id->is_string() ? "the string " + id->dump() : std::string(id->type_name()))};
        }
        for (auto [key, target] : {std::pair{"doc_hash", &row.docHash}, std::pair{"prompt_hash", &row.promptHash},
                                   std::pair{"target_hash", &row.targetHash}}) {
            const auto h = j.find(key);
            if (h == j.end() || h->is_null()) continue;
            if (!h->is_string())
                return Error{where + ": field \"" + key + "\" must be a hex string, found " + h->type_name()};
            *target = h->get<std::string>();
        }

        const auto f = j.find("filter");
        const bool labelled = f != j.end();
        if (labelled && !f->is_string())
            return Error{where + ": field \"filter\" must be a filter name (string), found " + f->type_name()};
        bool skip = false;
        if (auto s = admit(row, labelled, labelled ? f->get<std::string>() : std::string(), lineNo, skip); !s || skip)
            return s;

        if (auto ok = readRepeats(j, where, row); !ok) return ok.error();
        std::set<std::string> listed;
        if (const auto m = j.find("metrics"); m != j.end() && m->is_array())
            for (const auto& name : *m)
                if (name.is_string()) listed.insert(name.get<std::string>());
        for (const auto& [key, v] : j.items()) {
            if (isRowBookkeeping(key)) continue;
            if (v.is_number())
                row.values.emplace_back(key, v.get<double>());
            else if (v.is_boolean())
                row.values.emplace_back(key, v.get<bool>() ? 1.0 : 0.0);
            else if (v.is_string() && listed.count(key)) {
                // parseJsonText turns Python's bare NaN/Infinity into these strings.
                const auto& s = v.get_ref<const std::string&>();
                if (s == "NaN")
                    row.values.emplace_back(key, std::numeric_limits<double>::quiet_NaN());
                else if (s == "Infinity")
                    row.values.emplace_back(key, std::numeric_limits<double>::infinity());
                else if (s == "-Infinity")
                    row.values.emplace_back(key, -std::numeric_limits<double>::infinity());
            }
        }
        commit(std::move(row));
        return success();
    }

    // The layout and filter rules, shared by both paths: sets row.filter and row.line, or `skip` for a repeated
    // (doc_id, filter) pair.
    Status admit(SampleRow& row, bool labelled, std::string filter, std::uint64_t lineNo, bool& skip) {
        row.line = lineNo;
        const auto where = [&] { return m_source + " line " + std::to_string(lineNo); };
        if (m_firstLine == 0) {
            m_firstLine = lineNo;
            m_log.labelled = labelled;
        } else if (labelled != m_log.labelled) {
            return Error{where() +
                         (labelled ? ": this row has a \"filter\" field but the rows before it (from line "
                                   : ": this row has no \"filter\" field but the rows before it (from line ") +
                         std::to_string(m_firstLine) + ") " + (labelled ? "do not" : "do") +
                         "; the file mixes two lm-eval versions' layouts"};
        }
        if (labelled) {
            row.filter = std::move(filter);
            auto [it, fresh] = m_seen.try_emplace({row.docId, row.filter}, lineNo);
            if (!fresh) {
                if (m_repeats++ == 0) m_firstRepeat = {lineNo, it->second};
                skip = true;
            }
            return success();
        }
        // lm-eval <= 0.4.6 looped over the filters outside the documents: the k-th row of a doc is filter k.
        auto& count = m_perDoc[row.docId];
        if (count >= m_filters.size())
            return Error{where() + ": doc_id " + std::to_string(row.docId) + " appears more than " +
                         std::to_string(m_filters.size()) + " time(s), but task " + m_info.task + " has " +
                         std::to_string(m_filters.size()) + " filter(s) (" + joinedSamples(m_filters) +
                         "); rows without a \"filter\" field (lm-eval 0.4.6 and older) are assigned to the "
                         "filters in order, one row per filter"};
        row.filter = m_filters[count++];
        return success();
    }

    void commit(SampleRow&& row) {
        row.offset = m_lineOffset;
        row.length = m_lineLength;
        if (std::find(m_log.filters.begin(), m_log.filters.end(), row.filter) == m_log.filters.end())
            m_log.filters.push_back(row.filter);
        m_log.rows.push_back(std::move(row));
    }

    SampleLog finish() {
        if (m_log.rows.empty()) m_log.warnings.push_back(m_source + ": the file holds no samples");
        if (m_repeats > 0)
            m_log.warnings.push_back(m_source + ": " + std::to_string(m_repeats) +
                                     " row(s) repeat a (doc_id, filter) pair seen before (first at line " +
                                     std::to_string(m_firstRepeat.first) + ", a repeat of line " +
                                     std::to_string(m_firstRepeat.second) +
                                     "); the first row of each pair was kept (lm-eval appends to these files)");
        if (!m_log.labelled && !m_log.rows.empty()) {
            std::size_t short_ = 0;
            long long firstShort = 0;
            for (const auto& [doc, count] : m_perDoc)
                if (count < m_filters.size() && short_++ == 0) firstShort = doc;
            if (short_ > 0)
                m_log.warnings.push_back(m_source + ": " + std::to_string(short_) + " doc_id(s) (first " +
                                         std::to_string(firstShort) + ") have fewer rows than the " +
                                         std::to_string(m_filters.size()) + " filters of " + m_info.task + " (" +
                                         joinedSamples(m_filters) + "); their last filters have no rows");
            m_log.warnings.push_back(
                m_source + ": rows carry no \"filter\" field (lm-eval 0.4.6 or older); assigned by order to " +
                joinedSamples(m_filters) +
                (m_info.filtersFromConfig ? " (the config's filter_list)"
                                          : " (the results file's key order: no filter_list)"));
        }
        return std::move(m_log);
    }

private:
    std::string m_source;
    const SampleTaskInfo& m_info;
    std::vector<std::string> m_filters;
    SampleLog m_log;
    std::uint64_t m_firstLine = 0;
    std::uint64_t m_lineOffset = 0;  // the line being added: where it starts, and its length
    std::uint64_t m_lineLength = 0;
    std::map<std::pair<long long, std::string>, std::uint64_t> m_seen;  // labelled: (doc, filter) -> line
    std::unordered_map<long long, std::size_t> m_perDoc;                // unlabelled: rows per doc
    std::uint64_t m_repeats = 0;
    std::pair<std::uint64_t, std::uint64_t> m_firstRepeat;
    detail::FastRowParser m_fast;
    detail::FastRow m_fastRow;
};

}  // namespace

const double* SampleRow::value(std::string_view metric) const {
    for (const auto& [name, v] : values)
        if (name == metric) return &v;
    return nullptr;
}

std::vector<const SampleRow*> SampleLog::rowsFor(std::string_view filter) const {
    std::vector<const SampleRow*> out;
    for (const auto& r : rows)
        if (r.filter == filter) out.push_back(&r);
    return out;
}

const std::vector<double>* SampleRow::repeatScores(std::string_view metric) const {
    for (const auto& [name, scores] : repeats)
        if (name == metric) return &scores;
    return nullptr;
}

const SampleLogFile* SampleLogIndex::file(std::string_view task) const {
    for (const auto& f : files)
        if (f.task == task) return &f;
    return nullptr;
}

const SampleTaskInfo* SampleLogIndex::taskInfo(std::string_view task) const {
    for (const auto& t : tasks)
        if (t.task == task) return &t;
    return nullptr;
}

std::string dateIdOfFileName(std::string_view fileName) {
    const std::string_view stem = stemOf(fileName);
    const auto cut = stem.rfind('_');
    if (cut == std::string_view::npos) return {};
    const std::string_view date = stem.substr(cut + 1);
    return isDateId(date) ? std::string(date) : std::string();
}

SampleTaskInfo sampleTaskInfo(const Json& resultsDoc, const TaskResult& task) {
    SampleTaskInfo info;
    info.task = task.name;
    if (resultsDoc.is_object()) {
        const auto configs = resultsDoc.find("configs");
        if (configs != resultsDoc.end() && configs->is_object()) {
            const auto cfg = configs->find(task.name);
            if (cfg != configs->end() && cfg->is_object()) {
                const auto list = cfg->find("filter_list");
                if (list != cfg->end() && list->is_array()) {
                    for (const auto& entry : *list) {
                        if (!entry.is_object()) continue;
                        const auto name = entry.find("name");
                        if (name != entry.end() && name->is_string()) info.filters.push_back(name->get<std::string>());
                    }
                }
            }
        }
    }
    info.filtersFromConfig = !info.filters.empty();
    if (!info.filtersFromConfig)
        for (const auto& m : task.metrics)
            if (std::find(info.filters.begin(), info.filters.end(), m.filter) == info.filters.end())
                info.filters.push_back(m.filter);
    return info;
}

Result<SampleLogIndex> findSampleLogs(const fs::path& resultsFile) {
    auto text = readTextFile(resultsFile);
    if (!text) return text.error();
    auto doc = parseJsonText(*text, resultsFile.string());
    if (!doc) return doc.error();
    auto run = parseLmEvalJson(*doc, resultsFile.string());
    if (!run) return run.error();

    SampleLogIndex index;
    index.resultsFile = resultsFile;
    for (const auto& t : run->tasks) index.tasks.push_back(sampleTaskInfo(*doc, t));
    const std::string name = resultsFile.filename().string();
    index.dateId = dateIdOfFileName(name);

    std::map<std::string, std::vector<std::string>> otherDates;  // date -> tasks
    std::error_code ec;
    const fs::path dir = resultsFile.has_parent_path() ? resultsFile.parent_path() : fs::path(".");
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::error_code fec;
        if (!e.is_regular_file(fec)) continue;
        const auto parts = splitSamplesName(e.path().filename().string());
        if (!parts) continue;
        if (!index.dateId.empty() && parts->second == index.dateId)
            index.files.push_back({parts->first, e.path()});
        else
            otherDates[parts->second].push_back(parts->first);
    }
    if (ec) return Error{dir.string() + ": cannot list the folder for sample logs: " + ec.message()};
    std::sort(index.files.begin(), index.files.end(),
              [](const SampleLogFile& a, const SampleLogFile& b) { return a.task < b.task; });

    std::vector<std::string> dates;
    for (const auto& [date, tasks] : otherDates) dates.push_back(date);
    if (index.dateId.empty()) {
        index.notes.push_back(name + " carries no date id in its name, so no samples_<task>_<date>.jsonl can be " +
                              "matched to it" +
                              (dates.empty() ? "" : " (dates beside it: " + joinedSamples(dates) + ")"));
    } else if (index.files.empty()) {
        index.notes.push_back(dates.empty() ? "no samples_<task>_" + index.dateId + ".jsonl beside " + name +
                                                  " (lm-eval writes them with --log_samples)"
                                            : "no sample log beside " + name + " carries its date id " + index.dateId +
                                                  " (sample logs of other runs: " + joinedSamples(dates) + ")");
    } else if (!dates.empty()) {
        index.notes.push_back("sample logs of other runs beside " + name + " were left out (dates " +
                              joinedSamples(dates) + ")");
    }
    return index;
}

Result<SampleLogIndex> findSampleLogsForRunPath(const fs::path& runPath) {
    auto run = readLmEvalPath(runPath);
    if (!run) return run.error();
    return findSampleLogs(fs::path(run->sourcePath));
}

Result<SampleLogIndex> findSampleLogs(const LmEvalResults& run) {
    std::error_code ec;
    if (run.sourcePath.empty() || !fs::is_regular_file(fs::path(run.sourcePath), ec)) {
        SampleLogIndex index;
        index.notes.push_back("the run was not read from a results file on disk" +
                              (run.sourcePath.empty() ? std::string() : " (" + run.sourcePath + ")") +
                              ", so its sample logs cannot be found");
        return index;
    }
    return findSampleLogs(fs::path(run.sourcePath));
}

namespace {

// Calls add(start, length, 1-based line number) for each '\n'-separated line of text, stopping at the first error.
template <typename Add>
Status forEachLine(std::string_view text, const Add& add) {
    std::uint64_t lineNo = 0;
    for (std::size_t start = 0; start < text.size();) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        if (auto s = add(start, end - start, ++lineNo); !s) return s.error();
        start = end + 1;
    }
    return success();
}

}  // namespace

Result<SampleLog> parseSampleLogText(std::string_view text, const std::string& sourceName, const SampleTaskInfo& info) {
    // One padded copy, so that the fast path may read past each line's end.
    std::string padded;
    padded.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    padded.append(text);
    padded.append(simdjson::SIMDJSON_PADDING, ' ');
    RowReader reader(sourceName, info);
    auto read = forEachLine(text, [&](std::size_t start, std::size_t length, std::uint64_t lineNo) {
        return reader.add(std::string_view(padded.data() + start, length), lineNo, start, padded.size() - start);
    });
    if (!read) return read.error();
    return reader.finish();
}

namespace detail {

Result<SampleLog> parseSampleLogTextGeneral(std::string_view text, const std::string& sourceName,
                                            const SampleTaskInfo& info) {
    RowReader reader(sourceName, info);
    auto read = forEachLine(text, [&](std::size_t start, std::size_t length, std::uint64_t lineNo) {
        return reader.add(text.substr(start, length), lineNo, start);  // unpadded: the general reader
    });
    if (!read) return read.error();
    return reader.finish();
}

}  // namespace detail

Result<SampleLog> readSampleLog(const fs::path& file, const SampleTaskInfo& info, const SampleProgressFn& progress) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return Error{file.string() + ": no such file"};
    const std::uint64_t total = fs::file_size(file, ec);
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{file.string() + ": cannot be opened"};
    RowReader reader(file.string(), info);
    // Read in 1 MB chunks; each line is parsed in place. The buffer keeps SIMDJSON_PADDING readable bytes after
    // the data, and grows when one line does not fit. It is the thread's, kept for its next file: fresh pages cost
    // a fault each, which in a VM is a tenth of the reading.
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    thread_local std::vector<char> buffer;
    if (buffer.size() < kChunk + simdjson::SIMDJSON_PADDING) buffer.resize(kChunk + simdjson::SIMDJSON_PADDING);
    std::size_t held = 0;  // bytes of the file in the buffer, from its start
    std::uint64_t lineNo = 0, done = 0, reported = 0;
    bool atEnd = false;
    while (!atEnd) {
        if (buffer.size() - simdjson::SIMDJSON_PADDING - held < kChunk / 2)
            buffer.resize(held + kChunk + simdjson::SIMDJSON_PADDING);
        in.read(buffer.data() + held, static_cast<std::streamsize>(buffer.size() - simdjson::SIMDJSON_PADDING - held));
        if (in.bad()) return Error{file.string() + ": read failed at line " + std::to_string(lineNo + 1)};
        const std::size_t before = held;
        held += static_cast<std::size_t>(in.gcount());
        // JSON text never holds a NUL byte (a string escapes it as \u0000), so one ends the read at once: a file cut
        // short and zero-filled, or padded with 2 GiB of NULs, would otherwise be gathered whole as one line (2.1 GB
        // and 108 s before the parser could say no). The buffer starts at a line's start: the line is counted there.
        if (const void* nul = std::memchr(buffer.data() + before, '\0', held - before)) {
            const auto at = static_cast<std::size_t>(static_cast<const char*>(nul) - buffer.data());
            const auto line =
                lineNo + 1 + static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + at, '\n'));
            return Error{file.string() + " line " + std::to_string(line) + ": a NUL byte (at byte " +
                         std::to_string(done + at) +
                         " of the file): not JSON Lines; the file is damaged (cut short and zero-filled?)"};
        }
        atEnd = !in;
        std::fill_n(buffer.begin() + static_cast<std::ptrdiff_t>(held), simdjson::SIMDJSON_PADDING, ' ');
        std::size_t start = 0;
        while (start < held) {
            const void* nl = std::memchr(buffer.data() + start, '\n', held - start);
            if (!nl && !atEnd) break;  // the rest of this line comes with the next chunk
            const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buffer.data()) : held;
            const std::string_view line(buffer.data() + start, end - start);
            if (auto s = reader.add(line, ++lineNo, done, buffer.size() - start); !s) return s.error();
            done += end - start + 1;
            start = end + 1;
            if (progress && done - reported >= (1u << 20)) {
                reported = done;
                if (!progress(std::min(done, total), total)) return Error{file.string() + ": reading was cancelled"};
            }
        }
        std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(std::min(start, held)),
                  buffer.begin() + static_cast<std::ptrdiff_t>(held), buffer.begin());
        held -= std::min(start, held);
    }
    if (progress && !progress(total, total)) return Error{file.string() + ": reading was cancelled"};
    return reader.finish();
}

}  // namespace fp8dash
