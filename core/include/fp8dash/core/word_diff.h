#pragma once
// The words two texts do not share, for showing two runs' answers side by side with the difference highlighted (the
// app's Changed answers view; README "The answers FP8 changed"). Words are runs of non-whitespace; the common words are
// a longest common subsequence of the two word lists. Pure function; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fp8dash {

// A piece of one side's text: a word or a run of whitespace, in order. Concatenated, a side's pieces are its text,
// byte for byte. `changed`: a word that is not in the common subsequence (only on this side); whitespace never is.
struct DiffPiece {
    std::string text;
    bool changed = false;
};

struct WordDiff {
    std::vector<DiffPiece> left;
    std::vector<DiffPiece> right;
    // The two texts were too long to align word by word (more than kWordDiffCells pairs of words once their common
    // start and end are set aside): what lies between those is marked changed whole.
    bool approximate = false;
};

// The most word pairs aligned (the table of the longest common subsequence): 2,048 × 2,048, a few MB and a few ms;
// two 4 KB answers (changed_answers.h) stay within it.
inline constexpr std::size_t kWordDiffCells = std::size_t{2048} * 2048;

// The word-level difference of `left` and `right` (bytes; compared as they are, UTF-8 or not).
WordDiff wordDiff(std::string_view left, std::string_view right);

}  // namespace fp8dash
