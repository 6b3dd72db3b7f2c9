// Strict JSON reading with clear errors, plus the two allowances of lm_eval_results.h (Python's NaN/Infinity).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "fp8dash/core/lm_eval_results.h"

namespace fp8dash {
namespace {

constexpr int kMaxDepth = 256;

bool startsWith(std::string_view s, std::size_t at, std::string_view word) { return s.substr(at, word.size()) == word; }

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One pass outside strings: checks the nesting depth and rewrites NaN, Infinity and -Infinity tokens as strings.
// Returns an error message, or "" when fine; `out` is filled only when something was rewritten.
std::string prescan(std::string_view in, std::string& out, bool& rewritten) {
    int depth = 0;
    bool inString = false;
    rewritten = false;
    std::size_t copiedUpTo = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
            continue;
        }
        switch (c) {
        case '"': inString = true; break;
        case '[':
        case '{':
            if (++depth > kMaxDepth)
                return "nesting deeper than " + std::to_string(kMaxDepth) + " levels at byte " + std::to_string(i);
            break;
        case ']':
        case '}': --depth; break;
        default: {
            if (c != 'N' && c != 'I' && c != '-') break;  // the only first letters of the three tokens (fast path)
            std::string_view token;
            if (startsWith(in, i, "NaN")) token = "NaN";
            else if (startsWith(in, i, "Infinity")) token = "Infinity";
            else if (startsWith(in, i, "-Infinity")) token = "-Infinity";
            if (token.empty() || (i > 0 && isWordChar(in[i - 1])) ||
                (i + token.size() < in.size() && isWordChar(in[i + token.size()])))
                break;
            out.append(in.substr(copiedUpTo, i - copiedUpTo));
            out += '"';
            out.append(token);
            out += '"';
            i += token.size() - 1;
            copiedUpTo = i + 1;
            rewritten = true;
        }
        }
    }
    if (rewritten) out.append(in.substr(copiedUpTo));
    return {};
}

}  // namespace

Result<Json> parseJsonText(std::string_view text, const std::string& sourceName) {
    std::size_t firstNonSpace = text.find_first_not_of(" \t\r\n");
    if (firstNonSpace == std::string_view::npos)
        return Error{sourceName + ": the file is empty (expected JSON)"};
    std::string rewrittenText;
    bool rewritten = false;
    if (std::string problem = prescan(text, rewrittenText, rewritten); !problem.empty())
        return Error{sourceName + ": not valid JSON: " + problem};
    try {
        return Json::parse(rewritten ? std::string_view(rewrittenText) : text);
    } catch (const nlohmann::json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> keep the human part.
        // Numbers beyond double range (1e999) land here too, as out_of_range.406 "number overflow".
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        return Error{sourceName + ": not valid JSON (" + what + ")"};
    }
}

Result<std::string> readTextFile(const std::filesystem::path& path, std::size_t maxBytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return Error{path.string() + ": no such file"};
    if (std::filesystem::is_directory(status))
        return Error{path.string() + ": is a directory, expected a file"};
    if (!std::filesystem::is_regular_file(status))
        return Error{path.string() + ": is not a regular file"};
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > maxBytes)
        return Error{path.string() + ": is too large (" + std::to_string(size) + " bytes; the limit is " +
                     std::to_string(maxBytes) + ")"};
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path.string() + ": cannot be opened: " + std::strerror(errno)};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return Error{path.string() + ": read failed: " + std::strerror(errno)};
    return buffer.str();
}

}  // namespace fp8dash
