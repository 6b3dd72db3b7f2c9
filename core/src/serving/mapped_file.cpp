// A mapped result file that survives being cut short (mapped_file.h). A process-wide SIGBUS handler, installed with
// the first mapping, looks the faulting address up in a fixed table of the mappings in use (lock-free atomics only:
// a signal handler may take no lock and allocate nothing); for one of ours it maps zero pages over the rest of the
// mapping, marks it cut short and returns, so the access that faulted reads a zero. Any other SIGBUS goes to the
// handler that was there before, or ends the process as it would have.
#include "serving/mapped_file.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace fp8dash::detail {
namespace {

struct MappedSlot {
    std::atomic<std::uintptr_t> begin{0};  // 0: free; 1: being claimed
    std::atomic<std::uintptr_t> end{0};    // page-rounded
    std::atomic<bool> cut{false};
};

constexpr int kMappedSlots = 64;
MappedSlot gMappedSlots[kMappedSlots];
struct sigaction gPreviousSigbus {};
std::uintptr_t gPageSize = 4096;

void mappedFileOnSigbus(int sig, siginfo_t* info, void* context) {
    const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (MappedSlot& slot : gMappedSlots) {
        const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
        if (begin <= 1 || at < begin || at >= end) continue;
        const std::uintptr_t page = at & ~(gPageSize - 1);
        void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        slot.cut.store(true, std::memory_order_release);
        return;  // the access is made again, on a zero page
    }
    if ((gPreviousSigbus.sa_flags & SA_SIGINFO) != 0 && gPreviousSigbus.sa_sigaction != nullptr) {
        gPreviousSigbus.sa_sigaction(sig, info, context);
    } else if (gPreviousSigbus.sa_handler != SIG_DFL && gPreviousSigbus.sa_handler != SIG_IGN &&
               gPreviousSigbus.sa_handler != nullptr) {
        gPreviousSigbus.sa_handler(sig);
    } else {
        ::signal(SIGBUS, SIG_DFL);  // the access faults again and ends the process, as without this handler
    }
}

bool mappedFileInstallHandler() {
    static const bool installed = [] {
        gPageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        struct sigaction action {};
        action.sa_sigaction = &mappedFileOnSigbus;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        return ::sigaction(SIGBUS, &action, &gPreviousSigbus) == 0;
    }();
    return installed;
}

}  // namespace

std::optional<MappedFile> MappedFile::map(int fd, std::size_t size) {
    if (size == 0 || !mappedFileInstallHandler()) return std::nullopt;
    int slot = 0;
    for (; slot < kMappedSlots; ++slot) {
        std::uintptr_t free = 0;
        if (gMappedSlots[slot].begin.compare_exchange_strong(free, 1, std::memory_order_acq_rel)) break;
    }
    if (slot == kMappedSlots) return std::nullopt;
    MappedSlot& s = gMappedSlots[slot];
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        s.begin.store(0, std::memory_order_release);
        return std::nullopt;
    }
    ::madvise(map, size, MADV_SEQUENTIAL);
    const auto begin = reinterpret_cast<std::uintptr_t>(map);
    s.cut.store(false, std::memory_order_relaxed);
    s.end.store((begin + size + gPageSize - 1) & ~(gPageSize - 1), std::memory_order_release);
    s.begin.store(begin, std::memory_order_release);
    return MappedFile(static_cast<const char*>(map), size, slot);
}

MappedFile::MappedFile(MappedFile&& other) noexcept : m_data(other.m_data), m_size(other.m_size), m_slot(other.m_slot) {
    other.m_data = nullptr;
    other.m_slot = -1;
}

MappedFile::~MappedFile() {
    if (m_slot < 0) return;
    // The slot is freed before the range is: a SIGBUS at an address the kernel hands out again is never taken for ours.
    MappedSlot& s = gMappedSlots[m_slot];
    s.end.store(0, std::memory_order_release);
    s.begin.store(0, std::memory_order_release);
    ::munmap(const_cast<char*>(m_data), m_size);
}

void MappedFile::release() const {
    if (m_slot >= 0) ::madvise(const_cast<char*>(m_data), m_size, MADV_DONTNEED);
}

bool MappedFile::cutShort() const {
    return m_slot >= 0 && gMappedSlots[m_slot].cut.load(std::memory_order_acquire);
}

}  // namespace fp8dash::detail
