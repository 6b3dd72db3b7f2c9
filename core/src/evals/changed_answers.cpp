// The changed answers' documents (changed_answers.h): the bounded texts of a sample log row, the examples' JSON, and
// what a comparison document holds of them. The examples are chosen and read by changed_examples.cpp.
#include "fp8dash/core/changed_answers.h"

#include <cmath>
#include <cstdlib>

#include "fp8dash/core/json_text.h"
#include "fp8dash/core/number_format.h"

namespace fp8dash {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at text[i], or 0 when the byte there does not start one (overlongs,
// surrogates and code points past U+10FFFF are invalid).
std::size_t utf8SequenceAt(std::string_view text, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char c = b(0);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned lowest = 0, highest = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, lowest = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lowest = c == 0xE0 ? 0xA0 : 0x80, highest = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lowest = c == 0xF0 ? 0x90 : 0x80, highest = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (i + n > text.size()) return 0;
    if (b(1) < lowest || b(1) > highest) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(k) < 0x80 || b(k) > 0xBF) return 0;
    return n;
}

bool isWhitespace(std::string_view s) {
    return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

// A JSON value as text: a string as it is, anything else as compact JSON.
std::string asText(const Json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return "";
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<double> numberIn(const std::string& text) {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || !isWhitespace(std::string_view(end)) || !std::isfinite(x))
        return std::nullopt;
    return x;
}

// A log-likelihood request's answer, the (log-likelihood, is_greedy) tuple as lm-eval wrote it: its strings in a list,
// ["-3.21", "False"] (sanitize_list keeps a tuple and stringifies its items: lm-eval 0.4.3 and later), the tuple
// stringified whole, "(-3.21, False)" (earlier), or numbers, [-3.21, false]; each possibly in a one-item list.
std::optional<double> logLikelihoodOf(const Json& v) {
    if (v.is_array() && v.size() == 1) return logLikelihoodOf(v[0]);
    if (v.is_array() && v.size() == 2) {
        const bool greedy = v[1].is_boolean() || v[1] == "True" || v[1] == "False";
        if (!greedy) return std::nullopt;
        if (v[0].is_number()) return v[0].get<double>();
        if (v[0].is_string()) return numberIn(v[0].get<std::string>());
        return std::nullopt;
    }
    if (!v.is_string()) return std::nullopt;
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() < 3 || s.front() != '(' || s.back() != ')') return std::nullopt;
    const auto comma = s.find(',');
    if (comma == std::string::npos) return std::nullopt;
    const std::string_view greedy = trimmed(std::string_view(s).substr(comma + 1, s.size() - comma - 2));
    if (greedy != "True" && greedy != "False") return std::nullopt;
    return numberIn(s.substr(1, comma - 1));
}

// The requests' arguments as a list: {"gen_args_0": {"arg_0": ..., "arg_1": ...}, ...} (lm-eval >= 0.4.3), or
// [[arg_0, arg_1], ...] (older).
std::vector<std::pair<const Json*, const Json*>> requestArguments(const Json& row) {
    std::vector<std::pair<const Json*, const Json*>> out;
    const auto args = row.find("arguments");
    if (args == row.end()) return out;
    const auto argPair = [](const Json& a) -> std::pair<const Json*, const Json*> {
        if (a.is_object()) {
            const auto a0 = a.find("arg_0"), a1 = a.find("arg_1");
            return {a0 == a.end() ? nullptr : &*a0, a1 == a.end() ? nullptr : &*a1};
        }
        if (a.is_array() && !a.empty()) return {&a[0], a.size() > 1 ? &a[1] : nullptr};
        return {nullptr, nullptr};
    };
    if (args->is_object()) {
        for (std::size_t k = 0;; ++k) {
            const auto a = args->find("gen_args_" + std::to_string(k));
            if (a == args->end()) break;
            out.push_back(argPair(*a));
        }
    } else if (args->is_array()) {
        for (const auto& a : *args) out.push_back(argPair(a));
    }
    return out;
}

// The continuation of choice k of a multiple-choice request list, trimmed; "" when there is none.
std::string choiceText(const std::vector<std::pair<const Json*, const Json*>>& args, std::size_t k) {
    if (k >= args.size() || !args[k].second || !args[k].second->is_string()) return "";
    return std::string(trimmed(args[k].second->get_ref<const std::string&>()));
}

// The prompt's last turn: the last user message of a chat list written as JSON, else the text after the last blank
// line that is followed by more than whitespace (lm-eval's few-shot delimiter is a blank line).
std::string lastTurn(const std::string& prompt) {
    if (const auto t = trimmed(prompt); !t.empty() && t.front() == '[') {
        const Json messages = Json::parse(t, nullptr, false);
        if (messages.is_array())
            for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
                if (!it->is_object() || it->value("role", "") != "user") continue;
                const auto content = it->find("content");
                if (content == it->end()) continue;
                if (content->is_string()) return content->get<std::string>();
                std::string text;  // [{"type": "text", "text": ...}, ...]
                if (content->is_array())
                    for (const auto& part : *content)
                        if (part.is_object() && part.contains("text") && part["text"].is_string())
                            text += (text.empty() ? "" : "\n") + part["text"].get<std::string>();
                return text;
            }
    }
    std::string_view rest = prompt;
    for (;;) {
        const auto blank = rest.rfind("\n\n");
        if (blank == std::string_view::npos) return std::string(trimmed(rest));
        if (!isWhitespace(rest.substr(blank + 2))) return std::string(trimmed(rest.substr(blank + 2)));
        rest = rest.substr(0, blank);
    }
}

