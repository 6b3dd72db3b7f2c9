#pragma once
// The option reader shared by the CLI's subcommands: --name VALUE and --name=VALUE, flags, positionals in order.
// A UsageError becomes exit code 2 with its message on stderr.

#include <string>
#include <utility>
#include <vector>

namespace fp8dash::cli {

struct UsageError {
    std::string message;
};

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
