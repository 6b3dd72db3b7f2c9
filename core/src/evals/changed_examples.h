#pragma once
// Which changed documents a paired task keeps as examples, and reading their two rows from the logs on disk
// (changed_answers.h). The pairing pass hands every changed pair to a ChangedCollector, which keeps a bounded number
// per kind and part (memory: about 2 x limit entries per kind and subtask, whatever the log's size); once paired,
// readChangedExamples reads the chosen rows' lines, each alone, by the offsets the reader remembered. Private to core.
#include <cstdint>
#include <string>
#include <vector>

#include "fp8dash/core/paired_tasks.h"

namespace fp8dash::detail {

// Where one changed document's two rows are, and its two values.
struct ChangedRow {
    long long docId = 0;
    bool lost = true;
    double baseline = 0;
    double candidate = 0;
    std::uint64_t baselineOffset = 0, baselineLength = 0;
    std::uint64_t candidateOffset = 0, candidateLength = 0;
    std::size_t part = 0;  // the subtask (0 for a task's own logs)
    std::size_t rank = 0;  // its place among its part's documents of its kind
};

class ChangedCollector {
public:
    ChangedCollector(std::uint64_t limit, bool higherIsBetter) : m_limit(limit), m_higherIsBetter(higherIsBetter) {}

    // The pairs added next belong to part `index` (a group's subtask, in group order).
    void startPart(std::size_t index);
    // A tested pair whose values differ (the caller skips equal ones).
    void add(const SampleRow& b, const SampleRow& c, double bv, double cv);
    // The examples to read, at most `limit`: the lost first, then the gained. Within a kind, the documents that moved
    // most first (for a 0/1 metric every move is 1), then by their rank in their part (so that a group's subtasks
    // are taken in turn), then by part and doc_id.
    std::vector<ChangedRow> choose();
    std::uint64_t limit() const { return m_limit; }

private:
    void trim(std::vector<ChangedRow>& kept);
    std::uint64_t m_limit;
    bool m_higherIsBetter;
    std::size_t m_part = 0;
    std::vector<ChangedRow> m_lost, m_gained;  // of every part; each part's bounded by trim
    std::size_t m_partStart[2] = {0, 0};       // where the current part's entries start in each
};

// One part's logs on disk, and its name ("" for a task's own).
struct ChangedPart {
    std::string subtask;
    std::string baselinePath;
    std::string candidatePath;
};

// Reads the chosen rows' lines from the logs and fills r.examples (and r.examplesLimit) in the order given. A line
// that cannot be read or is no longer the document it was (the file changed since) leaves its example out with a
// warning in r naming the file; the counts are not touched.
void readChangedExamples(PairedTaskResult& r, const std::vector<ChangedRow>& rows,
                         const std::vector<ChangedPart>& parts, std::uint64_t limit, std::size_t textBytes);

}  // namespace fp8dash::detail
