#pragma once
// Every byte the CLI writes to stdout and stderr passes through VisibleControlsBuf (untrusted_text.h): data from
// files and servers cannot move the cursor, rewrite a line or reorder text on a reviewer's terminal, in any format.
// fp8dash's own progress lines ("\r... 40%", ESC [K) are written past the filter with writeTerminalControl.
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

#include "fp8dash/core/untrusted_text.h"

namespace fp8dash::cli {

class VisibleControlsBuf : public std::streambuf {
public:
    explicit VisibleControlsBuf(std::ostream& target) : m_target(target) {}
    ~VisibleControlsBuf() override { flushAll(true); }
    VisibleControlsBuf(const VisibleControlsBuf&) = delete;
    VisibleControlsBuf& operator=(const VisibleControlsBuf&) = delete;

    // Writes `controls` to the target as they are, after what was written before.
    void writeRaw(std::string_view controls) {
        flushAll(false);
        m_target.write(controls.data(), static_cast<std::streamsize>(controls.size()));
    }

protected:
    int_type overflow(int_type c) override {
        if (!traits_type::eq_int_type(c, traits_type::eof())) m_pending += traits_type::to_char_type(c);
        if (m_pending.size() >= 4096) flushAll(false);
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        m_pending.append(s, static_cast<std::size_t>(n));
        if (m_pending.size() >= 4096) flushAll(false);
        return n;
    }
    int sync() override {
        flushAll(false);
        m_target.flush();
        return m_target ? 0 : -1;
    }

private:
    // Passes on the pending bytes but a UTF-8 sequence cut short at their end (unless `all`: then as invalid bytes).
    void flushAll(bool all) {
        const std::size_t n = all ? m_pending.size() : wholeUtf8Prefix(m_pending);
        if (n == 0) return;
        const std::string shown = visibleControls(std::string_view(m_pending).substr(0, n));
        m_target.write(shown.data(), static_cast<std::streamsize>(shown.size()));
        m_pending.erase(0, n);
    }

    std::ostream& m_target;
    std::string m_pending;
};

// fp8dash's own terminal controls (a progress line's "\r" and ESC [K): raw past the filter where `os` has one.
inline void writeTerminalControl(std::ostream& os, std::string_view controls) {
    if (auto* buf = dynamic_cast<VisibleControlsBuf*>(os.rdbuf())) {
        buf->writeRaw(controls);
    } else {
        os << controls;
    }
}

}  // namespace fp8dash::cli
