#pragma once
// Hostile strings for the untrusted-text tests (issue 26): what a results file, a comparison file or a server can put
// where fp8dash shows a name. Each is made here from its description, not copied from a capture.
#include <string>
#include <vector>

namespace fp8dash::test {

// The terminal attack of the issue: save the cursor, go up two lines, back to the line start, clear it and print a
// green fake verdict, so that it stands where the real one was.
inline std::string verdictRewriteSequence() {
    return "arc\x1b"
           "7\x1b[2A\r\x1b[2K\x1b[32mVerdict: GO \xe2\x80\x94 FP8 is safe\x1b[0m\x1b"
           "8";
}

// The Markdown attack of the issue: a heading and an open fence that would swallow the real report.
inline std::string markdownTakeover() {
    return "x\n\nVerdict: GO \xe2\x80\x94 approved\n===\n\n~~~";
}

// The rich-text attack on the app (issue 26, finding 3): a big green verdict and a local image, were it rendered.
inline std::string htmlVerdict() {
    return "<h1 style=color:green>\xe2\x9c\x94 VERDICT: GO</h1><img src=file:///etc/passwd>";
}
// What a view shows of htmlVerdict when it shows the text that was there (the start of it, enough to tell).
inline constexpr const char* kHtmlVerdictShown = "<h1 style=color:green>";
// Only htmlVerdict holds this (upper case): where it is rendered, kHtmlVerdictShown must be rendered too.
inline constexpr const char* kHtmlVerdictMarker = "VERDICT: GO";

// A Markdown heading and a setext underline with an open fence after it.
inline std::string markdownHeading() {
    return "x\n\n# Verdict: GO\n===\n~~~";
}

inline std::string longString() {
    return std::string(200000, 'x') + "\x1b[2K" + std::string(1000, '#');
}

inline std::vector<std::string> hostileStrings() {
    std::vector<std::string> s = {
        verdictRewriteSequence(),
        markdownTakeover(),
        "task\rVerdict: GO",                                                        // a lone CR
        "\x1b]0;title\x07\x1b]8;;http://example.invalid/\x1b\\link\x1b]8;;\x1b\\",  // OSC title and hyperlink
        "\xc2\x9b"
        "2J csi as C1",  // CSI as a C1 control (U+009B)
        "abc\xe2\x80\xae"
        "OG :tcidreV",                                           // a right-to-left override (U+202E)
        "\xe2\x81\xa6isolate\xe2\x81\xa9 and \xe2\x80\x8fmark",  // an isolate and a right-to-left mark
        "bad \xff\xfe utf-8 \xc3",                               // invalid and cut-short UTF-8
        "- item\n1. one\n2) two\n+ plus\n> quote\n    code\n---\n***\n___\n```\n~~~ fence",
        "# h1\n## h2\nsetext\n===\nunder\n---",
        "<script>alert(1)</script> <b>bold</b> &amp; &#60; [link](http://x) ![img](file:///etc/passwd)",
        "| a | b |\n|---|---|\n| c | d |",
        "a\n\nb\n\n\n\nc\r\n\r\nd",
        "  two spaces\n\t tab\n     five",
        "trailing\\\nbackslash\\",
        "*em* _em_ **strong** `code` ~~strike~~ \\* \\_",
        "1.5 -0.25 +3 =4",
        "\x01\x02\x08\x0b\x0c\x7f controls",
        "caf\xc3\xa9 \xe2\x80\x93 \xe2\x98\x85 \xf0\x9f\x94\xa5 kept",
        "end\n",
        htmlVerdict(),
        markdownHeading(),
    };
    s.push_back(longString());
    return s;
}

// Whether `s` is valid UTF-8 (every sequence whole, no overlong form, surrogate or code point past U+10FFFF): what a
// renderer must hand on after it replaced the bytes that are not.
inline bool validUtf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
        const unsigned char c = b(0);
        std::size_t n = 0;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80)
            n = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            n = 2;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else
            return false;
        if (i + n > s.size()) return false;
        if (n > 1 && (b(1) < lo || b(1) > hi)) return false;
        for (std::size_t k = 2; k < n; ++k)
            if (b(k) < 0x80 || b(k) > 0xBF) return false;
        i += n;
    }
    return true;
}

}  // namespace fp8dash::test
