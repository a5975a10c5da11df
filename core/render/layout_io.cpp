#include "render/layout_io.h"

#include "base/error.h"

#include <charconv>
#include <cstdio>
#include <sstream>

namespace fxray::render {

namespace {

std::string encodeId(std::string_view id)
{
    std::string out;
    out.reserve(id.size());
    for (const char c : id) {
        if (c == '%' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += buf;
        } else {
            out += c;
        }
    }
    return out.empty() ? "%" : out;  // a lone "%" stands for the empty id
}

std::string decodeId(std::string_view token)
{
    if (token == "%")
        return {};
    std::string out;
    out.reserve(token.size());
    for (std::size_t i = 0; i < token.size(); ++i) {
        unsigned value = 0;
        if (token[i] == '%' && i + 2 < token.size() &&
            std::from_chars(token.data() + i + 1, token.data() + i + 3, value, 16).ec == std::errc()) {
            out += static_cast<char>(value);
            i += 2;
        } else {
            out += token[i];
        }
    }
    return out;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

}  // namespace

std::string writeLayoutText(const Layout& layout)
{
    std::string out = "layout " + number(layout.width) + " " + number(layout.height) + " " + number(layout.seconds) + "\n";
    for (const Layout::NodeBox& n : layout.nodes)
        out += "n " + number(n.x) + " " + number(n.y) + " " + number(n.w) + " " + number(n.h) + " " + encodeId(n.id) + "\n";
    for (const Layout::ClusterBox& c : layout.clusters)
        out += "c " + number(c.x) + " " + number(c.y) + " " + number(c.w) + " " + number(c.h) + " " + number(c.labelHeight) +
               " " + encodeId(c.id) + "\n";
    for (const Layout::EdgePath& e : layout.edges) {
        out += "e " + encodeId(e.from) + " " + encodeId(e.to) + " " + (e.arrowTip ? "1 " : "0 ") +
               number(e.arrowTip ? e.arrowTip->x : 0) + " " + number(e.arrowTip ? e.arrowTip->y : 0) + " " +
               std::to_string(e.points.size());
        for (const Point& p : e.points)
            out += " " + number(p.x) + " " + number(p.y);
        out += "\n";
    }
    return out;
}

Layout readLayoutText(std::string_view text)
{
    Layout layout;
    std::istringstream in{std::string(text)};
    std::string line;
    int lineNo = 0;
    bool header = false;
    const auto fail = [&](const std::string& why) {
        throw Error("layout text line " + std::to_string(lineNo) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty())
            continue;
        std::istringstream fields(line);
        std::string kind;
        fields >> kind;
        if (kind == "layout") {
            if (!(fields >> layout.width >> layout.height >> layout.seconds))
                fail("bad header");
            header = true;
        } else if (kind == "n") {
            Layout::NodeBox box;
            std::string id;
            if (!(fields >> box.x >> box.y >> box.w >> box.h >> id))
                fail("bad node");
            box.id = decodeId(id);
            layout.nodes.push_back(std::move(box));
        } else if (kind == "c") {
            Layout::ClusterBox box;
            std::string id;
            if (!(fields >> box.x >> box.y >> box.w >> box.h >> box.labelHeight >> id))
                fail("bad cluster");
            box.id = decodeId(id);
            layout.clusters.push_back(std::move(box));
        } else if (kind == "e") {
            Layout::EdgePath e;
            std::string from, to;
            int arrow = 0;
            Point tip;
            std::size_t count = 0;
            if (!(fields >> from >> to >> arrow >> tip.x >> tip.y >> count))
                fail("bad edge");
            if (count > line.size())
                fail("bad edge point count");
            e.from = decodeId(from);
            e.to = decodeId(to);
            if (arrow)
                e.arrowTip = tip;
            e.points.resize(count);
            for (Point& p : e.points)
                if (!(fields >> p.x >> p.y))
                    fail("edge has fewer points than it says");
            layout.edges.push_back(std::move(e));
        } else {
            fail("unknown record '" + kind + "'");
        }
    }
    if (!header)
        throw Error("layout text has no 'layout' header (the layout process wrote nothing usable)");
    return layout;
}

}  // namespace fxray::render
