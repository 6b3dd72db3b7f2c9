#pragma once
// Helpers shared by the libFuzzer targets (tests/fuzz/README.md): the input as text, a scratch file for the readers
// that take a path, and the check that turns a broken invariant into a crash the fuzzer reports. Single-threaded, as
// libFuzzer calls a target.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace fp8dash::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// A broken invariant is a finding: say which, then abort so libFuzzer keeps the input.
[[noreturn]] inline void fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fp8dash fuzz: invariant broken: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
    std::abort();
}
inline void check(bool ok, const char* what, const std::string& detail = {}) {
    if (!ok) fail(what, detail);
}

// An error is a user-presentable message that names the input: never empty, always naming sourceName.
inline void checkErrorNames(const std::string& message, std::string_view sourceName) {
    check(!message.empty(), "an error message is empty");
    check(message.find(sourceName) != std::string::npos, "an error message does not name the input", message);
}

// One scratch folder per process (removed at exit), for the readers that take a file path: in $TMPDIR, else in
// /dev/shm (rewriting a file for each input is 20 times slower on a disk), else in /tmp.
class ScratchFile {
public:
    explicit ScratchFile(const std::string& fileName) {
        const char* tmp = std::getenv("TMPDIR");
        std::error_code ec;
        const std::filesystem::path base = tmp && *tmp                                     ? tmp
                                           : std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm"
                                                                                           : "/tmp";
        m_dir = base / ("fp8dash-fuzz-" + std::to_string(static_cast<long long>(::getpid())));
        std::filesystem::create_directories(m_dir);
        m_path = m_dir / fileName;
    }
    ~ScratchFile() {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    const std::filesystem::path& write(std::string_view bytes) {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        check(static_cast<bool>(out), "cannot write the scratch file", m_path.string());
        return m_path;
    }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_dir;
    std::filesystem::path m_path;
};

}  // namespace fp8dash::fuzz
