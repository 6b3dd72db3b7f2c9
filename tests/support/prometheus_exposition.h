#pragma once
// The Prometheus text exposition (format 0.0.4) read back for the exporter's tests, written here independently of the
// exporter: sample lines with their label values unescaped, comments checked to be # HELP / # TYPE.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace fp8dash::test {

// The exposition read back: every sample line "name{k="v",...} value" with its label values unescaped; a line that
// is neither a sample, a # HELP / # TYPE comment nor empty fails the test.
struct Sample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};
inline std::vector<Sample> parseExposition(const std::string& text) {
    std::vector<Sample> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t eol = text.find('\n', pos);
        EXPECT_NE(eol, std::string::npos) << "the exposition must end with a line feed";
        if (eol == std::string::npos) break;
        const std::string line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.empty()) continue;
        if (line[0] == '#') {
            EXPECT_TRUE(line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) << line;
            continue;
        }
        Sample s;
        std::size_t i = 0;
        while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
        s.name = line.substr(0, i);
        EXPECT_FALSE(s.name.empty()) << line;
        if (i < line.size() && line[i] == '{') {
            ++i;
            while (i < line.size() && line[i] != '}') {
                const std::size_t eq = line.find('=', i);
                if (eq == std::string::npos || eq + 1 >= line.size() || line[eq + 1] != '"') {
                    ADD_FAILURE() << "bad label in " << line;
                    return out;
                }
                const std::string key = line.substr(i, eq - i);
                std::string value;
                std::size_t j = eq + 2;
                for (; j < line.size() && line[j] != '"'; ++j) {
                    if (line[j] == '\\' && j + 1 < line.size()) {
                        const char c = line[++j];
                        value += c == 'n' ? '\n' : c;
                    } else {
                        value += line[j];
                    }
                }
                s.labels[key] = value;
                i = j + 1;
                if (i < line.size() && line[i] == ',') ++i;
            }
            ++i;
        }
        EXPECT_TRUE(i < line.size() && line[i] == ' ') << line;
        char* end = nullptr;
        const std::string number = line.substr(i + 1);
        s.value = std::strtod(number.c_str(), &end);
        EXPECT_TRUE(end && *end == '\0' && !number.empty()) << line;
        out.push_back(s);
    }
    return out;
}

inline const Sample* findSample(const std::vector<Sample>& samples, const std::string& name) {
    for (const auto& s : samples)
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace fp8dash::test
