#pragma once
// Reads a vLLM /metrics dump (Prometheus text format 0.0.4) for the tests: one entry per sample line, its metric name
// and labels as written (the test's own small reader, so that the code under test is not its own oracle).
// Header-only.

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fp8dash::test {

struct ExpositionSample {
    std::string name;
    std::map<std::string, std::string> labels;  // without __name__
    std::string value;                          // as written
};

// nullopt when the file cannot be read; a malformed line ends the test with an empty result for that line's labels.
inline std::optional<std::vector<ExpositionSample>> readExposition(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::vector<ExpositionSample> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        ExpositionSample s;
        std::size_t i = line.find_first_of("{ ");
        s.name = line.substr(0, i);
        if (i != std::string::npos && line[i] == '{') {
            ++i;
            while (i < line.size() && line[i] != '}') {
                const std::size_t eq = line.find('=', i);
                const std::string key = line.substr(i, eq - i);
                std::string value;
                for (i = eq + 2; i < line.size() && line[i] != '"'; ++i) {
                    if (line[i] == '\\' && i + 1 < line.size()) ++i;
                    value += line[i];
                }
                s.labels[key] = value;
                i += 1;  // the closing quote
                if (i < line.size() && line[i] == ',') ++i;
            }
            ++i;  // '}'
        }
        while (i < line.size() && line[i] == ' ') ++i;
        s.value = line.substr(i, line.find(' ', i) - i);
        out.push_back(std::move(s));
    }
    return out;
}

// The distinct metric names of a dump, as Prometheus lists them after scraping it (histograms as _bucket, _count
// and _sum series).
inline std::vector<std::string> metricNames(const std::vector<ExpositionSample>& samples) {
    std::vector<std::string> names;
    for (const auto& s : samples)
        if (names.empty() || names.back() != s.name) names.push_back(s.name);
    return names;
}

}  // namespace fp8dash::test
