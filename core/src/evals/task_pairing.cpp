#include "fp8dash/core/task_pairing.h"

#include <algorithm>
#include <optional>

namespace fp8dash {

UnmatchedTasks unmatchedTasks(const LmEvalResults& baseline, const LmEvalResults& candidate) {
    UnmatchedTasks out;
    auto matched = matchTaskNames(baseline, candidate, {});
    const LmEvalResults& b = matched ? matched->baseline : baseline;
    const LmEvalResults& c = matched ? matched->candidate : candidate;
    for (const auto& t : b.tasks)
        if (!c.task(t.name)) out.baselineOnly.push_back(t.name);
    for (const auto& t : c.tasks)
        if (!b.task(t.name)) out.candidateOnly.push_back(t.name);
    struct Stem {
        std::size_t length, b, c;
    };
    std::vector<Stem> stems;
    for (std::size_t i = 0; i < out.baselineOnly.size(); ++i)
        for (std::size_t j = 0; j < out.candidateOnly.size(); ++j) {
            const std::string& x = out.baselineOnly[i];
            const std::string& y = out.candidateOnly[j];
            std::size_t n = 0;
            while (n < x.size() && n < y.size() && x[n] == y[n]) ++n;
            if (n >= 3) stems.push_back({n, i, j});
        }
    // Longest stem first; ties in the runs' order (stable).
    std::stable_sort(stems.begin(), stems.end(), [](const Stem& l, const Stem& r) { return l.length > r.length; });
    std::vector<bool> usedB(out.baselineOnly.size()), usedC(out.candidateOnly.size());
    std::vector<std::optional<std::size_t>> pairOf(out.baselineOnly.size());
    for (const Stem& s : stems) {
        if (usedB[s.b] || usedC[s.c]) continue;
        usedB[s.b] = usedC[s.c] = true;
        pairOf[s.b] = s.c;
    }
    for (std::size_t i = 0; i < pairOf.size(); ++i)
        if (pairOf[i]) out.suggested.push_back({out.baselineOnly[i], out.candidateOnly[*pairOf[i]]});
    return out;
}

}  // namespace fp8dash
