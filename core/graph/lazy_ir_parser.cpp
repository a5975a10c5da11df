#include "graph/lazy_ir_parser.h"

#include "graph/lazy_graph.h"
#include "graph/text_lines.h"
#include "graph/torchscript_type.h"
#include "graph/utf8_check.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <utility>

namespace fxray::graph {
namespace {

using detail::lastContentLine;
using detail::splitLines;
using detail::trim;

class LineError {
public:
    LineError(const std::string& file, const std::vector<std::string_view>& lines) : m_file(file), m_lines(lines) {}
    [[noreturn]] void operator()(std::size_t index, std::string_view at, const std::string& msg) const
    {
        const std::string_view line = index < m_lines.size() ? m_lines[index] : std::string_view();
        int col = 0;
        if (!at.empty() && at.data() >= line.data() && at.data() <= line.data() + line.size())
            col = static_cast<int>(at.data() - line.data()) + 1;
        throw Error(msg, SourceLocation{m_file, static_cast<int>(index) + 1, col, {}}, detail::lineExcerpt(line));
    }

private:
    const std::string& m_file;
    const std::vector<std::string_view>& m_lines;
};

std::optional<int> smallInt(std::string_view s)
{
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

// Top-level comma-separated parts (brackets and quotes nest); nullopt when unbalanced.
std::optional<std::vector<std::string_view>> split(std::string_view s)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') {
            for (++i; i < s.size() && s[i] != '"'; ++i)
                if (s[i] == '\\')
                    ++i;
            if (i >= s.size())
                return std::nullopt;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0)
                return std::nullopt;
        } else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (depth != 0)
        return std::nullopt;
    if (!trim(s.substr(start)).empty() || !parts.empty())
        parts.push_back(trim(s.substr(start)));
    return parts;
}

// Index of the bracket closing s[0]; npos when unclosed.
std::size_t matching(std::string_view s)
{
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        depth += s[i] == '[' || s[i] == '(' ? 1 : s[i] == ']' || s[i] == ')' ? -1 : 0;
        if (depth == 0)
            return i;
    }
    return std::string_view::npos;
}

// The top-level parts inside the bracket that opens s, and the index of the bracket closing it; `what` names
// the parts in the errors.
std::pair<std::vector<std::string_view>, std::size_t> bracketed(const LineError& fail, std::size_t index, std::string_view s,
                                                                 const char* what)
{
    const std::size_t close = matching(s);
    if (close == std::string_view::npos)
        fail(index, s, std::string("unclosed '") + s[0] + "' of the " + what + " (truncated line?)");
    auto parts = split(s.substr(1, close - 1));
    if (!parts)
        fail(index, s, std::string("unbalanced brackets in the ") + what);
    return {std::move(*parts), close};
}

// The body of a dump that opens with a "... {" line (isOpening; otherwise fails with notADump) and ends with a
// "}" line: calls onLine(index, trimmed line) for each other line that is not blank. `what` names the dump in
// the error for a missing '}'.
template <class IsOpening, class OnLine>
void readBracedBody(const std::vector<std::string_view>& lines, const LineError& fail, IsOpening isOpening,
                    const char* notADump, const char* what, OnLine onLine)
{
    std::size_t li = 0;
    while (li < lines.size() && trim(lines[li]).empty())
        ++li;
    if (li == lines.size() || !isOpening(trim(lines[li])))
        fail(li < lines.size() ? li : 0, {}, notADump);
    bool closed = false;
    for (++li; li < lines.size(); ++li) {
        const std::string_view t = trim(lines[li]);
        if (t.empty())
            continue;
        if (closed)
            fail(li, t, "text after the closing '}'");
        if (t == "}") {
            closed = true;
            continue;
        }
        onLine(li, t);
    }
    if (!closed)
        fail(lastContentLine(lines), {}, std::string("the ") + what + " dump ends without its closing '}' (truncated text?)");
}

// The number of the DOT node name "node<digits>" that starts s (otherwise fails with `expected`); end: where
// the digits stop.
int dotNodeId(const LineError& fail, std::size_t index, std::string_view s, const char* expected, std::size_t& end)
{
    if (!s.starts_with("node"))
        fail(index, s, expected);
    end = 4;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
        ++end;
    const auto id = smallInt(s.substr(4, end - 4));
    if (!id)
        fail(index, s, "bad node name");
    return *id;
}

// ROOT and num_outputs are attributes like any other in both dumps; they shape the graph.
void applyBookkeeping(LazyNode& n, const LineError& fail, std::size_t index, std::string_view line)
{
    for (const auto& [key, v] : n.attributes) {
        if (key == "ROOT" || key == "num_outputs") {
            auto k = smallInt(v);
            if (!k || *k > 1 << 20)
                fail(index, line, "bad " + key + "=" + v.substr(0, 40));
            if (key == "ROOT")
                n.root = *k;
            else
                n.outputs = std::max(n.outputs, *k);
        }
    }
    n.outputs = std::max<int>(n.outputs, static_cast<int>(n.shapes.size()));
}

}  // namespace

