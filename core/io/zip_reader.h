#pragma once
// A small read-only zip reader for torch.save archives. torch.save stores every entry uncompressed
// (method STORED), 64-byte aligned, always with ZIP64 end records, so entries are served as views into the
// mapped file with no copy. Compressed (DEFLATE) entries are listed but refused on read.
// Every offset and length from the file is bounds-checked; a broken archive is an fxray::Error naming the file.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxray::io {

struct ZipEntry {
    std::string name;
    std::uint16_t method = 0;          // 0 = stored, 8 = deflate
    std::uint16_t flags = 0;           // general purpose bits (bit 0: encrypted)
    std::uint32_t crc32 = 0;
    std::uint64_t compressedSize = 0;
    std::uint64_t size = 0;            // uncompressed
    std::uint64_t localHeaderOffset = 0;
    std::uint64_t dataOffset = 0;      // first byte of the entry's data (after its local header)
};

class ZipReader {
public:
    // Maps the file (or reads it where mapping is unavailable). Truncating the file while it is open is
    // not supported (the mapping would fault).
    explicit ZipReader(const std::string& path);
    // An archive held in memory; `name` is used in error messages.
    ZipReader(std::string bytes, std::string name);
    ~ZipReader();
    ZipReader(const ZipReader&) = delete;
    ZipReader& operator=(const ZipReader&) = delete;

    const std::string& path() const { return m_path; }
    const std::vector<ZipEntry>& entries() const { return m_entries; }
    std::vector<std::string> entryNames() const;
    const ZipEntry* find(std::string_view name) const;  // nullptr when absent

    // The entry's bytes, valid while this reader lives. Errors for compressed/encrypted entries.
    std::string_view read(const ZipEntry& entry) const;
    std::string_view read(std::string_view name) const;  // error when the entry is absent
    bool crcMatches(const ZipEntry& entry) const;         // CRC-32 of read(entry) against the directory's

    // "<archive>" such that "<archive>/data.pkl" exists (torch.save's top-level folder); error when none.
    std::string archivePrefix() const;

private:
    struct CentralDirectory {
        std::uint64_t offset = 0, size = 0, entries = 0;
    };
    void parse();
    std::size_t findEndRecord() const;
    CentralDirectory readEndRecords(std::size_t eocd) const;
    ZipEntry readCentralEntry(std::uint64_t i, std::uint64_t& pos, std::uint64_t cdEnd) const;
    void readZip64Extra(ZipEntry& entry, std::uint64_t& startDisk, const char* x, const char* xEnd) const;
    void locateData(ZipEntry& entry) const;
    [[noreturn]] void fail(const std::string& message) const;

    std::string m_path;
    std::string m_owned;           // in-memory archive or read fallback
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    void* m_map = nullptr;         // mmap'ed region, when mapped
    std::size_t m_mapSize = 0;
    std::vector<ZipEntry> m_entries;
    std::unordered_map<std::string, std::size_t> m_index;
};

std::uint32_t crc32(std::string_view data);

}  // namespace fxray::io
