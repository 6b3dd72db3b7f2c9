#include "fp8dash/core/word_diff.h"

#include <algorithm>
#include <cstdint>

namespace fp8dash {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The text as alternating runs of whitespace and words, each piece unchanged for now; `words` the pieces' indexes of
// the words, in order.
std::vector<DiffPiece> split(std::string_view text, std::vector<std::size_t>& words) {
    std::vector<DiffPiece> pieces;
    std::size_t i = 0;
    while (i < text.size()) {
        const bool space = isSpace(text[i]);
        std::size_t j = i;
        while (j < text.size() && isSpace(text[j]) == space) ++j;
        if (!space) words.push_back(pieces.size());
        pieces.push_back(DiffPiece{std::string(text.substr(i, j - i)), false});
        i = j;
    }
    return pieces;
}

}  // namespace

WordDiff wordDiff(std::string_view left, std::string_view right) {
    WordDiff out;
    std::vector<std::size_t> lw, rw;
    out.left = split(left, lw);
    out.right = split(right, rw);
    const auto lword = [&](std::size_t k) -> const std::string& { return out.left[lw[k]].text; };
    const auto rword = [&](std::size_t k) -> const std::string& { return out.right[rw[k]].text; };

    // The common start and end need no table (and most answers that differ share much of both).
    std::size_t start = 0;
    while (start < lw.size() && start < rw.size() && lword(start) == rword(start)) ++start;
    std::size_t endL = lw.size(), endR = rw.size();
    while (endL > start && endR > start && lword(endL - 1) == rword(endR - 1)) {
        --endL;
        --endR;
    }
    const std::size_t n = endL - start, m = endR - start;
    std::vector<bool> keepL(n, false), keepR(m, false);
    if (n > 0 && m > 0 && n * m <= kWordDiffCells) {
        // lcs[i][j]: the longest common subsequence of the middle words from i and from j on. It is at most
        // min(n, m) <= 2,048 (n * m is bounded), so 16 bits hold it.
        const std::size_t w = m + 1;
        std::vector<std::uint16_t> lcs((n + 1) * w, 0);
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                lcs[i * w + j] = lword(start + i) == rword(start + j)
                                     ? static_cast<std::uint16_t>(lcs[(i + 1) * w + j + 1] + 1)
                                     : std::max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
        std::size_t i = 0, j = 0;
        while (i < n && j < m) {
            if (lword(start + i) == rword(start + j)) {
                keepL[i++] = true;
                keepR[j++] = true;
            } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                ++i;
            } else {
                ++j;
            }
        }
    } else if (n > 0 && m > 0) {
        out.approximate = true;  // too long to align: the middle is changed whole
    }
    for (std::size_t k = 0; k < n; ++k) out.left[lw[start + k]].changed = !keepL[k];
    for (std::size_t k = 0; k < m; ++k) out.right[rw[start + k]].changed = !keepR[k];
    return out;
}

}  // namespace fp8dash