Graph parseLazyIrText(std::string_view text, const std::string& fileName)
{
    requireUtf8(text, fileName);
    const std::vector<std::string_view> lines = splitLines(text);
    const LineError fail(fileName, lines);
    std::vector<LazyNode> nodes;
    const auto isOpening = [](std::string_view t) { return t == "IR {"; };
    readBracedBody(lines, fail, isOpening, "not a lazy-tensor IR dump: expected 'IR {' to start the text", "IR",
                   [&](std::size_t li, std::string_view t) {
        LazyNode n;
        n.line = static_cast<int>(li) + 1;
        // %4 = [Float[2,4]] aten::mm(%3, %1), attr=value, ...
        if (!t.starts_with("%"))
            fail(li, t, "expected a node '%<id> = [shapes] ns::op(operands), attributes'");
        const std::size_t eq = t.find(" = ");
        if (eq == std::string_view::npos)
            fail(li, t, "expected ' = ' after the node id");
        auto id = smallInt(t.substr(1, eq - 1));
        if (!id)
            fail(li, t, "bad node id '" + std::string(t.substr(0, std::min<std::size_t>(eq, 40))) + "'");
        n.id = *id;
        std::string_view rest = trim(t.substr(eq + 3));
        if (!rest.starts_with("["))
            fail(li, rest, "expected the node's shapes '[Float[2,4]]'");
        const auto [shapes, shapesEnd] = bracketed(fail, li, rest, "shapes");
        for (std::string_view s : shapes)
            n.shapes.push_back(lazyShapeMeta(s, SourceLocation{fileName, n.line, 0, {}}));
        rest = trim(rest.substr(shapesEnd + 1));
        const std::size_t open = rest.find('(');
        if (open == std::string_view::npos || open == 0)
            fail(li, rest, "expected 'ns::op(' after the shapes");
        n.op = std::string(rest.substr(0, open));
        rest.remove_prefix(open);
        const auto [operands, close] = bracketed(fail, li, rest, "operands");
        for (std::string_view o : operands) {
            if (!o.starts_with("%"))
                fail(li, o, "expected an operand '%<id>' or '%<id>.<output>'");
            const std::size_t dot = o.find('.');
            auto node = smallInt(o.substr(1, dot == std::string_view::npos ? std::string_view::npos : dot - 1));
            auto output = dot == std::string_view::npos ? std::optional<int>(0) : smallInt(o.substr(dot + 1));
            if (!node || !output)
                fail(li, o, "bad operand '" + std::string(o.substr(0, 40)) + "'");
            if (*node >= n.id)
                fail(li, o, "operand %" + std::to_string(*node) + " is not defined before node %" + std::to_string(n.id));
            n.operands.push_back({*node, *output});
        }
        rest = trim(rest.substr(close + 1));
        if (!rest.empty()) {
            if (!rest.starts_with(","))
                fail(li, rest, "expected ', name=value' attributes after the operands");
            auto attrs = split(rest.substr(1));
            if (!attrs)
                fail(li, rest, "unbalanced brackets or quotes in the attributes");
            for (std::string_view a : *attrs) {
                const std::size_t aeq = a.find('=');
                if (aeq == std::string_view::npos || aeq == 0)
                    fail(li, a, "expected an attribute 'name=value'");
                n.attributes.emplace_back(std::string(trim(a.substr(0, aeq))), std::string(trim(a.substr(aeq + 1))));
            }
        }
        applyBookkeeping(n, fail, li, t);
        nodes.push_back(std::move(n));
    });
    return buildLazyGraph(std::move(nodes), fileName);
}

bool looksLikeLazyDot(std::string_view text)
{
    const std::size_t label = text.find("[label=\"");
    if (!trim(text.substr(0, std::min<std::size_t>(text.size(), 64))).starts_with("digraph") || label == std::string_view::npos)
        return false;
    std::string_view first = text.substr(label + 8, 200);
    first = first.substr(0, std::min(first.find('\\'), first.find('"')));
    const std::size_t sep = first.find("::");
    return sep != std::string_view::npos && sep > 0 && sep + 2 < first.size();
}

