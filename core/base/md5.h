#pragma once
// MD5 (RFC 1321). Not for security: TORCH_TRACE logs name each record's payload by its MD5 ("has_payload"),
// and fxray checks payloads against it to catch truncated or edited logs.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fxray {

class Md5 {
public:
    using Digest = std::array<std::uint8_t, 16>;

    Md5();
    // Feed data in any number of pieces; the digest equals that of the concatenation.
    void update(std::string_view data);
    // Finishes the hash; the object is reset afterwards and can be reused.
    Digest finish();
    std::string finishHex();  // 32 lowercase hex digits

    static std::string toHex(const Digest& digest);

private:
    void reset();
    void transform(const std::uint8_t* block);

    std::array<std::uint32_t, 4> m_state{};
    std::array<std::uint8_t, 64> m_buffer{};
    std::uint64_t m_length = 0;  // bytes fed so far
};

// MD5 of data as 32 lowercase hex digits.
std::string md5Hex(std::string_view data);

}  // namespace fxray
