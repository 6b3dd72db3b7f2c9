#pragma once
// Internal to core: a big result file mapped into memory instead of read (serving_paths.cpp): the page cache's pages,
// no copy into the process (reading a 700 MB file costs the kernel's zeroing and copying, half the parse's time).
// A mapped file that is cut short while it is read (a benchmark writing its result again: Python's open(..., "w")
// truncates) would end the process with SIGBUS; here the pages past the new end read as zeros instead, and
// cutShort() says so, so the reader answers with an error naming the file.
#include <cstddef>
#include <optional>

namespace fp8dash::detail {

class MappedFile {
public:
    // Maps size bytes of fd read-only; nullopt where it cannot (the caller reads the file instead).
    static std::optional<MappedFile> map(int fd, std::size_t size);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&&) = delete;
    ~MappedFile();

    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    // The file shrank while mapped: what lay past its new end read as zeros.
    bool cutShort() const;
    // Drops the pages read so far from the process (they stay in the page cache; reading again maps them again).
    void release() const;

private:
    MappedFile(const char* data, std::size_t size, int slot) : m_data(data), m_size(size), m_slot(slot) {}
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    int m_slot = -1;
};

}  // namespace fp8dash::detail