std::string questionOf(const Json& row, const std::vector<std::pair<const Json*, const Json*>>& args) {
    if (const auto doc = row.find("doc"); doc != row.end() && doc->is_object())
        for (const char* key : {"question", "problem", "query", "prompt", "input", "instruction", "text", "sentence",
                                "goal", "ctx", "context", "passage", "premise"})
            if (const auto f = doc->find(key);
                f != doc->end() && f->is_string() && !isWhitespace(f->get<std::string>()))
                return f->get<std::string>();
    if (!args.empty() && args[0].first && args[0].first->is_string())
        return lastTurn(args[0].first->get_ref<const std::string&>());
    return "";
}

// A multiple-choice index (the target of a log-likelihood task) with its choice's text: "2: Paris".
std::string targetOf(const Json& row, const std::vector<std::pair<const Json*, const Json*>>& args) {
    const auto t = row.find("target");
    if (t == row.end()) return "";
    std::optional<long long> index;
    if (t->is_number_integer()) index = t->get<long long>();
    if (t->is_string()) {
        const std::string& s = t->get_ref<const std::string&>();
        if (!s.empty() && s.size() < 6 && s.find_first_not_of("0123456789") == std::string::npos) index = std::stoll(s);
    }
    if (index && args.size() > 1 && *index >= 0) {
        const std::string choice = choiceText(args, static_cast<std::size_t>(*index));
        if (!choice.empty()) return std::to_string(*index) + ": " + choice;
    }
    if (t->is_array()) {
        std::string out;
        for (const auto& v : *t) out += (out.empty() ? "" : " | ") + asText(v);
        return out;
    }
    return asText(*t);
}

// A list whose every entry is a log-likelihood: the choice with the highest, with its text, and every choice's.
struct Choices {
    std::vector<double> ll;
    std::size_t best = 0;
};
std::optional<Choices> choicesOf(const Json& list) {
    if (!list.is_array() || list.size() < 2) return std::nullopt;
    Choices c;
    for (const auto& v : list) {
        const auto ll = logLikelihoodOf(v);
        if (!ll) return std::nullopt;
        if (c.ll.empty() || *ll > c.ll[c.best]) c.best = c.ll.size();
        c.ll.push_back(*ll);
    }
    return c;
}

std::string answerOf(const Json& row, const std::vector<std::pair<const Json*, const Json*>>& args) {
    const auto f = row.find("filtered_resps");
    if (f == row.end()) return "";
    if (const auto c = choicesOf(*f)) {
        const std::string text = choiceText(args, c->best);
        return std::to_string(c->best) + (text.empty() ? "" : ": " + text) + " (highest log-likelihood, " +
               numfmt::general(c->ll[c->best], 4) + ")";
    }
    if (f->is_array()) {
        if (f->size() == 1) return asText((*f)[0]);
        std::string out;
        for (const auto& v : *f) out += (out.empty() ? "" : "\n") + asText(v);
        return out;
    }
    return asText(*f);
}

