// Choosing a paired task's changed documents and reading their rows again (changed_examples.h).
#include "evals/changed_examples.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>

#include "fp8dash/core/changed_answers.h"

namespace fp8dash::detail {

namespace {

double moved(const ChangedRow& r) {
    return std::fabs(r.candidate - r.baseline);
}

// Within one part: the largest move first, then by doc_id.
bool beforeInPart(const ChangedRow& a, const ChangedRow& b) {
    const double ma = moved(a), mb = moved(b);
    if (ma != mb) return ma > mb;
    return a.docId < b.docId;
}

}  // namespace

void ChangedCollector::startPart(std::size_t index) {
    trim(m_lost);
    trim(m_gained);
    m_part = index;
    m_partStart[0] = m_lost.size();
    m_partStart[1] = m_gained.size();
}

void ChangedCollector::add(const SampleRow& b, const SampleRow& c, double bv, double cv) {
    if (m_limit == 0) return;
    ChangedRow row;
    row.docId = b.docId;
    row.lost = (cv > bv) != m_higherIsBetter;
    row.baseline = bv;
    row.candidate = cv;
    row.baselineOffset = b.offset;
    row.baselineLength = b.length;
    row.candidateOffset = c.offset;
    row.candidateLength = c.length;
    row.part = m_part;
    auto& kept = row.lost ? m_lost : m_gained;
    kept.push_back(row);
    // Bounded: once the part holds twice the limit, keep its best `limit`.
    if (kept.size() - m_partStart[row.lost ? 0 : 1] >= 2 * m_limit) trim(kept);
}

// The current part's entries of `kept` cut to its best `limit`, ranked.
void ChangedCollector::trim(std::vector<ChangedRow>& kept) {
    const std::size_t start = m_partStart[&kept == &m_lost ? 0 : 1];
    auto first = kept.begin() + static_cast<std::ptrdiff_t>(start);
    const auto keep = static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(m_limit, kept.size() - start));
    std::partial_sort(first, first + keep, kept.end(), beforeInPart);
    kept.erase(first + keep, kept.end());
    for (std::size_t k = start; k < kept.size(); ++k) kept[k].rank = k - start;
}

std::vector<ChangedRow> ChangedCollector::choose() {
    trim(m_lost);
    trim(m_gained);
    const auto order = [](const ChangedRow& a, const ChangedRow& b) {
        const double ma = moved(a), mb = moved(b);
        if (ma != mb) return ma > mb;
        return std::tie(a.rank, a.part, a.docId) < std::tie(b.rank, b.part, b.docId);
    };
    std::sort(m_lost.begin(), m_lost.end(), order);
    std::sort(m_gained.begin(), m_gained.end(), order);
    std::vector<ChangedRow> out;
    for (const auto* kind : {&m_lost, &m_gained})
        for (const auto& r : *kind) {
            if (out.size() >= m_limit) break;
            out.push_back(r);
        }
    m_lost.clear();
    m_gained.clear();
    m_partStart[0] = m_partStart[1] = 0;
    return out;
}

void readChangedExamples(PairedTaskResult& r, const std::vector<ChangedRow>& rows,
                         const std::vector<ChangedPart>& parts, std::uint64_t limit, std::size_t textBytes) {
    r.examplesLimit = limit;
    if (rows.empty()) return;
    // Every line to read, per file, in file order: (path) -> [(offset, length, row index, baseline side)].
    struct Want {
        std::uint64_t offset, length;
        std::size_t row;
        bool baseline;
    };
    std::map<std::string, std::vector<Want>> wanted;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const ChangedRow& row = rows[k];
        if (row.part >= parts.size()) continue;
        wanted[parts[row.part].baselinePath].push_back({row.baselineOffset, row.baselineLength, k, true});
        wanted[parts[row.part].candidatePath].push_back({row.candidateOffset, row.candidateLength, k, false});
    }
    std::vector<std::optional<SampleRowTexts>> bTexts(rows.size()), cTexts(rows.size());
    std::vector<std::string> problems;
    for (auto& [path, wants] : wanted) {
        std::sort(wants.begin(), wants.end(), [](const Want& a, const Want& b) { return a.offset < b.offset; });
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            problems.push_back(path + ": cannot be opened again to read the changed answers");
            continue;
        }
        std::string line;
        for (const Want& w : wants) {
            line.resize(w.length);
            in.seekg(static_cast<std::streamoff>(w.offset));
            in.read(line.data(), static_cast<std::streamsize>(w.length));
            const std::string where = path + " at byte " + std::to_string(w.offset);
            if (!in || static_cast<std::uint64_t>(in.gcount()) != w.length) {
                problems.push_back(where + ": the line could not be read again (the file changed since it was read?)");
                in.clear();
                continue;
            }
            auto texts = sampleRowTexts(line, where, textBytes);
            if (!texts || texts->docId != rows[w.row].docId) {
                problems.push_back(where + ": " +
                                   (texts ? "not the row of doc_id " + std::to_string(rows[w.row].docId) +
                                                " any more (the file changed since it was read)"
                                          : texts.error().message));
                continue;
            }
            (w.baseline ? bTexts : cTexts)[w.row] = std::move(texts).value();
        }
    }
    std::size_t left = 0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (!bTexts[k] || !cTexts[k]) {
            ++left;
            continue;
        }
        const ChangedRow& row = rows[k];
        ChangedAnswerExample e;
        e.docId = row.docId;
        e.lost = row.lost;
        e.subtask = parts[row.part].subtask;
        // The question and target are the document's: the baseline's row says them (the hashes matched).
        e.question = std::move(bTexts[k]->question);
        e.target = std::move(bTexts[k]->target);
        e.baseline = {std::move(bTexts[k]->answer), std::move(bTexts[k]->response), row.baseline};
        e.candidate = {std::move(cTexts[k]->answer), std::move(cTexts[k]->response), row.candidate};
        r.examples.push_back(std::move(e));
    }
    if (left > 0)
        r.warnings.push_back(std::to_string(left) +
                             " changed answer(s) could not be read again from the logs and are "
                             "not shown (" +
                             problems.front() + (problems.size() > 1 ? "; …" : "") + ")");
}

}  // namespace fp8dash::detail
