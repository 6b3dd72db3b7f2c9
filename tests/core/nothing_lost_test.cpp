// Nothing the user had is lost when a save fails: a full disk, a read-only folder and a process killed in
// the middle of a save all leave the previous file whole, and the failures say why. The full disk is a real one
// where the test may mount a small tmpfs (as root), and always a file-size limit (RLIMIT_FSIZE, EFBIG) in a child
// process; the read-only folder is a tmpfs remounted read-only (root) or a 0555 folder (others, whom it stops).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "fp8dash/core/comparison_file.h"
#include "fp8dash/core/demo.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;
namespace fs = std::filesystem;

// The demo with a timeline of `points` samples: a file of a few hundred bytes per thousand points.
ComparisonDocument documentWithPoints(std::size_t points, double level) {
    ComparisonDocument doc = loadDemoComparison().value();
    TimelineData& t = *doc.timeline;
    t.throughput->samples.clear();
    for (std::size_t i = 0; i < points; ++i)
        t.throughput->samples.push_back({t.settings.from + static_cast<double>(i), level + static_cast<double>(i % 7)});
    return doc;
}

std::string nothingLostReadAll(const fs::path& p) {
    return readTextFile(p).value();
}

// The files of a folder other than `keep` (the temporary files a failed save must not leave behind).
std::vector<std::string> othersIn(const fs::path& dir, const fs::path& keep) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path() != keep) out.push_back(e.path().filename().string());
    return out;
}

// A tmpfs of `bytes` mounted at `dir` for the test's lifetime; mounted() is false where this process may not mount.
class SmallTmpfs {
public:
    SmallTmpfs(const fs::path& dir, std::size_t bytes) : m_dir(dir) {
        fs::create_directories(dir);
        const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
        m_mounted = ::geteuid() == 0 && ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0;
    }
    ~SmallTmpfs() {
        if (m_mounted) ::umount2(m_dir.c_str(), MNT_DETACH);
    }
    bool mounted() const { return m_mounted; }
    bool remountReadOnly() const {
        return ::mount("tmpfs", m_dir.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    }

private:
    fs::path m_dir;
    bool m_mounted = false;
};

TEST(NothingLost, ASaveThatHitsTheFileSizeLimitLeavesTheOldFileAndSaysWhy) {
    TempDir dir;
    const fs::path path = dir.path() / "review.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(documentWithPoints(10, 1000), path).ok());
    const std::string before = nothingLostReadAll(path);
    // A child with a 64 KiB file-size limit saves a document of several MiB over it.
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipeFds[0]);
        ::signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG instead of the signal killing the process
        rlimit limit{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const Status s = saveComparisonFile(documentWithPoints(200000, 2000), path);
        const std::string message = s ? std::string("saved") : s.error().message;
        [[maybe_unused]] auto n = ::write(pipeFds[1], message.data(), message.size());
        ::_exit(s ? 1 : 0);
    }
    ::close(pipeFds[1]);
    std::string message;
    char buffer[512];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        message.append(buffer, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << message;
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_NE(message.find("the previous file is unchanged"), std::string::npos) << message;
    EXPECT_EQ(nothingLostReadAll(path), before);
    EXPECT_TRUE(loadComparisonFile(path).ok());
    EXPECT_TRUE(othersIn(dir.path(), path).empty());  // the temporary file went with the failure
}

TEST(NothingLost, ASaveOnAFullDiskLeavesTheOldFileAndSaysWhy) {
    TempDir dir;
    SmallTmpfs disk(dir.path() / "small", 1 << 20);
    if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (not root): the file-size-limit test covers it";
    const fs::path path = dir.path() / "small" / "review.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(documentWithPoints(10, 1000), path).ok());
    const std::string before = nothingLostReadAll(path);
    const Status s = saveComparisonFile(documentWithPoints(200000, 2000), path);  // megabytes into 1 MiB
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("No space left on device"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("the previous file is unchanged"), std::string::npos) << s.error().message;
    EXPECT_EQ(nothingLostReadAll(path), before);
    EXPECT_TRUE(othersIn(path.parent_path(), path).empty());
    // Room again (a smaller document): the save goes through.
    EXPECT_TRUE(saveComparisonFile(documentWithPoints(20, 3000), path).ok());
}

TEST(NothingLost, ASaveIntoAReadOnlyFolderLeavesTheOldFileAndSaysWhy) {
    TempDir dir;
    const fs::path folder = dir.path() / "shared";
    SmallTmpfs disk(folder, 4 << 20);
    const fs::path path = folder / "review.fp8cmp";
    ASSERT_TRUE(saveComparisonFile(documentWithPoints(10, 1000), path).ok());
    const std::string before = nothingLostReadAll(path);
    std::string expected;
    if (disk.mounted()) {
        ASSERT_TRUE(disk.remountReadOnly());
        expected = "Read-only file system";
    } else {
        ::chmod(folder.c_str(), 0555);
        expected = "Permission denied";
    }
    const Status s = saveComparisonFile(documentWithPoints(20, 2000), path);
    if (!disk.mounted()) ::chmod(folder.c_str(), 0755);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(expected), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find(folder.string()), std::string::npos) << s.error().message;
    EXPECT_EQ(nothingLostReadAll(path), before);
}

TEST(NothingLost, KillingAProcessInTheMiddleOfSavingNeverLeavesABrokenFile) {
    TempDir dir;
    const fs::path path = dir.path() / "review.fp8cmp";
    // Two versions a few MiB each, told apart by their throughput level.
    const ComparisonDocument a = documentWithPoints(150000, 1000), b = documentWithPoints(150000, 5000);
    ASSERT_TRUE(saveComparisonFile(a, path).ok());
    std::mt19937 random(20261201);
    int killedMidWrite = 0;
    for (int round = 0; round < 12; ++round) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            for (int i = 0;; ++i) (void)saveComparisonFile(i % 2 ? a : b, path);  // until killed
        }
        if (round % 2 == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50 + random() % 400));  // any moment
        } else {
            // The moment a temporary file exists, i.e. during a write (how long a write takes depends on the
            // machine, so random moments alone may all fall between writes).
            const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (othersIn(dir.path(), path).empty() && std::chrono::steady_clock::now() < giveUp)
                std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        // Whatever the moment, the file is one of the two versions, whole.
        auto loaded = loadComparisonFile(path);
        ASSERT_TRUE(loaded.ok()) << "round " << round << ": " << loaded.error().message;
        const double level = loaded->timeline->throughput->samples.front().v;
        EXPECT_TRUE(level == 1000 || level == 5000) << level;
        for (const auto& other : othersIn(dir.path(), path)) {
            ++killedMidWrite;  // a temporary file the kill left: hidden, never the comparison itself
            EXPECT_EQ(other.rfind(".review.fp8cmp.tmp-", 0), 0u) << other;
            fs::remove(dir.path() / other);
        }
    }
    // The kills landed during writes at least sometimes (else the test would prove little): the rounds that wait for
    // a temporary file kill while one exists, unless the rename came in between, which a single round may see.
    EXPECT_GT(killedMidWrite, 0);
}

}  // namespace
}  // namespace fp8dash
