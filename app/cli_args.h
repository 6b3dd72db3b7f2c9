#pragma once
// The option reader shared by the CLI's subcommands: --name VALUE and --name=VALUE, flags, positionals in order.
// A UsageError becomes exit code 2 with its message on stderr. Also the one strict reader of option numbers.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fp8dash::cli {

struct UsageError {
    std::string message;
};

// Option numbers, strictly: the whole text is the number (not empty, nothing after it; blanks before it are skipped,
// as strtod does and as the CLI always has), in range of the type; a real number is finite ("inf", "nan" and
// overflow are rejected; strtod's hex and exponent forms are accepted). nullopt otherwise: the caller says what it
// expected, naming the option.
inline std::optional<double> strictDouble(const std::string& text) {
    if (text.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    return v;
}
// A base-10 whole number within [min, max].
inline std::optional<long long> strictInteger(const std::string& text, long long min, long long max) {
    if (text.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (end != text.c_str() + text.size() || errno == ERANGE || v < min || v > max) return std::nullopt;
    return v;
}

class Args {
public:
    explicit Args(std::vector<std::string> args) : m_args(std::move(args)) {}

    bool done() const { return m_pos >= m_args.size(); }

    // Returns true and fills value when the next argument is the option `name`.
    bool option(const std::string& name, std::string& value) {
        const std::string& a = m_args[m_pos];
        if (a == name) {
            if (m_pos + 1 >= m_args.size()) throw UsageError{name + " needs a value"};
            value = m_args[m_pos + 1];
            m_pos += 2;
            return true;
        }
        if (a.rfind(name + "=", 0) == 0) {
            value = a.substr(name.size() + 1);
            ++m_pos;
            return true;
        }
        return false;
    }
    bool flag(const std::string& name) {
        if (m_args[m_pos] != name) return false;
        ++m_pos;
        return true;
    }
    const std::string& next() { return m_args[m_pos++]; }
    const std::string& peek() const { return m_args[m_pos]; }
    [[noreturn]] void unknown(const std::string& command) const {
        throw UsageError{command + ": unknown argument " + m_args[m_pos]};
    }

private:
    std::vector<std::string> m_args;
    std::size_t m_pos = 0;
};

}  // namespace fp8dash::cli