std::string responseOf(const Json& row) {
    const auto r = row.find("resps");
    if (r == row.end()) return "";
    if (const auto c = choicesOf(*r)) {
        std::string out = "log-likelihood per choice:";
        for (std::size_t k = 0; k < c->ll.size(); ++k)
            out += (k ? ", " : " ") + std::to_string(k) + ": " + numfmt::general(c->ll[k], 4);
        return out;
    }
    std::vector<std::string> texts;  // [[text, ...], ...]: every request's responses, repeats included
    if (r->is_array())
        for (const auto& request : *r) {
            if (request.is_array())
                for (const auto& v : request) texts.push_back(asText(v));
            else
                texts.push_back(asText(request));
        }
    else
        texts.push_back(asText(*r));
    if (texts.size() == 1) return texts.front();
    std::string out;
    for (std::size_t k = 0; k < texts.size(); ++k)
        out += (k ? "\n" : "") + std::string("[") + std::to_string(k + 1) + "] " + texts[k];
    return out;
}

// A field of an example in a file: a string, bounded again.
class ExampleReader {
public:
    ExampleReader(const Json& j, std::string where) : m_j(j), m_where(std::move(where)) {}
    const std::string& where() const { return m_where; }
    std::optional<std::string> error;

    std::string text(const Json& obj, const char* key, const std::string& path) {
        const auto v = obj.find(key);
        if (v == obj.end() || v->is_null()) return "";
        if (!v->is_string()) {
            fail(path + key + " must be a string");
            return "";
        }
        // A text cut when it was saved keeps its mark (room for it); a longer one is cut as the logs' texts are.
        const std::string& s = v->get_ref<const std::string&>();
        return boundedAnswerText(s, s.size() > kAnswerTextBytes + 64 ? kAnswerTextBytes : kAnswerTextBytes + 64);
    }
    AnswerSide side(const char* key) {
        AnswerSide s;
        const auto v = m_j.find(key);
        if (v == m_j.end() || !v->is_object()) {
            fail(std::string(key) + " must be an object {answer, response, value}");
            return s;
        }
        const std::string path = std::string(key) + ".";
        s.answer = text(*v, "answer", path);
        s.response = text(*v, "response", path);
        const auto value = v->find("value");
        if (value == v->end() || !value->is_number() || !std::isfinite(value->get<double>()))
            fail(path + "value must be a finite number");
        else
            s.value = value->get<double>();
        return s;
    }
    void fail(const std::string& what) {
        if (!error) error = m_where + ": " + what;
    }

private:
    const Json& m_j;
    std::string m_where;
};

template <typename F>
void forEachPaired(const ComparisonDocument& doc, const F& f) {
    for (const auto& [task, r] : doc.paired) f(r);
    for (const auto& c : doc.moreCandidates)
        for (const auto& [task, r] : c.paired) f(r);
    for (const auto& s : doc.stepPaired)
        for (const auto& [task, r] : s.paired) f(r);
}

}  // namespace

std::string boundedAnswerText(std::string_view text, std::size_t maxBytes) {
    std::string out;
    out.reserve(std::min(text.size(), maxBytes));
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t n = text[i] == '\0' ? 0 : utf8SequenceAt(text, i);
        const std::size_t add = n ? n : kReplacement.size();
        if (out.size() + add > maxBytes) break;
        if (n)
            out.append(text.substr(i, n));
        else
            out.append(kReplacement);
        i += n ? n : 1;
    }
    if (i < text.size()) out += "… [cut: " + numfmt::grouped(text.size()) + " bytes in all]";
    return out;
}

