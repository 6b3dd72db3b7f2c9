// Fuzz target: the Markdown escaper (markdown_text.h), by its structural property: an escaped value, at a line's
// start, in a list item, after text on its line and in a heading, parses (cmark, CommonMark's reference parser) to
// the one block that place makes, holding only text and line breaks, and - for UTF-8 input - the value's own text.
// The first byte picks nothing: every input runs every place. Also visibleControls: no control survives it.
#include <algorithm>
#include <cstdint>
#include <string>

#include "fp8dash/core/markdown_text.h"
#include "fp8dash/core/untrusted_text.h"
#include "fuzz_support.h"
#include "markdown_structure.h"

using namespace fp8dash;

namespace {

// Whether `s` is UTF-8 (cmark replaces what is not, so only such text can be compared byte for byte).
bool validUtf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80                 ? 1
                              : c >= 0xC2 && c <= 0xDF ? 2
                              : c >= 0xE0 && c <= 0xEF ? 3
                              : c >= 0xF0 && c <= 0xF4 ? 4
                                                       : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        const auto c1 = static_cast<unsigned char>(s[i + (n > 1 ? 1 : 0)]);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
            (c == 0xF4 && c1 >= 0x90))
            return false;
        i += n;
    }
    return true;
}

// The blocks of `md` are `blocks`; where the value is blank (nothing, or spaces and tabs only) a paragraph may be
// missing from them, as a blank line makes none.
void expectBlocks(const std::string& md, std::vector<std::string> blocks, bool blank, const char* where) {
    const test::Parsed p = test::parse(md);
    bool ok = p.blocks == blocks;
    if (!ok && blank) {
        const auto first = std::find_if(blocks.begin(), blocks.end(), [](const std::string& b) {
            return b.size() >= 9 && b.compare(b.size() - 9, 9, "paragraph") == 0;
        });
        if (first != blocks.end()) blocks.erase(first);
        ok = p.blocks == blocks;
    }
    fuzz::check(ok, where, md);
    fuzz::check(p.inlineKinds.empty(), "an escaped value made an inline other than text", md);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string v(fuzz::text(data, size));
    if (v.find('\0') != std::string::npos) return 0;  // cmark reads NUL as U+FFFD; the writers never see one
    const std::string shown = visibleControls(v);
    for (unsigned char c : shown) fuzz::check(c >= 0x20 || c == '\n' || c == '\t', "a control survived", shown);
    const bool utf8 = validUtf8(v);
    const bool blank = v.find_first_not_of(" \t") == std::string::npos;

    const std::string line = markdown::escape(v) + "\n";
    expectBlocks(line, {"paragraph"}, blank, "a value at a line start is not one paragraph");
    if (utf8)
        fuzz::check(test::normalized(test::parse(line).text, false) == test::normalized(v, false),
                    "a paragraph's text is not the value's", line);
    expectBlocks("- " + markdown::escape(v) + "\n- next\n",
                 {"list", "list/item", "list/item/paragraph", "list/item", "list/item/paragraph"}, blank,
                 "a value in a list item left its item");
    expectBlocks("Before: " + markdown::escape(v, markdown::Where::Text, markdown::Start::MidLine) + " after\n",
                 {"paragraph"}, false, "a value after text is not in its paragraph");
    expectBlocks("## " + markdown::escape(v, markdown::Where::Heading) + "\n\nbody\n", {"heading", "paragraph"}, false,
                 "a value in a heading left it");
    const std::string cell = markdown::escape(v, markdown::Where::TableCell);
    fuzz::check(cell.find('\n') == std::string::npos && cell.find('\r') == std::string::npos,
                "a table cell holds a line break", cell);
    expectBlocks(markdown::codeBlock(v) + "after\n", {"code_block", "paragraph"}, false,
                 "a code block was closed early");
    return 0;
}
