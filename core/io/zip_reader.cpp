#include "io/zip_reader.h"

#include "base/error.h"

#include <array>
#include <fstream>
#include <iterator>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define FXRAY_ZIP_MMAP 1
#endif

namespace fxray::io {
namespace {

constexpr std::uint32_t kLocalHeaderSig = 0x04034b50;
constexpr std::uint32_t kCentralHeaderSig = 0x02014b50;
constexpr std::uint32_t kEocdSig = 0x06054b50;
constexpr std::uint32_t kZip64EocdSig = 0x06064b50;
constexpr std::uint32_t kZip64LocatorSig = 0x07064b50;
constexpr std::size_t kEocdSize = 22;
constexpr std::size_t kZip64LocatorSize = 20;
constexpr std::size_t kZip64EocdSize = 56;
constexpr std::size_t kCentralHeaderSize = 46;
constexpr std::size_t kLocalHeaderSize = 30;

std::uint64_t le(const char* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}
std::uint16_t le16(const char* p) { return static_cast<std::uint16_t>(le(p, 2)); }
std::uint32_t le32(const char* p) { return static_cast<std::uint32_t>(le(p, 4)); }
std::uint64_t le64(const char* p) { return le(p, 8); }

// a + b <= limit, without overflow.
bool fits(std::uint64_t a, std::uint64_t b, std::uint64_t limit) { return a <= limit && b <= limit - a; }

constexpr std::array<std::uint32_t, 256> makeCrcTable()
{
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}
constexpr auto kCrcTable = makeCrcTable();

}  // namespace

std::uint32_t crc32(std::string_view data)
{
    std::uint32_t c = 0xFFFFFFFFu;
    for (const char ch : data)
        c = kCrcTable[(c ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

ZipReader::ZipReader(const std::string& path)
    : m_path(path)
{
#ifdef FXRAY_ZIP_MMAP
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("cannot open file");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail("not a regular file");
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size > 0) {
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            m_map = p;
            m_mapSize = size;
            m_data = static_cast<const char*>(p);
            m_size = size;
        }
    }
    ::close(fd);
    if (size > 0 && !m_map)
#endif
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            fail("cannot open file");
        m_owned.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (in.bad())
            fail("cannot read file");
        m_data = m_owned.data();
        m_size = m_owned.size();
    }
    try {
        parse();
    } catch (...) {
        // The destructor does not run when the constructor throws: release the mapping here.
#ifdef FXRAY_ZIP_MMAP
        if (m_map)
            ::munmap(m_map, m_mapSize);
#endif
        m_map = nullptr;
        throw;
    }
}

ZipReader::ZipReader(std::string bytes, std::string name)
    : m_path(std::move(name)), m_owned(std::move(bytes))
{
    m_data = m_owned.data();
    m_size = m_owned.size();
    parse();
}

ZipReader::~ZipReader()
{
#ifdef FXRAY_ZIP_MMAP
    if (m_map)
        ::munmap(m_map, m_mapSize);
#endif
}

void ZipReader::fail(const std::string& message) const
{
    throw Error("zip: " + message, SourceLocation{m_path, 0, 0, {}});
}

void ZipReader::parse()
{
    if (m_size >= 2 && static_cast<unsigned char>(m_data[0]) == 0x80 && static_cast<unsigned char>(m_data[1]) <= 5)
        fail("this is a raw pickle, not a zip archive (legacy torch.save format is not supported)");
    if (m_size < kEocdSize)
        fail("file too small to be a zip archive (" + std::to_string(m_size) + " bytes; truncated?)");
    const CentralDirectory cd = readEndRecords(findEndRecord());
    m_entries.reserve(static_cast<std::size_t>(cd.entries));
    std::uint64_t pos = cd.offset;
    const std::uint64_t cdEnd = cd.offset + cd.size;
    for (std::uint64_t i = 0; i < cd.entries; ++i) {
        ZipEntry entry = readCentralEntry(i, pos, cdEnd);
        locateData(entry);
        if (!m_index.emplace(entry.name, m_entries.size()).second)
            fail("duplicate entry '" + entry.name + "'");
        m_entries.push_back(std::move(entry));
    }
}

// End of central directory: the last signature within the 64 KiB comment window whose comment fits.
std::size_t ZipReader::findEndRecord() const
{
    const std::size_t lowest = m_size - kEocdSize > 0xFFFF ? m_size - kEocdSize - 0xFFFF : 0;
    for (std::size_t pos = m_size - kEocdSize + 1; pos-- > lowest;) {
        if (le32(m_data + pos) == kEocdSig && pos + kEocdSize + le16(m_data + pos + 20) <= m_size)
            return pos;
    }
    fail("end of central directory not found (truncated or not a zip archive)");
}

// Where the central directory is and how many entries it holds: from the end record, or from the ZIP64 end
// record that its locator (just before the end record) points to.
ZipReader::CentralDirectory ZipReader::readEndRecords(std::size_t eocd) const
{
    const char* e = m_data + eocd;
    std::uint64_t diskNo = le16(e + 4);
    std::uint64_t cdDisk = le16(e + 6);
    CentralDirectory cd;
    cd.entries = le16(e + 10);
    cd.size = le32(e + 12);
    cd.offset = le32(e + 16);
    std::uint64_t cdLimit = eocd;  // the central directory ends before the end records

    if (eocd >= kZip64LocatorSize && le32(m_data + eocd - kZip64LocatorSize) == kZip64LocatorSig) {
        const char* loc = m_data + eocd - kZip64LocatorSize;
        const std::uint64_t recOffset = le64(loc + 8);
        if (le32(loc + 4) != 0 || le32(loc + 16) > 1)
            fail("multi-part zip archives are not supported");
        if (!fits(recOffset, kZip64EocdSize, eocd - kZip64LocatorSize))
            fail("ZIP64 end-of-central-directory record is out of bounds (offset "
                 + std::to_string(recOffset) + ")");
        const char* r = m_data + recOffset;
        if (le32(r) != kZip64EocdSig)
            fail("bad ZIP64 end-of-central-directory signature at offset " + std::to_string(recOffset));
        diskNo = le32(r + 16);
        cdDisk = le32(r + 20);
        cd.entries = le64(r + 32);
        cd.size = le64(r + 40);
        cd.offset = le64(r + 48);
        cdLimit = recOffset;
    } else if (cd.entries == 0xFFFF || cd.size == 0xFFFFFFFFu || cd.offset == 0xFFFFFFFFu) {
        fail("ZIP64 sizes without a ZIP64 end-of-central-directory locator");
    }
    if (diskNo != 0 || cdDisk != 0)
        fail("multi-part zip archives are not supported");
    if (!fits(cd.offset, cd.size, cdLimit))
        fail("central directory (offset " + std::to_string(cd.offset) + ", " + std::to_string(cd.size)
             + " bytes) lies outside the file (truncated?)");
    if (cd.entries > cd.size / kCentralHeaderSize)
        fail("central directory declares " + std::to_string(cd.entries) + " entries but has room for "
             + std::to_string(cd.size / kCentralHeaderSize));
    return cd;
}

// Central directory entry i at `pos` (moved past it): name, method, sizes and local header offset.
ZipEntry ZipReader::readCentralEntry(std::uint64_t i, std::uint64_t& pos, std::uint64_t cdEnd) const
{
    if (!fits(pos, kCentralHeaderSize, cdEnd))
        fail("central directory entry " + std::to_string(i) + " is truncated");
    const char* h = m_data + pos;
    if (le32(h) != kCentralHeaderSig)
        fail("bad central directory signature for entry " + std::to_string(i) + " at offset "
             + std::to_string(pos));
    ZipEntry entry;
    entry.flags = le16(h + 8);
    entry.method = le16(h + 10);
    entry.crc32 = le32(h + 16);
    entry.compressedSize = le32(h + 20);
    entry.size = le32(h + 24);
    const std::size_t nameLen = le16(h + 28);
    const std::size_t extraLen = le16(h + 30);
    const std::size_t commentLen = le16(h + 32);
    std::uint64_t startDisk = le16(h + 34);
    entry.localHeaderOffset = le32(h + 42);
    if (!fits(pos + kCentralHeaderSize, nameLen + extraLen + commentLen, cdEnd))
        fail("central directory entry " + std::to_string(i) + " runs past the directory");
    entry.name.assign(h + kCentralHeaderSize, nameLen);
    const char* extra = h + kCentralHeaderSize + nameLen;
    readZip64Extra(entry, startDisk, extra, extra + extraLen);
    if (startDisk != 0)
        fail("multi-part zip archives are not supported");
    pos += kCentralHeaderSize + nameLen + extraLen + commentLen;
    return entry;
}

// ZIP64 extra field: 64-bit values for the fields that hold all ones, in this order.
void ZipReader::readZip64Extra(ZipEntry& entry, std::uint64_t& startDisk, const char* x, const char* xEnd) const
{
    while (xEnd - x >= 4) {
        const std::uint16_t id = le16(x);
        const std::size_t len = le16(x + 2);
        const char* body = x + 4;
        if (static_cast<std::size_t>(xEnd - body) < len)
            fail("extra field of entry '" + entry.name + "' runs past its header");
        if (id == 0x0001) {
            const char* b = body;
            const char* bEnd = body + len;
            auto next64 = [&](std::uint64_t& field, const char* what) {
                if (bEnd - b < 8)
                    fail("ZIP64 extra field of entry '" + entry.name + "' lacks the " + what);
                field = le64(b);
                b += 8;
            };
            if (entry.size == 0xFFFFFFFFu)
                next64(entry.size, "size");
            if (entry.compressedSize == 0xFFFFFFFFu)
                next64(entry.compressedSize, "compressed size");
            if (entry.localHeaderOffset == 0xFFFFFFFFu)
                next64(entry.localHeaderOffset, "header offset");
            if (startDisk == 0xFFFF) {
                if (bEnd - b < 4)
                    fail("ZIP64 extra field of entry '" + entry.name + "' lacks the disk number");
                startDisk = le32(b);
            }
        }
        x = body + len;
    }
}

// The local header gives where the data starts (its extra field is torch's alignment padding).
void ZipReader::locateData(ZipEntry& entry) const
{
    const std::uint64_t lh = entry.localHeaderOffset;
    if (!fits(lh, kLocalHeaderSize, m_size))
        fail("local header of entry '" + entry.name + "' is outside the file (offset " + std::to_string(lh)
             + ")");
    const char* l = m_data + lh;
    if (le32(l) != kLocalHeaderSig)
        fail("bad local header signature for entry '" + entry.name + "' at offset " + std::to_string(lh));
    const std::size_t lNameLen = le16(l + 26);
    const std::size_t lExtraLen = le16(l + 28);
    if (!fits(lh + kLocalHeaderSize, lNameLen + lExtraLen, m_size))
        fail("local header of entry '" + entry.name + "' is truncated");
    if (std::string_view(l + kLocalHeaderSize, lNameLen) != entry.name)
        fail("local header name of entry '" + entry.name + "' does not match the central directory");
    entry.dataOffset = lh + kLocalHeaderSize + lNameLen + lExtraLen;
    if (!fits(entry.dataOffset, entry.compressedSize, m_size))
        fail("data of entry '" + entry.name + "' (" + std::to_string(entry.compressedSize)
             + " bytes at offset " + std::to_string(entry.dataOffset) + ") runs past the end of the file"
             + " (truncated?)");
    if (entry.method == 0 && entry.compressedSize != entry.size)
        fail("stored entry '" + entry.name + "' has different compressed and uncompressed sizes");
}

std::vector<std::string> ZipReader::entryNames() const
{
    std::vector<std::string> names;
    names.reserve(m_entries.size());
    for (const auto& e : m_entries)
        names.push_back(e.name);
    return names;
}

const ZipEntry* ZipReader::find(std::string_view name) const
{
    const auto it = m_index.find(std::string(name));
    return it == m_index.end() ? nullptr : &m_entries[it->second];
}

std::string_view ZipReader::read(const ZipEntry& entry) const
{
    if (entry.flags & 1)
        fail("entry '" + entry.name + "' is encrypted");
    if (entry.method != 0)
        fail("entry '" + entry.name + "' is compressed (method " + std::to_string(entry.method)
             + "); compressed entries are not supported (torch.save stores them uncompressed)");
    return {m_data + entry.dataOffset, static_cast<std::size_t>(entry.size)};
}

std::string_view ZipReader::read(std::string_view name) const
{
    const ZipEntry* e = find(name);
    if (!e)
        fail("no entry '" + std::string(name) + "'");
    return read(*e);
}

bool ZipReader::crcMatches(const ZipEntry& entry) const { return crc32(read(entry)) == entry.crc32; }

std::string ZipReader::archivePrefix() const
{
    static constexpr std::string_view kSuffix = "/data.pkl";
    for (const auto& e : m_entries) {
        const std::string_view n = e.name;
        if (n.size() > kSuffix.size() && n.ends_with(kSuffix)) {
            const auto prefix = n.substr(0, n.size() - kSuffix.size());
            if (prefix.find('/') == std::string_view::npos)
                return std::string(prefix);
        }
    }
    fail("no '<archive>/data.pkl' entry (not a torch.save file?)");
}

}  // namespace fxray::io
