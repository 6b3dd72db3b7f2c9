// The domain eval with an LLM judge (judge_runner.h). Work units are (sample, variant) pairs on a bounded pool of
// threads; every finished unit is one line appended to its file, so a cancel or a crash keeps everything done.
#include "fp8dash/core/judge_runner.h"

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/json_text.h"
#include "text_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace fp8dash {
namespace {

namespace fs = std::filesystem;
using OJson = nlohmann::ordered_json;
using text::trim;

constexpr const char* kVariantNames[2] = {"baseline", "candidate"};
constexpr int kMaxConcurrency = 64;
constexpr int kRunFormatVersion = 1;

std::string judgeEnvOr(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// An endpoint's base URL without a trailing "/", "/v1" or "/v1/chat/completions": the user may give any of them.
std::string endpointBase(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    for (const char* suffix : {"/chat/completions", "/v1"}) {
        const std::string s = suffix;
        if (url.size() >= s.size() && url.compare(url.size() - s.size(), s.size(), s) == 0)
            url.erase(url.size() - s.size());
    }
    return url;
}

// What may be shown or saved: no user info, no query string (some gateways take keys there).
std::string shownUrl(const std::string& url) {
    return HttpClient::displayUrl(url.substr(0, url.find('?')));
}

std::string snippet(const std::string& body, std::size_t limit = 200) {
    std::string s = trim(body);
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (s.size() > limit) s = s.substr(0, limit) + "…";
    return s;
}

// An OpenAI-style error body {"error": {"message": ...}} as its message, otherwise the start of the body.
std::string errorText(const std::string& body) {
    const auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_object()) {
        if (auto e = j.find("error"); e != j.end()) {
            if (e->is_object() && e->contains("message") && (*e)["message"].is_string())
                return snippet((*e)["message"].get<std::string>());
            if (e->is_string()) return snippet(e->get<std::string>());
        }
        if (auto m = j.find("message"); m != j.end() && m->is_string()) return snippet(m->get<std::string>());
    }
    return snippet(body);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::round(s * 1e6) / 1e6;
}

std::string dumpLine(const OJson& j) {
    return j.dump(-1, ' ', false, OJson::error_handler_t::replace) + "\n";
}

struct Endpoint {
    std::string base;
    std::string model;
    std::string completionsUrl;
    std::string shownCompletions;
    HttpClient http;
};

HttpOptions optionsFor(const HttpOptions& tmpl, const std::string& key) {
    HttpOptions o = tmpl;
    if (!key.empty()) {
        o.auth.kind = HttpAuth::Kind::Bearer;
        o.auth.token = key;
    } else {
        o.auth = {};
    }
    return o;
}

// GET /v1/models: the first model id.
Result<std::string> discoverModel(const HttpClient& http, const std::string& base, const std::string& role,
                                  const Progress& progress) {
    const std::string url = base + "/v1/models";
    const std::string shown = "GET " + shownUrl(url);
    const std::string hint = " (give the model name with --" + role + "-model)";
    auto r = http.get(url, {}, progress);
    if (!r) return Error{r.error().message + hint};
    if (r->status != 200)
        return Error{shown + ": HTTP " + std::to_string(r->status) + ": " + errorText(r->body) + hint};
    auto parsed = parseAnswerJson(r->body, shown);  // a repeated key is refused, naming it
    if (!parsed) return Error{parsed.error().message + hint};
    const auto& j = *parsed;
    if (j.is_discarded()) return Error{shown + ": the reply is not JSON (" + snippet(r->body) + ")" + hint};
    const auto data = j.find("data");
    if (!j.is_object() || data == j.end() || !data->is_array())
        return Error{shown + ": the reply has no \"data\" list of models" + hint};
    if (data->empty()) return Error{shown + ": the server lists no models" + hint};
    const auto& first = (*data)[0];
    if (!first.is_object() || !first.contains("id") || !first["id"].is_string() ||
        first["id"].get<std::string>().empty())
        return Error{shown + ": data[0].id is missing or not a string" + hint};
    return first["id"].get<std::string>();
}

struct ChatReply {
    std::string content;
    std::string finishReason;
    int attempts = 0;
    double latencyS = 0;  // the whole call, retries included (attempts > 1 says so)
};

// One chat completion. HttpClient retries 429 itself (honouring Retry-After) but not 5xx on a POST, since a POST is
// not idempotent in general. A chat completion at temperature 0 has no side effect we care about, so 5xx replies are
// retried here, boundedly, with exponential backoff, and the wait honours Cancel.
Result<ChatReply> chatCompletion(const Endpoint& ep, const OJson& messages, const JudgeRunSettings& st,
                                 const Progress& progress) {
    const OJson body{{"model", ep.model}, {"messages", messages}, {"temperature", 0}, {"max_tokens", st.maxTokens}};
    const std::string text = body.dump(-1, ' ', false, OJson::error_handler_t::replace);
    const std::string shown = "POST " + ep.shownCompletions;
    const auto start = std::chrono::steady_clock::now();
    ChatReply out;
    for (int retry = 0;; ++retry) {
        auto r = ep.http.post(ep.completionsUrl, text, "application/json", progress);
        if (!r) return Error{r.error().message};
        out.attempts += r->attempts;
        const std::string after = out.attempts > 1 ? " (after " + std::to_string(out.attempts) + " attempts)" : "";
        if (r->status >= 500 && r->status <= 599 && retry < st.serverErrorRetries) {
            const double delay =
                std::min(ep.http.options().maxRetryDelayS, ep.http.options().retryBaseDelayS * std::pow(2.0, retry));
            if (!sleepCancellable(delay, progress)) return Error{shown + ": cancelled"};
            continue;
        }
        if (r->status != 200)
            return Error{shown + ": HTTP " + std::to_string(r->status) + ": " + errorText(r->body) + after};
        auto parsed = parseAnswerJson(r->body, shown);  // a repeated key is refused, naming it
        if (!parsed) return parsed.error();
        const auto& j = *parsed;
        if (j.is_discarded())
            return Error{shown + ": the reply is not JSON, not an OpenAI chat completion (" + snippet(r->body) + ")"};
        const auto choices = j.is_object() ? j.find("choices") : j.end();
        if (choices == j.end() || !choices->is_array() || choices->empty())
            return Error{shown + ": the reply has no \"choices\" (" + snippet(r->body) + ")"};
        const auto& c0 = (*choices)[0];
        if (c0.is_object() && c0.contains("finish_reason") && c0["finish_reason"].is_string())
            out.finishReason = c0["finish_reason"].get<std::string>();
        if (!c0.is_object() || !c0.contains("message") || !c0["message"].is_object())
            return Error{shown + ": choices[0].message is missing"};
        const auto& msg = c0["message"];
        if (!msg.contains("content") || !msg["content"].is_string())
            return Error{shown + ": choices[0].message.content is " +
                         (msg.contains("content") && msg["content"].is_null()
                              ? "null (finish_reason \"" + out.finishReason + "\")"
                              : "missing or not a string")};
        out.content = msg["content"].get<std::string>();
        out.latencyS = secondsSince(start);
        return out;
    }
}

// Appends whole lines to a file: one write() per line on an O_APPEND descriptor, so a kill leaves at most one partial
// last line (cut off on resume). Thread-safe.
class LineAppender {
public:
    Status open(const fs::path& path, bool truncate) {
        m_path = path;
        m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0644);
        if (m_fd < 0) return Error{path.string() + ": cannot open for writing: " + std::strerror(errno)};
        return success();
    }
    ~LineAppender() {
        if (m_fd >= 0) ::close(m_fd);
    }
    Status append(const std::string& line) {
        std::lock_guard lock(m_mutex);
        std::size_t written = 0;
        while (written < line.size()) {
            const ssize_t n = ::write(m_fd, line.data() + written, line.size() - written);
            if (n < 0) {
                if (errno == EINTR) continue;
                return Error{m_path.string() + ": write failed: " + std::strerror(errno)};
            }
            written += static_cast<std::size_t>(n);
        }
        return success();
    }

private:
    fs::path m_path;
    int m_fd = -1;
    std::mutex m_mutex;
};