Result<SampleRowTexts> sampleRowTexts(std::string_view line, const std::string& where, std::size_t maxBytes) {
    auto parsed = parseJsonText(line, where);
    if (!parsed) return parsed.error();
    const Json& row = *parsed;
    if (!row.is_object()) return Error{where + ": expected a JSON object (one sample), found " + row.type_name()};
    SampleRowTexts t;
    const auto id = row.find("doc_id");
    if (id == row.end() || !id->is_number_integer()) return Error{where + ": field \"doc_id\" must be an integer"};
    t.docId = id->get<long long>();
    if (const auto f = row.find("filter"); f != row.end() && f->is_string()) t.filter = f->get<std::string>();
    const auto args = requestArguments(row);
    t.question = boundedAnswerText(questionOf(row, args), maxBytes);
    t.target = boundedAnswerText(targetOf(row, args), maxBytes);
    t.answer = boundedAnswerText(answerOf(row, args), maxBytes);
    t.response = boundedAnswerText(responseOf(row), maxBytes);
    return t;
}

Json changedExampleToJson(const ChangedAnswerExample& e) {
    const auto side = [](const AnswerSide& s) {
        return Json{{"answer", s.answer}, {"response", s.response}, {"value", s.value}};
    };
    Json j{{"doc_id", e.docId}, {"kind", e.lost ? "lost" : "gained"}};
    if (!e.subtask.empty()) j["subtask"] = e.subtask;
    j["question"] = e.question;
    j["target"] = e.target;
    j["baseline"] = side(e.baseline);
    j["candidate"] = side(e.candidate);
    return j;
}

Result<ChangedAnswerExample> parseChangedExampleJson(const Json& j, const std::string& where) {
    if (!j.is_object()) return Error{where + " must be an object"};
    ExampleReader in(j, where);
    ChangedAnswerExample e;
    const auto id = j.find("doc_id");
    if (id == j.end() || !id->is_number_integer())
        in.fail("doc_id must be an integer");
    else
        e.docId = id->get<long long>();
    const auto kind = j.find("kind");
    if (kind == j.end() || !kind->is_string() || (*kind != "lost" && *kind != "gained"))
        in.fail("kind must be \"lost\" or \"gained\"");
    else
        e.lost = *kind == "lost";
    e.subtask = in.text(j, "subtask", "");
    e.question = in.text(j, "question", "");
    e.target = in.text(j, "target", "");
    e.baseline = in.side("baseline");
    e.candidate = in.side("candidate");
    if (in.error) return Error{*in.error};
    return e;
}

AnswerExamplesHeld answerExamplesHeld(const ComparisonDocument& doc) {
    AnswerExamplesHeld held;
    bool any = false, allZero = true;
    forEachPaired(doc, [&](const PairedTaskResult& r) {
        any = true;
        held.examples += r.examples.size();
        held.tasks += !r.examples.empty();
        if (r.examplesLimit) held.limit = std::max(held.limit.value_or(0), *r.examplesLimit);
        if (!r.examplesLimit || *r.examplesLimit > 0 || !r.examples.empty()) allZero = false;
    });
    held.countsOnly = any && allZero;
    return held;
}

std::string answerExamplesNotice(const AnswerExamplesHeld& held, bool commandLine) {
    if (held.countsOnly)
        return std::string("The file keeps only the counts of the changed answers (") +
               (commandLine ? "--answer-examples 0" : "0 answer examples per task") + "): no question or response.";
    if (held.examples == 0) return "";
    return "The file includes " + numfmt::grouped(held.examples) + " changed answer" + (held.examples == 1 ? "" : "s") +
           " from " + numfmt::grouped(held.tasks) + " task" + (held.tasks == 1 ? "" : "s") +
           " (the questions and both runs' responses, from the sample logs); " +
           (commandLine ? "--answer-examples 0" : "0 answer examples per task") + " keeps only the counts.";
}

void dropAnswerExamples(ComparisonDocument& doc) {
    const auto drop = [](std::map<std::string, PairedTaskResult>& paired) {
        for (auto& [task, r] : paired) {
            r.examples.clear();
            r.examples.shrink_to_fit();
            r.examplesLimit = 0;
        }
    };
    drop(doc.paired);
    for (auto& c : doc.moreCandidates) drop(c.paired);
    for (auto& s : doc.stepPaired) drop(s.paired);
}

}  // namespace fp8dash
