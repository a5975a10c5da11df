#include "base/md5.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fxray {

namespace {

// Per-round shift amounts and the sine-derived constants of RFC 1321, section 3.4.
constexpr std::uint32_t kShift[64] = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

constexpr std::uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

inline std::uint32_t rotateLeft(std::uint32_t x, std::uint32_t n) { return (x << n) | (x >> (32 - n)); }

// One of the 64 operations of RFC 1321 section 3.4, everything index-dependent resolved at compile time:
// unrolling all of them is what makes MD5 over a large trace log cheap (about 3x a loop with branches).
template <std::uint32_t I>
inline void step(std::uint32_t& a, std::uint32_t b, std::uint32_t c, std::uint32_t d, const std::uint32_t* m)
{
    std::uint32_t f;
    if constexpr (I < 16)
        f = d ^ (b & (c ^ d));  // F = (b & c) | (~b & d)
    else if constexpr (I < 32)
        f = c ^ (d & (b ^ c));  // G = (b & d) | (c & ~d)
    else if constexpr (I < 48)
        f = b ^ c ^ d;  // H
    else
        f = c ^ (b | ~d);  // I
    constexpr std::uint32_t g = I < 16 ? I : I < 32 ? (5 * I + 1) % 16 : I < 48 ? (3 * I + 5) % 16 : (7 * I) % 16;
    a = b + rotateLeft(a + f + kSine[I] + m[g], kShift[I]);
}

// Groups of four steps rotate the roles of a, b, c, d: [ABCD] [DABC] [CDAB] [BCDA].
template <std::uint32_t... Group>
inline void allRounds(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d, const std::uint32_t* m,
                      std::integer_sequence<std::uint32_t, Group...>)
{
    ((step<4 * Group>(a, b, c, d, m), step<4 * Group + 1>(d, a, b, c, m), step<4 * Group + 2>(c, d, a, b, m),
      step<4 * Group + 3>(b, c, d, a, m)),
     ...);
}

}  // namespace

Md5::Md5() { reset(); }

void Md5::reset()
{
    m_state = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    m_length = 0;
}

void Md5::transform(const std::uint8_t* block)
{
    std::uint32_t m[16];
    for (int i = 0; i < 16; ++i) {  // little-endian words, independent of the host's byte order
        const std::uint8_t* b = block + i * 4;
        m[i] = std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 8) | (std::uint32_t(b[2]) << 16) | (std::uint32_t(b[3]) << 24);
    }
    std::uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
    allRounds(a, b, c, d, m, std::make_integer_sequence<std::uint32_t, 16>());
    m_state[0] += a;
    m_state[1] += b;
    m_state[2] += c;
    m_state[3] += d;
}

void Md5::update(std::string_view data)
{
    const auto* p = reinterpret_cast<const std::uint8_t*>(data.data());
    std::size_t n = data.size();
    std::size_t used = static_cast<std::size_t>(m_length % 64);
    m_length += n;
    if (used) {
        const std::size_t take = std::min(n, 64 - used);
        std::memcpy(m_buffer.data() + used, p, take);
        used += take;
        p += take;
        n -= take;
        if (used < 64)
            return;
        transform(m_buffer.data());
    }
    for (; n >= 64; n -= 64, p += 64)
        transform(p);
    if (n)
        std::memcpy(m_buffer.data(), p, n);
}

Md5::Digest Md5::finish()
{
    const std::uint64_t bitLength = m_length * 8;
    // Pad with 0x80, zeros up to 56 mod 64, then the bit length as 64-bit little endian.
    static constexpr std::uint8_t kPadding[64] = {0x80};
    const std::size_t used = static_cast<std::size_t>(m_length % 64);
    const std::size_t padLength = used < 56 ? 56 - used : 120 - used;
    update(std::string_view(reinterpret_cast<const char*>(kPadding), padLength));
    std::uint8_t lengthBytes[8];
    for (int i = 0; i < 8; ++i)
        lengthBytes[i] = static_cast<std::uint8_t>(bitLength >> (8 * i));
    update(std::string_view(reinterpret_cast<const char*>(lengthBytes), 8));

    Digest digest;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j)
            digest[static_cast<std::size_t>(i * 4 + j)] = static_cast<std::uint8_t>(m_state[static_cast<std::size_t>(i)] >> (8 * j));
    }
    reset();
    return digest;
}

std::string Md5::toHex(const Digest& digest)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(32, '0');
    for (std::size_t i = 0; i < digest.size(); ++i) {
        out[2 * i] = kHex[digest[i] >> 4];
        out[2 * i + 1] = kHex[digest[i] & 0xF];
    }
    return out;
}

std::string Md5::finishHex() { return toHex(finish()); }

std::string md5Hex(std::string_view data)
{
    Md5 md5;
    md5.update(data);
    return md5.finishHex();
}

}  // namespace fxray
