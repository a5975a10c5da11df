#include "graph/text_lines.h"

#include <cctype>

namespace fxray::graph::detail {

std::vector<std::string_view> splitLines(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::size_t lastContentLine(const std::vector<std::string_view>& lines)
{
    std::size_t li = lines.size() - 1;
    while (li > 0 && trim(lines[li]).empty())
        --li;
    return li;
}

std::string lineExcerpt(std::string_view line)
{
    std::string excerpt(line.substr(0, 200));
    for (char& c : excerpt)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
            c = '?';
    return excerpt;
}

}  // namespace fxray::graph::detail
