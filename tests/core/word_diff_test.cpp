// The word-level difference of two answers (word_diff.h), for the app's Changed answers view: each side's pieces are
// its text byte for byte, whitespace is never marked, and the unmarked words are a longest common subsequence of the
// two word lists, whose length is computed here by an independent table (forward, over every word, no common start or
// end set aside).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fp8dash/core/word_diff.h"

namespace fp8dash {
namespace {

std::string joined(const std::vector<DiffPiece>& pieces) {
    std::string s;
    for (const DiffPiece& p : pieces) s += p.text;
    return s;
}

std::vector<std::string> wordsOf(const std::vector<DiffPiece>& pieces, bool changed) {
    std::vector<std::string> out;
    for (const DiffPiece& p : pieces)
        if (p.changed == changed && p.text.find_first_of(" \t\n\r\f\v") == std::string::npos) out.push_back(p.text);
    return out;
}

std::vector<std::string> splitWords(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The textbook table, forward: L[i][j] = LCS of the first i and the first j words.
std::size_t lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::vector<std::size_t>> L(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j)
            L[i][j] = a[i - 1] == b[j - 1] ? L[i - 1][j - 1] + 1 : std::max(L[i - 1][j], L[i][j - 1]);
    return L[a.size()][b.size()];
}

bool isSubsequence(const std::vector<std::string>& sub, const std::vector<std::string>& of) {
    std::size_t k = 0;
    for (const std::string& w : of)
        if (k < sub.size() && sub[k] == w) ++k;
    return k == sub.size();
}

void expectValid(const std::string& a, const std::string& b) {
    const WordDiff d = wordDiff(a, b);
    EXPECT_EQ(joined(d.left), a);
    EXPECT_EQ(joined(d.right), b);
    for (const auto* side : {&d.left, &d.right})
        for (const DiffPiece& p : *side)
            if (p.text.find_first_not_of(" \t\n\r\f\v") == std::string::npos) EXPECT_FALSE(p.changed) << p.text;
    const std::vector<std::string> commonL = wordsOf(d.left, false), commonR = wordsOf(d.right, false);
    EXPECT_EQ(commonL, commonR);  // the same words, in the same order, on both sides
    EXPECT_TRUE(isSubsequence(commonL, splitWords(a)));
    EXPECT_TRUE(isSubsequence(commonR, splitWords(b)));
    EXPECT_EQ(commonL.size(), lcsLength(splitWords(a), splitWords(b))) << a << " | " << b;
    EXPECT_FALSE(d.approximate);
}

TEST(WordDiff, MarksTheWordsOnlyOneSideHas) {
    const WordDiff d = wordDiff("The answer is 42.\n\nSo  42 apples", "The answer is 41.\n\nSo 41 apples left");
    EXPECT_EQ(wordsOf(d.left, true), (std::vector<std::string>{"42.", "42"}));
    EXPECT_EQ(wordsOf(d.right, true), (std::vector<std::string>{"41.", "41", "left"}));
    EXPECT_EQ(joined(d.left), "The answer is 42.\n\nSo  42 apples");
}

TEST(WordDiff, EmptyAndIdenticalTexts) {
    EXPECT_TRUE(wordDiff("", "").left.empty());
    const WordDiff one = wordDiff("", "only here");
    EXPECT_TRUE(one.left.empty());
    EXPECT_EQ(wordsOf(one.right, true), (std::vector<std::string>{"only", "here"}));
    const WordDiff same = wordDiff("a b  c\n", "a b  c\n");
    EXPECT_TRUE(wordsOf(same.left, true).empty());
    EXPECT_TRUE(wordsOf(same.right, true).empty());
    expectValid("  leading and trailing  ", "leading\ttrailing");
}

TEST(WordDiff, UnmarkedWordsAreALongestCommonSubsequence) {
    // Random word lists over a small vocabulary (many repeats, so many alignments), from a fixed seed.
    std::uint64_t s = 12345;
    const auto next = [&s](std::uint64_t bound) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return (s >> 33) % bound;
    };
    const std::vector<std::string> vocab = {"a", "b", "c", "the", "42", "x=1", "é", "\x1b[2K"};
    const std::vector<std::string> spaces = {" ", "  ", "\n", "\t", " \n "};
    for (int round = 0; round < 300; ++round) {
        std::string text[2];
        for (std::string& t : text) {
            const std::uint64_t words = next(14);
            if (next(4) == 0) t += spaces[next(spaces.size())];
            for (std::uint64_t k = 0; k < words; ++k) {
                if (k) t += spaces[next(spaces.size())];
                t += vocab[next(vocab.size())];
            }
            if (next(4) == 0) t += spaces[next(spaces.size())];
        }
        expectValid(text[0], text[1]);
    }
}

// Past the table's bound the common start and end are still found; the middle is marked whole, and said so.
TEST(WordDiff, TooLongToAlignMarksTheMiddleWhole) {
    std::string a = "start here", b = "start here";
    for (int k = 0; k < 2100; ++k) {
        a += " a" + std::to_string(k);
        b += " b" + std::to_string(k);
    }
    a += " same end";
    b += " same end";
    const WordDiff d = wordDiff(a, b);
    EXPECT_TRUE(d.approximate);
    EXPECT_EQ(joined(d.left), a);
    EXPECT_EQ(wordsOf(d.left, false), (std::vector<std::string>{"start", "here", "same", "end"}));
    EXPECT_EQ(wordsOf(d.right, true).size(), 2100u);
}

}  // namespace
}  // namespace fp8dash