// A score file from an earlier run: its records, with a half-written last line (no newline: the run was killed while
// writing) cut off the file. Any other line that is not a score record is an error naming the line.
Result<std::vector<OJson>> readScoreFile(const fs::path& path) {
    std::vector<OJson> out;
    std::error_code ec;
    if (!fs::exists(path, ec)) return out;
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path.string() + ": cannot read"};
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string all = ss.str();
    const auto lastNewline = all.rfind('\n');
    const std::size_t complete = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    if (complete < all.size()) {
        fs::resize_file(path, complete, ec);
        if (ec) return Error{path.string() + ": cannot cut off the half-written last line: " + ec.message()};
    }
    std::size_t lineNo = 0, pos = 0;
    while (pos < complete) {
        const auto end = all.find('\n', pos);
        const std::string line = all.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (trim(line).empty()) continue;
        const std::string where = path.string() + " line " + std::to_string(lineNo);
        auto parsed = parseAnswerOrderedJson(line, where);  // a repeated key is refused, naming it
        if (!parsed) return parsed.error();
        OJson j = std::move(parsed).value();
        if (j.is_discarded() || !j.is_object()) return Error{where + ": not a JSON object"};
        if (!j.contains("id") || !(j["id"].is_string() || j["id"].is_number_integer()))
            return Error{where + ": \"id\" is missing or not a string or an integer"};
        if (!j.contains("score") || !j["score"].is_number_integer() || j["score"].get<int>() < 1 ||
            j["score"].get<int>() > 5)
            return Error{where + ": \"score\" is missing or not a whole number 1-5"};
        out.push_back(std::move(j));
    }
    return out;
}