Graph parseLazyIrDot(std::string_view text, const std::string& fileName)
{
    requireUtf8(text, fileName);
    const std::vector<std::string_view> lines = splitLines(text);
    const LineError fail(fileName, lines);
    std::vector<LazyNode> nodes;
    std::map<int, std::size_t> byId;
    struct Edge {
        int from, to, input, output;
        std::size_t line;
    };
    std::vector<Edge> edges;
    const auto isOpening = [](std::string_view t) { return t.starts_with("digraph") && t.ends_with("{"); };
    readBracedBody(lines, fail, isOpening, "not a lazy-tensor DOT dump: expected 'digraph G {' to start the text", "DOT",
                   [&](std::size_t li, std::string_view t) {
        std::size_t n = 0;
        const int id = dotNodeId(fail, li, t, "expected 'node<id> [label=\"...\"]' or 'node<a> -> node<b>'", n);
        std::string_view rest = trim(t.substr(n));
        // The label: "..." with \n between lines and \" inside.
        auto label = [&](std::string_view r) -> std::vector<std::string> {
            if (!r.starts_with("[label=\"") || !r.ends_with("\"]"))
                fail(li, r, "expected [label=\"...\"]");
            r = r.substr(8, r.size() - 10);
            std::vector<std::string> parts(1);
            for (std::size_t k = 0; k < r.size(); ++k) {
                if (r[k] == '\\' && k + 1 < r.size()) {
                    ++k;
                    if (r[k] == 'n')
                        parts.emplace_back();
                    else
                        parts.back() += r[k];
                } else if (r[k] == '"') {
                    fail(li, r.substr(k), "unescaped '\"' inside a label");
                } else {
                    parts.back() += r[k];
                }
            }
            return parts;
        };
        if (rest.starts_with("->")) {
            rest = trim(rest.substr(2));
            std::size_t m = 0;
            const int to = dotNodeId(fail, li, rest, "expected 'node<id>' after '->'", m);
            Edge e{id, to, 0, 0, li};
            rest = trim(rest.substr(m));
            if (!rest.empty()) {
                // i=<operand index>, o=<output of the producer>
                for (const std::string& part : label(rest)) {
                    std::string_view p = part;
                    while (!p.empty()) {
                        const std::size_t comma = p.find(',');
                        std::string_view kv = trim(p.substr(0, comma));
                        p = comma == std::string_view::npos ? std::string_view() : p.substr(comma + 1);
                        auto v = kv.size() > 2 ? smallInt(kv.substr(2)) : std::nullopt;
                        if (!v || *v > 1 << 20 || (!kv.starts_with("i=") && !kv.starts_with("o=")))
                            fail(li, rest, "bad edge label '" + std::string(kv.substr(0, 40)) + "' (expected i=<n>,o=<n>)");
                        (kv[0] == 'i' ? e.input : e.output) = *v;
                    }
                }
            }
            edges.push_back(e);
            return;
        }
        const std::vector<std::string> parts = label(rest);
        LazyNode node;
        node.id = id;
        node.line = static_cast<int>(li) + 1;
        node.op = parts[0];
        for (std::size_t k = 1; k < parts.size(); ++k) {
            const std::size_t eq = parts[k].find('=');
            if (k == 1 && eq == std::string::npos) {
                node.shapes.push_back(lazyShapeMeta(parts[k], SourceLocation{fileName, node.line, 0, {}}));
                continue;
            }
            if (eq == std::string::npos || eq == 0)
                fail(li, rest, "label line '" + parts[k].substr(0, 40) + "' is neither a shape nor name=value");
            node.attributes.emplace_back(parts[k].substr(0, eq), parts[k].substr(eq + 1));
        }
        applyBookkeeping(node, fail, li, t);
        // DOT shows the first output's shape only: the others stay unknown.
        if (node.outputs > 1 && node.shapes.size() == 1)
            node.shapes.resize(1);
        if (!byId.emplace(node.id, nodes.size()).second)
            fail(li, t, "node" + std::to_string(node.id) + " is declared twice");
        nodes.push_back(std::move(node));
    });
    // Operands from the edges: i= gives the position (absent: the only operand).
    std::map<int, std::map<int, LazyOperand>> operands;
    for (const Edge& e : edges) {
        if (!byId.count(e.from) || !byId.count(e.to))
            fail(e.line, {}, "edge between undeclared nodes (node" + std::to_string(e.from) + " -> node" + std::to_string(e.to) + ")");
        if (!operands[e.to].emplace(e.input, LazyOperand{e.from, e.output}).second)
            fail(e.line, {}, "second edge into input i=" + std::to_string(e.input) + " of node" + std::to_string(e.to));
    }
    for (auto& [to, byInput] : operands) {
        LazyNode& n = nodes[byId.at(to)];
        int expected = 0;
        for (const auto& [input, operand] : byInput) {
            if (input != expected++)
                fail(static_cast<std::size_t>(n.line - 1), {}, "node" + std::to_string(to) + " has no edge for input i=" + std::to_string(expected - 1));
            n.operands.push_back(operand);
        }
    }
    return buildLazyGraph(std::move(nodes), fileName);
}

}  // namespace fxray::graph
