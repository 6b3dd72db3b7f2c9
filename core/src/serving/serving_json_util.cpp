// Helpers the serving readers share (serving_json_util.h).
#include "serving/serving_json_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <ctime>
#include <vector>

namespace fp8dash {

namespace {

std::string sjuLower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

bool sjuStartsWithNoCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && sjuLower(s.substr(0, prefix.size())) == prefix;
}

// The words of a key: split at non-alphanumerics and at lower-to-upper case changes ("apiKey" -> api, key).
std::vector<std::string> sjuKeyWords(std::string_view key) {
    std::vector<std::string> words;
    std::string cur;
    for (std::size_t i = 0; i < key.size(); ++i) {
        const auto c = static_cast<unsigned char>(key[i]);
        if (!std::isalnum(c)) {
            if (!cur.empty()) words.push_back(std::move(cur));
            cur.clear();
            continue;
        }
        if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(key[i - 1])) && !cur.empty()) {
            words.push_back(std::move(cur));
            cur.clear();
        }
        cur += static_cast<char>(std::tolower(c));
    }
    if (!cur.empty()) words.push_back(std::move(cur));
    return words;
}

void sjuCutText(std::string& s, std::size_t maxChars) {
    if (s.size() <= maxChars) return;
    std::size_t cut = maxChars;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    s.resize(cut);
    s += "\u2026";
}

Json sjuWithoutSecrets(const Json& v, int depth) {
    if (depth > 64) return "…";
    if (v.is_object()) {
        Json out = Json::object();
        auto& members = out.get_ref<Json::object_t&>();
        for (const auto& [k, child] : v.items()) {
            if (servingLooksSecretKey(k)) continue;
            members.emplace_back(k, sjuWithoutSecrets(child, depth + 1));
        }
        return out;
    }
    if (v.is_array()) {
        Json out = Json::array();
        for (const auto& child : v) out.push_back(sjuWithoutSecrets(child, depth + 1));
        return out;
    }
    if (v.is_string() && servingLooksSecretValue(v.get_ref<const std::string&>())) return "<redacted>";
    return v;
}

}  // namespace

bool servingLooksSecretKey(std::string_view key) {
    const auto words = sjuKeyWords(key);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        // "token" and "secret" name a credential as the key's last word (hf_token, api_secret), not in
        // "use_server_token_count" or "secret_santa".
        const bool last = i + 1 == words.size();
        if ((last && (w == "token" || w == "secret")) || w == "secrets" || w == "password" || w == "passwd" ||
            w == "apikey" || w == "authorization" || w == "auth" || w == "bearer" || w == "credential" ||
            w == "credentials" || w == "cookie" || w == "hftoken")
            return true;
        if (i + 1 < words.size() && (w == "api" || w == "access" || w == "private" || w == "secret") &&
            words[i + 1] == "key")
            return true;
    }
    return false;
}

bool servingLooksSecretValue(std::string_view value) {
    if (sjuStartsWithNoCase(value, "bearer ") || sjuStartsWithNoCase(value, "basic ")) return true;
    const bool longToken = value.size() >= 12 && value.find(' ') == std::string_view::npos;
    return longToken && (value.substr(0, 3) == "sk-" || value.substr(0, 3) == "hf_" || value.substr(0, 4) == "nvapi-");
}

std::string servingRedactCommandLine(std::string_view command) {
    // Shell-like words (quotes kept as part of the word), each checked on its own and against the option before it.
    std::string out;
    std::string prevOption;
    std::size_t i = 0;
    while (i < command.size()) {
        if (command[i] == ' ' || command[i] == '\t' || command[i] == '\n') {
            out += command[i++];
            continue;
        }
        std::size_t j = i;
        char quote = 0;
        while (j < command.size() && (quote != 0 || (command[j] != ' ' && command[j] != '\t' && command[j] != '\n'))) {
            if (quote == 0 && (command[j] == '\'' || command[j] == '"'))
                quote = command[j];
            else if (quote != 0 && command[j] == quote)
                quote = 0;
            ++j;
        }
        const std::string_view word = command.substr(i, j - i);
        std::string bare;
        for (char c : word)
            if (c != '\'' && c != '"') bare += c;
        bool secret = false;
        std::string kept;
        if (!prevOption.empty() && servingLooksSecretKey(prevOption) && bare.rfind('-', 0) != 0) {
            secret = true;
        } else if (const auto eq = bare.find('='); bare.rfind("--", 0) == 0 && eq != std::string::npos &&
                                                   servingLooksSecretKey(bare.substr(2, eq - 2))) {
            secret = true;
            kept = bare.substr(0, eq + 1);
        } else if ((prevOption == "-H" || prevOption == "--header") &&
                   servingLooksSecretKey(bare.substr(0, bare.find(':')))) {
            secret = true;
            kept = bare.substr(0, bare.find(':') + 1) + " ";
        } else if (servingLooksSecretValue(bare)) {
            secret = true;
        }
        out += secret ? kept + "<redacted>" : std::string(word);
        prevOption = (bare.rfind('-', 0) == 0 && bare.find('=') == std::string::npos) ? bare : std::string();
        if (!prevOption.empty()) prevOption = prevOption.substr(prevOption.find_first_not_of('-'));
        if (bare == "-H" || bare == "--header") prevOption = "-H";
        if (bare == "--header") prevOption = "--header";
        i = j;
    }
    return out;
}

std::string servingUrlWithoutSecrets(std::string_view url) {
    std::string out(url.substr(0, url.find_first_of("?#")));
    const auto scheme = out.find("://");
    const std::size_t hostStart = scheme == std::string::npos ? 0 : scheme + 3;
    const auto slash = out.find('/', hostStart);
    const auto at = out.rfind('@', slash == std::string::npos ? out.size() : slash);
    if (at != std::string::npos && at >= hostStart) out.erase(hostStart, at + 1 - hostStart);
    return out;
}

std::string servingValueText(const Json& value, std::size_t maxChars) {
    std::string s;
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        s = servingLooksSecretValue(text) ? std::string("<redacted>") : text;
    } else {
        s = sjuWithoutSecrets(value, 0).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    sjuCutText(s, maxChars);
    return s;
}

std::optional<double> servingPercentileKey(std::string_view key, bool guideLlmDigits) {
    if (key.size() < 2 || key[0] != 'p') return std::nullopt;
    const std::string_view num = key.substr(1);
    if (guideLlmDigits) {
        if (!std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
        int v = 0;
        if (num.size() > 3 || std::from_chars(num.data(), num.data() + num.size(), v).ec != std::errc())
            return std::nullopt;
        return num.size() == 3 ? v / 10.0 : static_cast<double>(v);
    }
    if (!std::all_of(num.begin(), num.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; }))
        return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
    if (ec != std::errc() || ptr != num.data() + num.size() || !(v > 0 && v < 100)) return std::nullopt;
    return v;
}

std::string servingIsoTimeFromEpoch(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0 || seconds > 32503680000.0) return {};  // before year 3000
    const auto t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    if (gmtime_r(&t, &tm) == nullptr) return {};
    char buf[32];
    const auto n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(buf, n);
}

std::optional<double> servingJsonNumber(const Json& v, bool& wrongType) {
    wrongType = false;
    if (v.is_number()) {
        const double d = v.get<double>();
        return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
    }
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s == "NaN" || s == "Infinity" || s == "-Infinity") return std::nullopt;
    }
    wrongType = true;
    return std::nullopt;
}

}  // namespace fp8dash