// Lower-case ASCII; markdown emphasis, quotes and brackets as spaces; en and em dashes as '-'.
std::string normaliseReply(const std::string& reply) {
    std::string t;
    t.reserve(reply.size());
    for (std::size_t i = 0; i < reply.size(); ++i) {
        const auto c = static_cast<unsigned char>(reply[i]);
        if (c == 0xE2 && i + 2 < reply.size() && static_cast<unsigned char>(reply[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(reply[i + 2]) == 0x93 || static_cast<unsigned char>(reply[i + 2]) == 0x94)) {
            t += '-';
            i += 2;
        } else if (c >= 'A' && c <= 'Z') {
            t += static_cast<char>(c - 'A' + 'a');
        } else if (c != 0 && std::strchr("*_`\"#[](){}", c)) {
            t += ' ';
        } else {
            t += static_cast<char>(c);
        }
    }
    return t;
}

double numberValue(const std::string& token) {
    static const std::map<std::string, double> words{{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}};
    if (auto w = words.find(token); w != words.end()) return w->second;
    return std::strtod(token.c_str(), nullptr);
}

bool isScore(double v) {
    return v >= 1 && v <= 5 && v == std::floor(v);
}

bool isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::optional<int> parseJudgeScore(const std::string& reply) {
    static const std::string num = R"((\d+(?:\.\d+)?|one|two|three|four|five))";
    static const std::regex scale(R"(\b1\s*(?:-|to)\s*5\b)");
    static const std::regex keyword(R"(\b(?:score|rating|rated|rate|grade)\b\s*(?:[:=]|-|\bis\b|\bof\b|\bat\b)?\s*)" +
                                    num + R"(\b)");
    static const std::regex outOf(num + R"(\s*(?:/|out of)\s*(\d+|five|ten)\b)");

    const std::string t = std::regex_replace(normaliseReply(reply), scale, " ");

    // Rule 1: explicit forms.
    std::set<double> explicitValues;
    for (auto it = std::sregex_iterator(t.begin(), t.end(), keyword); it != std::sregex_iterator(); ++it)
        explicitValues.insert(numberValue((*it)[1].str()));
    for (auto it = std::sregex_iterator(t.begin(), t.end(), outOf); it != std::sregex_iterator(); ++it) {
        const std::string denominator = (*it)[2].str();
        if (denominator == "5" || denominator == "five")
            explicitValues.insert(numberValue((*it)[1].str()));
        else if (denominator == "10" || denominator == "ten" || denominator == "100")
            explicitValues.insert(-1);
        // Other denominators ("3 out of 4 facts") are counts, not a score form.
    }
    if (!explicitValues.empty()) {
        if (explicitValues.size() == 1 && isScore(*explicitValues.begin()))
            return static_cast<int>(*explicitValues.begin());
        return std::nullopt;
    }

    // Rule 2: a lone number word, or the only standalone number.
    std::string whole = trim(t);
    while (!whole.empty() && (whole.back() == '.' || whole.back() == '!')) whole.pop_back();
    if (whole == "one" || whole == "two" || whole == "three" || whole == "four" || whole == "five")
        return static_cast<int>(numberValue(whole));
    std::set<double> values;
    for (std::size_t i = 0; i < t.size();) {
        if (!(t[i] >= '0' && t[i] <= '9') || (i > 0 && isAlnum(t[i - 1]))) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        if (i + 1 < t.size() && t[i] == '.' && t[i + 1] >= '0' && t[i + 1] <= '9') {
            ++i;
            while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        }
        if (i < t.size() && isAlnum(t[i])) continue;  // "4th", "3b": not a standalone number
        values.insert(std::strtod(t.substr(start, i - start).c_str(), nullptr));
    }
    if (values.size() == 1 && isScore(*values.begin())) return static_cast<int>(*values.begin());
    return std::nullopt;
}

std::string fillJudgeRubric(const std::string& rubric, const JudgeSample& sample, const std::string& answer) {
    const std::pair<const char*, const std::string*> fields[] = {
        {"{prompt}", &sample.prompt}, {"{expected}", &sample.expected}, {"{answer}", &answer}};
    std::string out;
    for (std::size_t i = 0; i < rubric.size();) {
        bool replaced = false;
        for (const auto& [name, value] : fields) {
            const std::size_t n = std::strlen(name);
            if (rubric.compare(i, n, name) == 0) {
                out += *value;
                i += n;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += rubric[i++];
    }
    return out;
}

Result<std::vector<JudgeSample>> readJudgeSamples(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return Error{path + ": the samples file does not exist"};
    if (fs::is_directory(path, ec)) return Error{path + ": is a folder, expected a samples file (JSON Lines)"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot read the samples file"};
    std::vector<JudgeSample> out;
    std::set<std::string> ids;
    std::string line;
    for (std::size_t lineNo = 1; std::getline(in, line); ++lineNo) {
        if (trim(line).empty()) continue;
        const std::string where = path + " line " + std::to_string(lineNo);
        auto parsed = parseAnswerOrderedJson(line, where);  // a repeated key is refused, naming it
        if (!parsed) return parsed.error();
        OJson j = std::move(parsed).value();
        if (j.is_discarded()) return Error{where + ": not valid JSON (one {\"id\", \"prompt\", \"expected\"} a line)"};
        if (!j.is_object()) return Error{where + ": expected a JSON object with \"id\", \"prompt\", \"expected\""};
        JudgeSample s;
        if (!j.contains("id") || !(j["id"].is_string() || j["id"].is_number_integer()))
            return Error{where + ": \"id\" is missing or not a string or an integer"};
        s.id = j["id"];
        for (const auto& [field, target] : {std::pair{"prompt", &s.prompt}, std::pair{"expected", &s.expected}}) {
            if (!j.contains(field) || !j[field].is_string())
                return Error{where + ": \"" + field + "\" is missing or not a string"};
            *target = j[field].get<std::string>();
        }
        if (trim(s.prompt).empty()) return Error{where + ": \"prompt\" is empty"};
        if (!ids.insert(s.id.dump()).second) return Error{where + ": id " + s.id.dump() + " appears twice"};
        out.push_back(std::move(s));
    }
    if (out.empty()) return Error{path + ": no samples (expected JSON Lines with \"id\", \"prompt\", \"expected\")"};
    return out;
}

Status JudgeRunSettings::validate() const {
    if (samplesPath.empty()) return Error{"the samples file is not set"};
    const std::pair<const char*, const ChatEndpoint*> endpoints[] = {
        {"baseline", &baseline}, {"candidate", &candidate}, {"judge", &judge}};
    for (const auto& [role, ep] : endpoints) {
        if (ep->url.empty()) return Error{std::string("the ") + role + " URL is not set"};
        if (ep->url.rfind("http://", 0) != 0 && ep->url.rfind("https://", 0) != 0)
            return Error{std::string("the ") + role + " URL \"" + shownUrl(ep->url) +
                         "\" must start with http:// or https://"};
    }
    if (judge.model.empty()) return Error{"the judge model is not set"};
    if (concurrency < 1 || concurrency > kMaxConcurrency)
        return Error{"concurrency " + std::to_string(concurrency) + ": expected 1 to " +
                     std::to_string(kMaxConcurrency)};
    if (maxTokens < 1) return Error{"max_tokens " + std::to_string(maxTokens) + ": expected at least 1"};
    if (serverErrorRetries < 0) return Error{"server error retries must not be negative"};
    if (rubric.find("{answer}") == std::string::npos)
        return Error{"the judge rubric has no {answer} placeholder: the judge would not see the answer"};
    if (outDir.empty()) return Error{"the output folder is not set"};
    return success();
}

void judgeKeysFromEnvironment(JudgeRunSettings& settings) {
    const std::string fallback = judgeEnvOr("OPENAI_API_KEY");
    const std::pair<const char*, ChatEndpoint*> endpoints[] = {{"FP8DASH_BASELINE_API_KEY", &settings.baseline},
                                                               {"FP8DASH_CANDIDATE_API_KEY", &settings.candidate},
                                                               {"FP8DASH_JUDGE_API_KEY", &settings.judge}};
    for (const auto& [name, ep] : endpoints) {
        const std::string key = judgeEnvOr(name);
        ep->apiKey = key.empty() ? fallback : key;
    }
}

namespace {

// One run of the domain eval: each sample to both deployments, each answer to the judge, every result appended to
// its file as it arrives, resumable from the same folder. The steps in run()'s order; the members are the state they
// share (the counters under `m_mutex` once the parallel part starts).
class JudgeEvalRun {
public:
    JudgeEvalRun(const JudgeRunSettings& st, const Progress& progress,
                 const std::function<void(const JudgeRunCounts&)>& onCounts)
        : m_st(st), m_progress(progress), m_onCounts(onCounts) {
        for (const auto* ep : {&st.baseline, &st.candidate, &st.judge})
            if (!ep->apiKey.empty()) m_keys.push_back(ep->apiKey);
        // Work stops on the caller's Cancel or on a write failure of ours.
        m_inner.cancelled = [this] { return m_stop.load() || m_progress.isCancelled(); };
    }

    Result<JudgeRunSummary> run() {
        if (auto ok = m_st.validate(); !ok) return ok.error();
        auto samplesRead = readJudgeSamples(m_st.samplesPath);
        if (!samplesRead) return samplesRead.error();
        m_samples = std::move(samplesRead).value();
        for (auto step : {&JudgeEvalRun::connect, &JudgeEvalRun::openFolder, &JudgeEvalRun::readEarlierScores})
            if (auto ok = (this->*step)(); !ok) return ok.error();
        planTasks();
        if (auto ok = writeRunFile(false, false); !ok) return ok.error();
        for (int v = 0; v < 2; ++v)
            if (auto ok = m_scoreFiles[v].open(m_scorePaths[v], false); !ok) return ok.error();
        if (auto ok = m_failures.open(m_dir / "failures.jsonl", true); !ok) return ok.error();

        m_runStart = std::chrono::steady_clock::now();
        {
            std::lock_guard lock(m_mutex);
            m_progress(fractionDone(),
                       std::to_string(m_counts.finished()) + "/" + std::to_string(m_counts.total) + " done");
            if (m_onCounts) m_onCounts(m_counts);
        }
        runParallel(m_tasks.size(), static_cast<std::size_t>(m_st.concurrency), [this](std::size_t i) { runTask(i); });

        if (m_writeError) return *m_writeError;
        const bool cancelled = m_progress.isCancelled() && m_counts.scored + m_counts.failed < m_tasks.size();
        const bool finished = !cancelled && m_counts.failed == 0;
        if (auto ok = writeRunFile(finished, cancelled); !ok) return ok.error();
        return summary(cancelled);
    }

private:
    struct Task {
        const JudgeSample* sample;
        int variant;
    };

    // Keys must never reach a message or a file: server error bodies may echo them.
    std::string redact(std::string s) const {
        for (const auto& k : m_keys)
            for (auto p = s.find(k); p != std::string::npos; p = s.find(k, p)) s.replace(p, k.size(), "***");
        return s;
    }

    Endpoint makeEndpoint(const ChatEndpoint& c) const {
        const std::string base = endpointBase(c.url);
        return Endpoint{base, c.model, base + "/v1/chat/completions", shownUrl(base + "/v1/chat/completions"),
                        HttpClient(optionsFor(m_st.http, c.apiKey))};
    }

    // The endpoints, each deployment's model asked of the server where not given.
    Status connect() {
        m_endpoints[0].emplace(makeEndpoint(m_st.baseline));
        m_endpoints[1].emplace(makeEndpoint(m_st.candidate));
        m_judge.emplace(makeEndpoint(m_st.judge));
        for (int v = 0; v < 2; ++v) {
            Endpoint& ep = *m_endpoints[v];
            if (!ep.model.empty()) continue;
            auto model = discoverModel(ep.http, ep.base, kVariantNames[v], m_inner);
            if (!model) return Error{redact(model.error().message)};
            ep.model = *model;
        }
        m_settingsJson = {{"baseline", {{"url", shownUrl(m_endpoints[0]->base)}, {"model", m_endpoints[0]->model}}},
                          {"candidate", {{"url", shownUrl(m_endpoints[1]->base)}, {"model", m_endpoints[1]->model}}},
                          {"judge", {{"url", shownUrl(m_judge->base)}, {"model", m_judge->model}}},
                          {"rubric", m_st.rubric},
                          {"max_tokens", m_st.maxTokens},
                          {"temperature", 0}};
        return success();
    }

    // The output folder: a fresh one, or the folder of an earlier run with the same settings (resume).
    Status openFolder() {
        m_dir = m_st.outDir;
        std::error_code ec;
        fs::create_directories(m_dir, ec);
        if (ec || !fs::is_directory(m_dir))
            return Error{m_st.outDir + ": cannot create the output folder: " + ec.message()};
        m_runPath = m_dir / "run.json";
        m_scorePaths[0] = m_dir / "baseline.jsonl";
        m_scorePaths[1] = m_dir / "candidate.jsonl";
        m_started = nowIso8601Utc();
        if (!fs::exists(m_runPath, ec)) {
            for (const auto& p : m_scorePaths)
                if (fs::exists(p, ec) && fs::file_size(p, ec) > 0)
                    return Error{p.string() + " exists but " + m_runPath.string() +
                                 " does not: the folder holds another run's scores; choose another output folder"};
            return success();
        }
        auto text = readTextFile(m_runPath);
        if (!text) return text.error();
        auto parsed = parseAnswerOrderedJson(*text, m_runPath.string());  // a repeated key is refused, naming it
        if (!parsed) return parsed.error();
        OJson previous = std::move(parsed).value();
        if (previous.is_discarded() || !previous.is_object() || !previous.contains("settings"))
            return Error{m_runPath.string() + ": not a judge run file; choose another output folder"};
        if (auto ok = sameSettings(previous["settings"]); !ok) return ok;
        if (previous.contains("started") && previous["started"].is_string()) m_started = previous["started"];
        return success();
    }

    // Resuming needs the settings of the earlier run in the folder.
    Status sameSettings(const OJson& was) const {
        const auto describe = [](const OJson& j) { return j.is_string() ? j.get<std::string>() : j.dump(); };
        const auto mismatch = [&](const std::string& name, const OJson& before, const OJson& now) {
            return Error{m_runPath.string() + ": the earlier run in this folder used " + name + " \"" +
                         snippet(describe(before), 80) + "\", this one \"" + snippet(describe(now), 80) +
                         "\"; resuming needs the same settings (choose another output folder to start afresh)"};
        };
        const auto field = [](const OJson& j, const std::string& key) {
            return j.is_object() && j.contains(key) ? j[key] : OJson();
        };
        for (const auto& el : m_settingsJson.items()) {
            const OJson before = field(was, el.key());
            if (el.value().is_object()) {
                for (const auto& f : el.value().items())
                    if (field(before, f.key()) != f.value())
                        return mismatch(el.key() + " " + f.key(), field(before, f.key()), f.value());
            } else if (before != el.value()) {
                return mismatch(el.key(), before, el.value());
            }
        }
        return success();
    }

    // What earlier runs scored, per variant (by id), with the sums for the means.
    Status readEarlierScores() {
        std::map<std::string, const JudgeSample*> byId;
        for (const auto& s : m_samples) byId[s.id.dump()] = &s;
        for (int v = 0; v < 2; ++v) {
            auto records = readScoreFile(m_scorePaths[v]);
            if (!records) return records.error();
            for (const auto& r : *records) {
                const std::string key = r["id"].dump();
                if (!m_done[v].insert(key).second) continue;
                if (auto s = byId.find(key);
                    s != byId.end() && r.contains("prompt") && r["prompt"] != s->second->prompt)
                    return Error{m_scorePaths[v].string() + ": sample " + key +
                                 " has a different prompt than in the samples file now; choose another output folder"};
                m_sums[v] += r["score"].get<int>();
                ++m_scoredTotal[v];
            }
        }
        return success();
    }

    void planTasks() {
        m_counts.total = 2 * m_samples.size();
        for (const auto& s : m_samples)
            for (int v = 0; v < 2; ++v) {
                if (m_done[v].count(s.id.dump()))
                    ++m_counts.alreadyDone;
                else
                    m_tasks.push_back({&s, v});
            }
    }

    Status writeRunFile(bool finished, bool cancelled) {
        OJson run{{"format", "fp8dash-judge-run"},
                  {"version", kRunFormatVersion},
                  {"samples_file", m_st.samplesPath},
                  {"samples", m_samples.size()},
                  {"settings", m_settingsJson},
                  {"concurrency", m_st.concurrency},
                  {"started", m_started},
                  {"updated", nowIso8601Utc()},
                  {"finished", finished},
                  {"cancelled", cancelled},
                  {"counts",
                   {{"baseline", {{"scored", m_scoredTotal[0]}, {"failed", m_failedPerVariant[0]}}},
                    {"candidate", {{"scored", m_scoredTotal[1]}, {"failed", m_failedPerVariant[1]}}}}}};
        return writeFileAtomically(m_runPath, run.dump(2) + "\n");
    }

    double fractionDone() const {
        return m_counts.total ? static_cast<double>(m_counts.finished()) / static_cast<double>(m_counts.total) : 1.0;
    }

    // One sample of one variant: its answer, the judge's score (asked twice when the first reply holds none).
    void runTask(std::size_t i) {
        if (m_inner.isCancelled()) return;
        const Task& t = m_tasks[i];
        const Endpoint& ep = *m_endpoints[t.variant];
        const Endpoint& judge = *m_judge;
        auto answer =
            chatCompletion(ep, OJson::array({{{"role", "user"}, {"content", t.sample->prompt}}}), m_st, m_inner);
        if (!answer) {
            if (!m_inner.isCancelled()) fail(t, "answer", answer.error().message, nullptr, nullptr);
            return;
        }
        OJson messages =
            OJson::array({{{"role", "user"}, {"content", fillJudgeRubric(m_st.rubric, *t.sample, answer->content)}}});
        auto reply = chatCompletion(judge, messages, m_st, m_inner);
        if (!reply) {
            if (!m_inner.isCancelled()) fail(t, "judge", reply.error().message, &answer->content, nullptr);
            return;
        }
        std::optional<int> score = parseJudgeScore(reply->content);
        double judgeLatency = reply->latencyS;
        std::optional<std::string> firstReply;
        if (!score) {
            firstReply = reply->content;
            messages.push_back({{"role", "assistant"}, {"content", reply->content}});
            messages.push_back({{"role", "user"}, {"content", kJudgeStrictInstruction}});
            reply = chatCompletion(judge, messages, m_st, m_inner);
            if (!reply) {
                if (!m_inner.isCancelled())
                    fail(t, "judge", reply.error().message + " (asking again for a single score)", &answer->content,
                         &*firstReply);
                return;
            }
            judgeLatency += reply->latencyS;
            score = parseJudgeScore(reply->content);
            if (!score) {
                fail(t, "judge",
                     "the judge's reply holds no single score 1-5, twice: \"" + snippet(*firstReply, 120) +
                         "\", then \"" + snippet(reply->content, 120) + "\"",
                     &answer->content, &reply->content);
                return;
            }
        }
        OJson rec{{"id", t.sample->id},
                  {"score", *score},
                  {"prompt", t.sample->prompt},
                  {"expected", t.sample->expected},
                  {"answer", answer->content},
                  {"judge_reply", reply->content},
                  {"latency_s", answer->latencyS},
                  {"judge_latency_s", std::round(judgeLatency * 1e6) / 1e6},
                  {"model", ep.model},
                  {"judge_model", judge.model},
                  {"attempts", answer->attempts},
                  {"finish_reason", answer->finishReason},
                  {"judge_reasked", firstReply.has_value()}};
        if (firstReply) rec["judge_first_reply"] = *firstReply;
        finishTask(t.variant, score, rec, m_scoreFiles[t.variant]);
    }

    void fail(const Task& t, const char* stage, const std::string& reason, const std::string* answer,
              const std::string* judgeReply) {
        OJson f{
            {"id", t.sample->id}, {"variant", kVariantNames[t.variant]}, {"stage", stage}, {"reason", redact(reason)}};
        if (answer) f["answer"] = *answer;
        if (judgeReply) f["judge_reply"] = *judgeReply;
        finishTask(t.variant, std::nullopt, f, m_failures);
    }

    // A result's line into its file, the counters and the caller's progress.
    void finishTask(int variant, std::optional<int> score, const OJson& line, LineAppender& file) {
        auto written = file.append(dumpLine(line));
        std::lock_guard lock(m_mutex);
        if (!written) {
            if (!m_writeError) m_writeError = written.error();
            m_stop = true;
            return;
        }
        if (score) {
            ++m_counts.scored;
            m_sums[variant] += *score;
            ++m_scoredTotal[variant];
        } else {
            ++m_counts.failed;
            ++m_failedPerVariant[variant];
        }
        const std::size_t thisRun = m_counts.scored + m_counts.failed;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_runStart).count();
        m_counts.etaS = elapsed / static_cast<double>(thisRun) * static_cast<double>(m_tasks.size() - thisRun);
        std::string what = std::to_string(m_counts.finished()) + "/" + std::to_string(m_counts.total) + " done, " +
                           std::to_string(m_counts.failed) + " failed";
        if (thisRun < m_tasks.size())
            what += ", ETA " + std::to_string(static_cast<long>(std::lround(*m_counts.etaS))) + " s";
        m_progress(fractionDone(), what);
        if (m_onCounts) m_onCounts(m_counts);
    }

    JudgeRunSummary summary(bool cancelled) const {
        JudgeRunSummary summary;
        summary.counts = m_counts;
        summary.counts.etaS.reset();
        summary.cancelled = cancelled;
        summary.samples = m_samples.size();
        summary.outDir = m_st.outDir;
        JudgeVariantSummary* variants[2] = {&summary.baseline, &summary.candidate};
        for (int v = 0; v < 2; ++v) {
            variants[v]->model = m_endpoints[v]->model;
            variants[v]->scored = m_scoredTotal[v];
            variants[v]->failed = m_failedPerVariant[v];
            if (m_scoredTotal[v]) variants[v]->meanScore = m_sums[v] / static_cast<double>(m_scoredTotal[v]);
        }
        return summary;
    }

    const JudgeRunSettings& m_st;
    const Progress& m_progress;
    const std::function<void(const JudgeRunCounts&)>& m_onCounts;
    std::vector<std::string> m_keys;
    std::atomic<bool> m_stop{false};
    Progress m_inner;
    std::vector<JudgeSample> m_samples;
    std::optional<Endpoint> m_endpoints[2];
    std::optional<Endpoint> m_judge;
    OJson m_settingsJson;
    fs::path m_dir, m_runPath, m_scorePaths[2];
    std::string m_started;
    std::set<std::string> m_done[2];
    double m_sums[2] = {0, 0};
    std::size_t m_scoredTotal[2] = {0, 0};
    std::size_t m_failedPerVariant[2] = {0, 0};
    JudgeRunCounts m_counts;
    std::vector<Task> m_tasks;
    LineAppender m_scoreFiles[2], m_failures;
    std::mutex m_mutex;  // guards the counters, the callbacks and m_writeError during the parallel part
    std::optional<Error> m_writeError;
    std::chrono::steady_clock::time_point m_runStart;
};

}  // namespace

Result<JudgeRunSummary> runJudgeEval(const JudgeRunSettings& st, const Progress& progress,
                                     const std::function<void(const JudgeRunCounts&)>& onCounts) {
    return JudgeEvalRun(st, progress, onCounts).run();
}

}  // namespace fp8dash
