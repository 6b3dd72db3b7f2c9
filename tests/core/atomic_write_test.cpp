// The atomic writer's modes, owners and links (issue 26, finding 7): a new file follows the umask, a replaced file
// keeps its mode, owner and group, a save through a symbolic link replaces the link's final target and leaves the
// link a link, and a link that leads nowhere writable fails naming the link and the folder.
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fp8dash/core/comparison_file.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TempDir;
namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

mode_t modeOf(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
}

// The umask for the scope of a test (the tests run on one thread).
class ScopedUmask {
public:
    explicit ScopedUmask(mode_t mask) : m_old(::umask(mask)) {}
    ~ScopedUmask() { ::umask(m_old); }

private:
    mode_t m_old;
};

int entriesIn(const fs::path& dir) {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

TEST(AtomicWriteModes, ANewFileFollowsTheUmask) {
    TempDir dir;
    for (const mode_t mask : {mode_t{077}, mode_t{022}, mode_t{027}, mode_t{002}}) {
        const ScopedUmask scoped(mask);
        const fs::path path = dir.path() / ("new-" + std::to_string(mask) + ".fp8cmp");
        ASSERT_TRUE(writeFileAtomically(path, "bytes").ok());
        // What open(2) with 0666 would have made under this umask.
        EXPECT_EQ(modeOf(path), 0666 & ~mask) << "umask " << std::oct << mask;
        EXPECT_EQ(readAll(path), "bytes");
    }
}

TEST(AtomicWriteModes, AnExistingFileKeepsItsModeWhateverTheUmask) {
    TempDir dir;
    const fs::path path = dir.write("shared.fp8cmp", "old");
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    const ScopedUmask scoped(077);
    ASSERT_TRUE(writeFileAtomically(path, "new").ok());
    EXPECT_EQ(modeOf(path), 0640u);
    EXPECT_EQ(readAll(path), "new");
    EXPECT_EQ(entriesIn(dir.path()), 1);  // no temporary file left
}

TEST(AtomicWriteModes, AnExistingFileKeepsItsOwnerAndGroup) {
    if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another owner needs root";
    TempDir dir;
    const fs::path path = dir.write("theirs.fp8cmp", "old");
    ASSERT_EQ(::chown(path.c_str(), 4242, 4343), 0);
    ASSERT_TRUE(writeFileAtomically(path, "new").ok());
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 4242u);
    EXPECT_EQ(st.st_gid, 4343u);
    EXPECT_EQ(readAll(path), "new");
}

TEST(AtomicWriteLinks, ASaveThroughALinkReplacesItsTargetAndTheLinkStays) {
    TempDir dir;
    const fs::path target = dir.write("shared/review.fp8cmp", "old");
    ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
    fs::create_directories(dir.path() / "mine");
    const fs::path link = dir.path() / "mine" / "review.fp8cmp";
    fs::create_symlink("../shared/review.fp8cmp", link);  // relative to the link's folder
    const fs::path second = dir.path() / "alias.fp8cmp";  // a chain: alias -> mine/review -> shared/review
    fs::create_symlink(link, second);

    ASSERT_TRUE(writeFileAtomically(link, "through the link").ok());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(fs::read_symlink(link), fs::path("../shared/review.fp8cmp"));
    EXPECT_EQ(readAll(target), "through the link");
    EXPECT_EQ(modeOf(target), 0640u);

    ASSERT_TRUE(writeFileAtomically(second, "through two links").ok());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(second)));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(readAll(target), "through two links");
    // The temporary file was beside the target, and nothing is left of it anywhere.
    EXPECT_EQ(entriesIn(dir.path() / "shared"), 1);
    EXPECT_EQ(entriesIn(dir.path() / "mine"), 1);
}

TEST(AtomicWriteLinks, ADanglingLinkGetsItsTargetCreated) {
    TempDir dir;
    fs::create_directories(dir.path() / "elsewhere");
    const fs::path link = dir.path() / "review.fp8cmp";
    fs::create_symlink(dir.path() / "elsewhere" / "new.fp8cmp", link);
    const ScopedUmask scoped(027);
    ASSERT_TRUE(writeFileAtomically(link, "first save").ok());
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(readAll(dir.path() / "elsewhere" / "new.fp8cmp"), "first save");
    EXPECT_EQ(modeOf(dir.path() / "elsewhere" / "new.fp8cmp"), 0640u);
}

TEST(AtomicWriteLinks, ALinkToAFolderOrALoopIsAClearError) {
    TempDir dir;
    fs::create_directories(dir.path() / "folder");
    const fs::path toFolder = dir.path() / "to-folder.fp8cmp";
    fs::create_symlink(dir.path() / "folder", toFolder);
    const Status s = writeFileAtomically(toFolder, "x");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(toFolder.string()), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("is a directory"), std::string::npos) << s.error().message;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(toFolder)));

    const fs::path a = dir.path() / "a.fp8cmp", b = dir.path() / "b.fp8cmp";
    fs::create_symlink(b, a);
    fs::create_symlink(a, b);
    const Status loop = writeFileAtomically(a, "x");
    ASSERT_FALSE(loop.ok());
    EXPECT_NE(loop.error().message.find(a.string()), std::string::npos) << loop.error().message;
    EXPECT_NE(loop.error().message.find("symbolic links"), std::string::npos) << loop.error().message;
}

TEST(AtomicWriteLinks, ALinkIntoAFolderThatIsNotWritableNamesTheLinkAndTheFolder) {
    TempDir dir;
    const fs::path folder = dir.path() / "readonly";
    fs::create_directories(folder);
    // Root writes into a 0555 folder: a read-only tmpfs stops it; others are stopped by the mode.
    const bool mounted = ::geteuid() == 0 && ::mount("tmpfs", folder.c_str(), "tmpfs", 0, "size=1m") == 0;
    if (::geteuid() == 0 && !mounted)
        GTEST_SKIP() << "root, and no tmpfs can be mounted here to make a read-only folder";
    const fs::path target = folder / "review.fp8cmp";
    std::ofstream(target) << "old";
    const fs::path link = dir.path() / "review.fp8cmp";
    fs::create_symlink(target, link);
    if (mounted) {
        ASSERT_EQ(::mount("tmpfs", folder.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr), 0);
    } else {
        ::chmod(folder.c_str(), 0555);
    }
    const Status s = writeFileAtomically(link, "new");
    const std::string after = readAll(target);
    if (mounted)
        ::umount2(folder.c_str(), MNT_DETACH);
    else
        ::chmod(folder.c_str(), 0755);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(link.string()), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find(folder.string()), std::string::npos) << s.error().message;
    EXPECT_EQ(after, "old");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
}

}  // namespace
}  // namespace fp8dash
