// writeFileAtomically (comparison_file.h): a temporary file beside the target, flushed, renamed over it. A new file
// follows the umask, a replaced one keeps its mode, owner and group, and a symbolic link is written through: its
// final target is replaced (atomically, beside the target) and the link stays a link.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fp8dash/core/comparison_file.h"

namespace fp8dash {
namespace {

namespace fs = std::filesystem;

// The process's umask without changing it. umask(2) only reads by setting, which races with every other thread
// creating a file, so Linux's /proc/self/status "Umask:" line (since 4.7) comes first; the fallback sets and
// restores it under a lock (other threads of this process that create files at that instant could see 0).
mode_t currentUmask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) != 0) continue;
        try {
            return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8) & 0777);
        } catch (const std::exception&) {
            break;
        }
    }
    static std::mutex lock;
    const std::lock_guard<std::mutex> guard(lock);
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return mask;
}

// The file a write to `path` must replace: `path` itself, or the final target of the symbolic links it names (a
// relative link is relative to the folder holding it). A dangling link gives its target, which the write creates.
Result<fs::path> writeTarget(const fs::path& path) {
    fs::path p = path;
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
        const fs::path next = fs::read_symlink(p, ec);
        if (ec) return Error{path.string() + ": cannot read the link " + p.string() + ": " + ec.message()};
        p = next.is_absolute() ? next : (p.has_parent_path() ? p.parent_path() : fs::path(".")) / next;
    }
    return Error{path.string() + ": too many levels of symbolic links"};
}

}  // namespace

Status writeFileAtomically(const std::filesystem::path& path, std::string_view bytes) {
    auto resolved = writeTarget(path);
    if (!resolved) return resolved.error();
    const fs::path target = std::move(resolved).value();
    // Messages name what the user gave, and the link's target where they differ.
    const std::string name = target == path ? path.string() : path.string() + " (a link to " + target.string() + ")";
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (fs::is_directory(target, ec)) return Error{name + ": is a directory"};
    std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return Error{name + ": cannot write in " + dir.string() + ": " + std::strerror(errno)};
    const auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmpl.c_str());
        return Error{name + ": " + what + ": " + std::strerror(err) + " (the previous file is unchanged)"};
    };
    // A replaced file keeps its permissions, owner and group (the owner only where this process may give it away:
    // EPERM then, and the group alone is tried); a new file gets what the umask leaves of 0666, as open(2) would.
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) {
        struct stat mine {};
        if (::fstat(fd, &mine) == 0 && (mine.st_uid != st.st_uid || mine.st_gid != st.st_gid)) {
            if (::fchown(fd, st.st_uid, st.st_gid) != 0 && errno == EPERM) (void)::fchown(fd, (uid_t)-1, st.st_gid);
        }
        if (::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot set permissions");
    } else if (::fchmod(fd, 0666 & ~currentUmask()) != 0) {
        return fail("cannot set permissions");
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) return fail("flush to disk failed");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return Error{name + ": close failed: " + std::strerror(err) + " (the previous file is unchanged)"};
    }
    if (::rename(tmpl.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmpl.c_str());
        return Error{name + ": cannot replace the file: " + std::strerror(err) + " (the previous file is unchanged)"};
    }
    // Make the rename itself durable.
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return success();
}

}  // namespace fp8dash
