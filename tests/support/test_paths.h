#pragma once
// Paths shared by the test suites: the shared real-world fixtures (read in place, never copied) and tests/data.

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

namespace fp8dash::test {

inline std::filesystem::path sharedFixtures() {
    return FP8DASH_SHARED_FIXTURES;
}
inline std::filesystem::path testData() {
    return FP8DASH_TEST_DATA;
}

// The path of a real lm-eval fixture, or "" when the shared folder is absent (callers GTEST_SKIP then).
inline std::filesystem::path lmEvalFixture(const std::string& name) {
    const auto p = sharedFixtures() / "lm-eval" / name;
    return std::filesystem::exists(p) ? p : std::filesystem::path();
}

#define FP8DASH_REQUIRE_FIXTURE(var, name)                                                                \
    const std::filesystem::path var = ::fp8dash::test::lmEvalFixture(name);                               \
    if (var.empty())                                                                                      \
    GTEST_SKIP() << "shared fixture " << name << " not found under " << ::fp8dash::test::sharedFixtures() \
                 << " (the ../shared/fixtures folder beside the checkout); conformance test skipped"

// A fresh temporary directory, removed with the object.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "fp8dash-test-XXXXXX").string();
        m_path = ::mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path write(const std::string& name, const std::string& content) const {
        const auto p = m_path / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

private:
    std::filesystem::path m_path;
};

}  // namespace fp8dash::test
