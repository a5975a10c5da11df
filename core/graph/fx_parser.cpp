// FX Python code -> Graph. See fx_parser.h for the forms accepted. Module level is tolerant (it is a script);
// the body of forward() and load_args() is strict: every statement must be one FX writes.
#include "graph/fx_parser.h"

#include "base/error.h"
#include "graph/py_tokenizer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fxray::graph {
namespace {

using detail::LogicalLine;
using detail::Token;
using TokenKind = detail::Token::Kind;

struct OperatorSpelling {
    std::string_view symbol;
    std::string_view name;
};
constexpr OperatorSpelling kBinaryOps[] = {
    {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "truediv"}, {"//", "floordiv"}, {"%", "mod"},
    {"**", "pow"}, {"==", "eq"}, {"!=", "ne"}, {"<", "lt"}, {"<=", "le"}, {">", "gt"}, {">=", "ge"},
    {"&", "and_"}, {"|", "or_"}, {"^", "xor"}, {"@", "matmul"}, {"<<", "lshift"}, {">>", "rshift"},
};

// torch.fx.graph's inplace_methods: the augmented assignments FX prints for operator.i<op> targets.
constexpr OperatorSpelling kAugmentedOps[] = {
    {"+=", "iadd"}, {"-=", "isub"}, {"*=", "imul"}, {"/=", "itruediv"}, {"//=", "ifloordiv"}, {"%=", "imod"},
    {"**=", "ipow"}, {"&=", "iand"}, {"|=", "ior"}, {"^=", "ixor"}, {"@=", "imatmul"}, {"<<=", "ilshift"},
    {">>=", "irshift"},
};

const std::string_view* augmentedOpName(const Token& t)
{
    if (t.kind != TokenKind::Op)
        return nullptr;
    for (const auto& op : kAugmentedOps)
        if (op.symbol == t.text)
            return &op.name;
    return nullptr;
}

const std::string_view* binaryOpName(const Token& t)
{
    if (t.kind != TokenKind::Op)
        return nullptr;
    for (const auto& op : kBinaryOps)
        if (op.symbol == t.text)
            return &op.name;
    return nullptr;
}

constexpr std::string_view kMemoryFormats[] = {"contiguous_format", "channels_last", "channels_last_3d",
                                               "preserve_format"};
constexpr std::string_view kLayouts[] = {"strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr",
                                         "sparse_bsc", "_mkldnn", "jagged"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view s)
{
    for (auto v : list)
        if (v == s)
            return true;
    return false;
}

// A slice of a token vector that the expression parser walks.
struct Cursor {
    const std::vector<Token>* tokens;
    std::size_t pos;
    std::size_t end;
    bool done() const { return pos >= end; }
    const Token& peek(std::size_t ahead = 0) const { return (*tokens)[std::min(pos + ahead, end - 1)]; }
    bool has(std::size_t ahead = 0) const { return pos + ahead < end; }
    bool at(std::string_view op, std::size_t ahead = 0) const { return has(ahead) && peek(ahead).is(op); }
};

class FxParser {
public:
    FxParser(std::string_view text, const ParseOptions& options)
        : m_text(text), m_file(options.fileName), m_firstLine(options.firstLine)
    {
        // Physical lines as the tokenizer counts them ("\r\n", "\n" or a lone "\r" ends one), after a UTF-8 BOM.
        std::size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
        while (start <= text.size()) {
            std::size_t e = text.find_first_of("\r\n", start);
            if (e == std::string_view::npos) {
                m_physical.push_back(text.substr(start));
                break;
            }
            m_physical.push_back(text.substr(start, e - start));
            start = e + (text.compare(e, 2, "\r\n") == 0 ? 2 : 1);
        }
    }

    ParsedModule parse()
    {
        m_lines = detail::tokenizePython(m_text, m_file, m_firstLine);
        ParsedModule result;
        bool haveGraph = false;
        std::size_t i = 0;
        while (i < m_lines.size()) {
            const LogicalLine& l = m_lines[i];
            const auto& t = l.tokens;
            if (t[0].isName("class") && !haveGraph) {
                std::size_t next = i;
                if (auto g = parseClass(i, next)) {
                    result.graph = std::move(*g);
                    haveGraph = true;
                }
                i = next;
                continue;
            }
            if (t[0].isName("def") && t.size() > 1 && t[1].isName("forward") && !haveGraph) {
                m_graph = Graph{};
                m_graph.className.clear();
                i = parseForward(i);
                result.graph = std::move(m_graph);
                haveGraph = true;
                continue;
            }
            // str(ExportedProgram) (export logs' exported_program records): the graph module is indented under
            // an "ExportedProgram:" line, the graph signature and range constraints follow at module level.
            if (t.size() == 2 && t[0].isName("ExportedProgram") && t[1].is(":")) {
                ++i;
                continue;
            }
            if (t[0].isName("def") && t.size() > 1 && t[1].isName("load_args")) {
                i = parseLoadArgs(i, result.loadArgs);
                result.hasLoadArgs = true;
                continue;
            }
            i = skipBlock(i);
        }
        if (!haveGraph)
            throw Error(m_lines.empty() ? "no graph found: the text is empty (or only comments)"
                                        : "no graph found: expected a class with a forward() method",
                        SourceLocation{m_file, m_firstLine, 0, {}});
        result.graph.sourceFile = m_file;
        return result;
    }

private:
    // ---- module / class level -------------------------------------------------------------------------------

    // Index of the first line after the block that starts at line i (the line and everything indented deeper).
    std::size_t skipBlock(std::size_t i) const
    {
        const int indent = m_lines[i].indent;
        std::size_t j = i + 1;
        while (j < m_lines.size() && (m_lines[j].indent > indent || m_lines[j].commentOnly()))
            ++j;
        // Trailing comment-only lines at a shallower indent belong to what follows.
        while (j > i + 1 && m_lines[j - 1].commentOnly() && m_lines[j - 1].indent <= indent)
            --j;
        return j;
    }

    // Parses `class X(...):`; returns its forward graph (if it has one) and sets `next` past the class.
    std::optional<Graph> parseClass(std::size_t i, std::size_t& next)
    {
        const LogicalLine& cls = m_lines[i];
        std::string className = cls.tokens.size() > 1 ? cls.tokens[1].text : "";
        // print_readable of a graph traced from a lambda writes `class <lambda>(torch.nn.Module):`.
        if (className == "<" && cls.tokens.size() > 3 && cls.tokens[3].text == ">")
            className = "<" + cls.tokens[2].text + ">";
        std::size_t end = skipBlock(i);
        next = end;
        std::optional<Graph> result;
        std::vector<Subgraph> subgraphs;
        for (std::size_t j = i + 1; j < end;) {
            const auto& t = m_lines[j].tokens;
            if (t[0].isName("def") && t.size() > 1 && t[1].isName("forward") && !result) {
                Graph saved = std::move(m_graph);
                m_graph = Graph{};
                m_graph.className = className;
                j = parseForward(j);
                result = std::move(m_graph);
                m_graph = std::move(saved);
                continue;
            }
            if (t[0].isName("class")) {
                std::size_t after = j;
                // Nested classes are higher-order-op subgraphs; parse with fresh name tables.
                auto savedNames = std::move(m_names);
                m_names.clear();
                Graph savedGraph = std::move(m_graph);
                auto sub = parseClass(j, after);
                m_graph = std::move(savedGraph);
                m_names = std::move(savedNames);
                if (sub)
                    subgraphs.push_back(Subgraph{t.size() > 1 ? t[1].text : "", std::move(*sub)});
                j = after;
                continue;
            }
            j = skipBlock(j);
        }
        if (result)
            result->subgraphs = std::move(subgraphs);
        return result;
    }

    // ---- forward ---------------------------------------------------------------------------------------------

    std::size_t parseForward(std::size_t i)
    {
        m_names.clear();
        m_pending.clear();
        m_stackIds.clear();
        m_used.clear();
        m_nodeName.clear();
        m_currentStack = -1;
        m_definedAt.clear();
        const LogicalLine& def = m_lines[i];
        std::size_t end = skipBlock(i);
        m_graph.nodes.reserve(end - i + 8);
        m_definedAt.reserve(end - i);
        m_names.reserve(end - i + 64);
        // Where each name is assigned, so that a use before that line can say so (a cycle, or moved lines).
        for (std::size_t j = i + 1; j < end; ++j) {
            const auto& t = m_lines[j].tokens;
            if (t.size() < 3 || t[0].kind != TokenKind::Name || !(t[1].is(":") || t[1].is("=")))
                continue;
            std::size_t k = 0;  // "a = b = None" frees a and b, it defines nothing
            while (k + 2 < t.size() && t[k].kind == TokenKind::Name && t[k + 1].is("="))
                k += 2;
            const bool frees = k > 0 && t[k].isName("None") && (k + 1 == t.size() || t[k + 1].is(";") ||
                                                                  t[k + 1].kind == TokenKind::Comment);
            if (!frees)
                m_definedAt.emplace(t[0].text, t[0].line);
        }
        parseSignature(def);
        // The body's nodes after the placeholders, without moving every node again when the vector grows.
        m_graph.nodes.reserve(m_graph.nodes.size() + (end - i) + 8);
        for (std::size_t j = i + 1; j < end; ++j) {
            const LogicalLine& l = m_lines[j];
            if (l.commentOnly()) {
                onComment(l.tokens[0]);
                continue;
            }
            // FX writes the return last; code after it would be nodes after the output node. (The output node, when
            // there is one, is the last node added: Graph::outputNode() would scan the whole graph per statement.)
            const int output = !m_graph.nodes.empty() && m_graph.nodes.back().kind == NodeKind::Output
                                   ? static_cast<int>(m_graph.nodes.size()) - 1
                                   : -1;
            m_nodeName.clear();
            if (output >= 0 && !l.tokens[0].isName("return"))
                fail(l.tokens[0], "statement after the return statement (line " +
                                      std::to_string(m_graph.nodes[static_cast<std::size_t>(output)].line) + ")");
            parseStatementLine(l);
        }
        if (m_graph.outputNode() < 0)
            throw Error(std::string("forward() has no return statement") +
                            (end == m_lines.size() ? " (the text ends inside forward(): truncated?)" : ""),
                        loc(def.tokens[0]), excerpt(def.tokens[0]));
        for (const auto& [name, p] : m_pending)
            throw Error("annotation for '" + name + "' names no placeholder", loc(p.token), excerpt(p.token));
        return end;
    }

    void parseSignature(const LogicalLine& def)
    {
        const auto& t = def.tokens;
        // def forward ( ... ) [-> X] :
        if (t.size() < 4 || !t[2].is("("))
            fail(t[0], "expected 'def forward(...)'");
        std::size_t close = matching(t, 2);
        // "def forward(...):" or "def forward(...) -> T:"; without the ':' python refuses it too.
        std::size_t colon = close + 1;
        while (colon < t.size() && t[colon].kind == TokenKind::Comment)
            ++colon;
        if (colon < t.size() && t[colon].is("->"))
            while (colon < t.size() && !t[colon].is(":"))
                ++colon;
        if (colon >= t.size() || !t[colon].is(":"))
            fail(t[close], "expected ':' after the parameters of forward()");
        std::size_t p = 3;
        int lastNode = -1;
        while (p < close) {
            const Token& tok = t[p];
            if (tok.kind == TokenKind::Comment) {
                if (lastNode >= 0)
                    m_graph.nodes[static_cast<std::size_t>(lastNode)].comment = tok.text;
                ++p;
                continue;
            }
            if (tok.is(",")) {
                ++p;
                continue;
            }
            if (tok.kind != TokenKind::Name)
                fail(tok, "expected a parameter name");
            if (tok.text == "self") {
                ++p;
                continue;
            }
            Node node;
            node.kind = NodeKind::Placeholder;
            node.name = tok.text;
            node.attr = tok.text;
            node.line = tok.line;
            m_nodeName = node.name;
            ++p;
            if (p < close && t[p].is(":")) {
                ++p;
                if (p < close && t[p].kind == TokenKind::String) {
                    node.meta = parseAnnotation(t[p].text, loc(t[p], node.name));
                    ++p;
                } else {
                    // A python type hint (torch.Tensor, int): no metadata to take from it.
                    while (p < close && !t[p].is(",") && t[p].kind != TokenKind::Comment)
                        ++p;
                }
            }
            if (p < close && t[p].is("="))
                fail(t[p], "default values for graph inputs are not supported");
            lastNode = addNode(std::move(node), tok);
        }
        m_nodeName.clear();
        // The line may end with a trailing comment after ':'.
    }

    void onComment(const Token& c)
    {
        const std::string& s = c.text;
        if (s.rfind("File:", 0) == 0) {
            StackFrame f;
            f.raw = s;
            // "File: <path>:<line> in <fn>, code: <source>"
            std::string rest = s.substr(5);
            while (!rest.empty() && rest.front() == ' ')
                rest.erase(0, 1);
            std::size_t in = rest.find(" in ");
            std::size_t codePos = rest.find(", code: ");
            std::string loc = in == std::string::npos ? rest : rest.substr(0, in);
            std::size_t colon = loc.rfind(':');
            if (colon != std::string::npos) {
                f.file = loc.substr(0, colon);
                std::from_chars(loc.data() + colon + 1, loc.data() + loc.size(), f.line);
            } else {
                f.file = loc;
            }
            if (in != std::string::npos) {
                std::size_t fnEnd = codePos == std::string::npos ? rest.size() : codePos;
                if (fnEnd > in + 4)
                    f.function = rest.substr(in + 4, fnEnd - in - 4);
            }
            if (codePos != std::string::npos)
                f.code = rest.substr(codePos + 8);
            auto it = m_stackIds.find(s);
            if (it == m_stackIds.end()) {
                m_graph.stacks.push_back(f);
                it = m_stackIds.emplace(s, static_cast<int>(m_graph.stacks.size() - 1)).first;
            }
            m_currentStack = it->second;
        } else if (s.rfind("No stacktrace found", 0) == 0) {
            m_currentStack = -1;
        }
        // Other comments ("Annotation: ...", blank "#") carry nothing fxray uses.
    }

    void parseStatementLine(const LogicalLine& l)
    {
        // Drop comments inside brackets (copying only in that rare case); keep a trailing comment for placeholders.
        std::string trailing;
        std::size_t count = l.tokens.size();
        if (l.tokens.back().kind == TokenKind::Comment) {
            trailing = l.tokens.back().text;
            --count;
        }
        std::vector<Token> filtered;
        const std::vector<Token>* source = &l.tokens;
        for (std::size_t k = 0; k < count; ++k) {
            if (l.tokens[k].kind == TokenKind::Comment) {
                for (std::size_t m = 0; m < count; ++m)
                    if (l.tokens[m].kind != TokenKind::Comment)
                        filtered.push_back(l.tokens[m]);
                source = &filtered;
                count = filtered.size();
                break;
            }
        }
        const std::vector<Token>& toks = *source;
        if (l.tokens[0].isName("return"))
            collectReturnComments(l.tokens);
        // Split at top-level ';'.
        std::vector<std::pair<std::size_t, std::size_t>> parts;
        int depth = 0;
        std::size_t start = 0;
        for (std::size_t k = 0; k < count; ++k) {
            const Token& t = toks[k];
            if (t.is("(") || t.is("[") || t.is("{"))
                ++depth;
            else if (t.is(")") || t.is("]") || t.is("}"))
                --depth;
            else if (t.is(";") && depth == 0) {
                parts.emplace_back(start, k);
                start = k + 1;
            }
        }
        parts.emplace_back(start, count);
        int defined = -1;  // node defined by the first statement, owner of trailing frees
        for (std::size_t p = 0; p < parts.size(); ++p) {
            auto [b, e] = parts[p];
            if (b == e)
                continue;
            Cursor c{&toks, b, e};
            m_nodeName.clear();
            if (p == 0 && isInplaceStatement(c)) {
                // The node's name comes in the next statement: "a += b;  name = a".
                if (parts.size() < 2 || parts[1].first == parts[1].second)
                    fail(c.peek(), "in-place statement without its node: FX writes 'a += b;  name = a'");
                defined = parseInplace(c, Cursor{&toks, parts[1].first, parts[1].second});
                ++p;
                continue;
            }
            int node = parseStatement(c, p == 0 ? trailing : std::string(), defined);
            if (p == 0)
                defined = node;
        }
    }

    // "a += b" (any augmented operator) or "a[i] = v": how FX prints the in-place call_function targets
    // operator.iadd ... and operator.setitem (torch.fx.graph's inplace_methods), which dynamo graphs hold.
    static bool isInplaceStatement(const Cursor& c)
    {
        if (c.peek().kind != TokenKind::Name || !c.has(1))
            return false;
        if (augmentedOpName(c.peek(1)))
            return true;
        if (!c.at("[", 1))
            return false;
        int depth = 0;
        for (std::size_t k = c.pos + 1; k < c.end; ++k) {
            const Token& t = (*c.tokens)[k];
            if (t.is("(") || t.is("[") || t.is("{"))
                ++depth;
            else if ((t.is(")") || t.is("]") || t.is("}")) && --depth == 0)
                return k + 1 < c.end && (*c.tokens)[k + 1].is("=");
        }
        return false;
    }

    // One node from "a += b;  n: "ann" = a" (operator.iadd(a, b)) or "a[i] = v;  n = a" (operator.setitem(a, i, v)).
    int parseInplace(Cursor stmt, Cursor bind)
    {
        const Token& nameTok = bind.peek();
        if (nameTok.kind != TokenKind::Name)
            fail(nameTok, "expected the in-place node's name after the in-place statement");
        ++bind.pos;
        Node node;
        node.name = nameTok.text;
        node.line = nameTok.line;
        node.stack = m_currentStack;
        node.kind = NodeKind::CallFunction;
        node.target.kind = Target::Kind::Operator;
        m_nodeName = node.name;
        if (bind.at(":")) {
            ++bind.pos;
            if (bind.done() || bind.peek().kind != TokenKind::String)
                fail(nameTok, "expected a string annotation after ':'");
            node.meta = parseAnnotation(bind.peek().text, loc(bind.peek(), node.name));
            ++bind.pos;
        }
        if (!bind.at("="))
            fail(bind.done() ? nameTok : bind.peek(), "expected '=' after the in-place node's name");
        ++bind.pos;
        const Token& base = stmt.peek();
        if (bind.done() || !bind.peek().isName(base.text) || bind.has(1))
            fail(bind.done() ? nameTok : bind.peek(),
                 "an in-place statement on '" + base.text + "' must be followed by '" + node.name + " = " + base.text + "'");
        node.args.push_back(parsePrimary(stmt));  // the mutated value: a node name
        if (node.args[0].kind != Arg::Kind::Node)
            fail(base, "in-place statement on a value that is not a node");
        if (const std::string_view* op = augmentedOpName(stmt.peek())) {
            node.target.op = std::string(*op);
            ++stmt.pos;
        } else {
            node.target.op = "setitem";
            std::size_t close = matching(*stmt.tokens, stmt.pos);
            Cursor index{stmt.tokens, stmt.pos + 1, close};
            node.args.push_back(parseValue(index));
            expectEnd(index);
            stmt.pos = close + 2;  // past "] ="
        }
        node.args.push_back(parseValue(stmt));
        expectEnd(stmt);
        return addNode(std::move(node), nameTok);
    }

    // Returns the index of the node the statement defined, or -1.
    int parseStatement(Cursor& c, const std::string& trailingComment, int previous)
    {
        const Token& first = c.peek();
        if (first.isName("return")) {
            ++c.pos;
            parseReturn(c, first);
            return -1;
        }
        if (first.kind != TokenKind::Name)
            fail(first, "unsupported statement");
        if ((*c.tokens)[c.end - 1].is("="))  // "a = b =": a file cut short inside the frees, or an edit
            fail((*c.tokens)[c.end - 1], "missing value after '='");
        if (isPythonKeyword(first.text))
            fail(first, "unsupported statement '" + first.text + "': the body of forward() holds only FX node "
                                                               "assignments, frees and one return");

        // Frees: "a = b = None" (after the node statement on the same line, or alone).
        if (isFreeStatement(c)) {
            int owner = previous >= 0 ? previous : static_cast<int>(m_graph.nodes.size()) - 1;
            if (owner >= 0)
                m_nodeName = m_graph.nodes[static_cast<std::size_t>(owner)].name;
            for (std::size_t k = c.pos; k < c.end; k += 2) {
                const Token& t = c.peek(k - c.pos);
                if (t.isName("None"))
                    break;
                int ref = lookup(t.text);
                if (ref < 0)
                    fail(t, "frees undefined name '" + t.text + "'" + undefinedWhy(t));
                if (owner >= 0)
                    m_graph.nodes[static_cast<std::size_t>(owner)].frees.push_back(ref);
            }
            return -1;
        }

        // Tuple target: "a, b, c, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)"
        if (c.at(",", 1)) {
            parsePytreeFlatten(c);
            return -1;
        }

        const Token& nameTok = first;
        ++c.pos;
        std::optional<ValueMeta> meta;
        if (c.at(":")) {
            ++c.pos;
            if (c.done() || c.peek().kind != TokenKind::String)
                fail(nameTok, "expected a string annotation after ':'");
            meta = parseAnnotation(c.peek().text, loc(c.peek(), nameTok.text));
            ++c.pos;
            if (c.done()) {  // bare annotation: a placeholder declared by the pytree form
                m_pending[nameTok.text] = Pending{*meta, trailingComment, nameTok};
                return -1;
            }
        }
        if (!c.at("="))
            fail(c.done() ? nameTok : c.peek(), "expected '=' in statement");
        ++c.pos;
        if (c.done())
            fail(nameTok, "missing value after '='");
        return parseAssignment(c, nameTok, std::move(meta));
    }

    bool isFreeStatement(const Cursor& c) const
    {
        // name (= name)* = None, nothing else
        std::size_t k = c.pos;
        if (k >= c.end)
            return false;
        while (k + 2 < c.end + 1) {
            if ((*c.tokens)[k].kind != TokenKind::Name || k + 1 >= c.end || !(*c.tokens)[k + 1].is("="))
                return false;
            if (k + 2 < c.end && (*c.tokens)[k + 2].isName("None"))
                return k + 3 == c.end;
            k += 2;
        }
        return false;
    }

    void parsePytreeFlatten(Cursor& c)
    {
        std::vector<Token> targets;
        while (!c.done() && !c.at("=")) {
            const Token& t = c.peek();
            if (t.kind == TokenKind::Name)
                targets.push_back(t);
            else if (!t.is(","))
                fail(t, "unsupported tuple assignment");
            ++c.pos;
        }
        if (c.done())
            fail(targets.front(), "tuple assignment without a value");
        ++c.pos;
        // fx_pytree.tree_flatten_spec([a, b], self._in_spec)
        std::vector<std::string> callee = dottedName(c);
        if (callee != std::vector<std::string>{"fx_pytree", "tree_flatten_spec"} || !c.at("("))
            fail(targets.front(), "tuple assignment is only supported from fx_pytree.tree_flatten_spec");
        // Every node so far must be a parameter placeholder; they become the pytree inputs.
        for (const Node& n : m_graph.nodes)
            if (n.kind != NodeKind::Placeholder)
                fail(targets.front(), "fx_pytree.tree_flatten_spec after graph nodes");
        for (const Node& n : m_graph.nodes)
            m_graph.pytreeInputs.push_back(n.name);
        m_graph.nodes.clear();
        m_names.clear();
        c.pos = c.end;
        for (const Token& t : targets) {
            Node node;
            node.kind = NodeKind::Placeholder;
            node.name = t.text;
            node.attr = t.text;
            node.line = t.line;
            if (auto it = m_pending.find(t.text); it != m_pending.end()) {
                node.meta = it->second.meta;
                node.comment = it->second.comment;
                m_pending.erase(it);
            }
            addNode(std::move(node), t);
        }
    }

    int parseAssignment(Cursor& c, const Token& nameTok, std::optional<ValueMeta> meta)
    {
        Node node;
        node.name = nameTok.text;
        node.meta = std::move(meta);
        node.line = nameTok.line;
        node.stack = m_currentStack;
        m_nodeName = node.name;
        const Token& start = c.peek();

        // self.<attr>  -> get_attr
        if (start.isName("self") && c.at(".", 1)) {
            std::vector<std::string> parts = dottedName(c);
            if (!c.done())
                fail(c.peek(), "unsupported expression after self attribute");
            node.kind = NodeKind::GetAttr;
            node.target = {};
            for (std::size_t k = 1; k < parts.size(); ++k)
                node.attr += (k > 1 ? "." : "") + parts[k];
            return addNode(std::move(node), nameTok);
        }
        // Unary operator on a value: "-x", "~x"
        if ((start.is("-") || start.is("~")) && c.has(1) && c.peek(1).kind == TokenKind::Name && lookup(c.peek(1).text) >= 0) {
            ++c.pos;
            node.kind = NodeKind::CallFunction;
            node.target.kind = Target::Kind::Operator;
            node.target.op = start.is("-") ? "neg" : "invert";
            node.args.push_back(parseValue(c));
            expectEnd(c);
            return addNode(std::move(node), nameTok);
        }
        if (start.kind == TokenKind::Name && !isLiteralName(start.text)) {
            std::size_t save = c.pos;
            std::vector<std::string> parts = dottedName(c);
            if (c.at("(")) {
                parseCall(c, parts, start, node);
                expectEnd(c);
                return addNode(std::move(node), nameTok);
            }
            if (parts.size() == 1 && c.at("[")) {
                int base = lookup(parts[0]);
                if (base < 0)
                    fail(start, "undefined name '" + parts[0] + "'" + undefinedWhy(start));
                ++c.pos;
                std::size_t close = matching(*c.tokens, c.pos - 1);
                Cursor inner{c.tokens, c.pos, close};
                node.kind = NodeKind::CallFunction;
                node.target.kind = Target::Kind::Getitem;
                node.args.push_back(Arg::ofNode(base));
                node.args.push_back(parseValue(inner));
                expectEnd(inner);
                c.pos = close + 1;
                expectEnd(c);
                return addNode(std::move(node), nameTok);
            }
            if (parts.size() == 2 && c.done() && lookup(parts[0]) >= 0) {
                // "getattr_1 = x.T": FX prints call_function(getattr, (x, 'T')) as attribute access (dynamo
                // graphs: .T, .shape, .dtype, .device, .real).
                node.kind = NodeKind::CallFunction;
                node.target.kind = Target::Kind::Python;
                node.target.op = "getattr";
                const int base = lookup(parts[0]);
                markUsed(base);
                node.args = {Arg::ofNode(base), Arg::ofString(parts[1])};
                return addNode(std::move(node), nameTok);
            }
            if (parts.size() == 1 && c.done()) {
                // "l_x_ = L_x_": dynamo names a placeholder differently from its python argument.
                int ref = lookup(parts[0]);
                if (ref < 0)
                    fail(start, "undefined name '" + parts[0] + "'" + undefinedWhy(start));
                Node& p = m_graph.nodes[static_cast<std::size_t>(ref)];
                if (p.kind != NodeKind::Placeholder || p.name != p.attr || wasUsed(ref))
                    fail(start, "plain assignment '" + nameTok.text + " = " + parts[0] + "' is not an FX statement");
                m_names.erase(p.name);
                p.name = nameTok.text;
                if (!p.meta && node.meta)
                    p.meta = node.meta;
                if (m_names.count(p.name))
                    fail(nameTok, "duplicate name '" + p.name + "'");
                m_names[p.name] = ref;
                return ref;
            }
            c.pos = save;
        }
        // Binary operator: "<value> <op> <value>" (SymInt arithmetic)
        Arg lhs = parseValue(c);
        if (c.done() && lhs.kind == Arg::Kind::Op)
            fail(start, "operator 'torch.ops." + lhs.s + "' is not called (an FX node calls its target)");
        if (c.done())
            fail(start, "a literal is not an FX node");
        const std::string_view* opName = binaryOpName(c.peek());
        if (!opName)
            fail(c.peek(), "unexpected '" + c.peek().text + "'");
        ++c.pos;
        Arg rhs = parseValue(c);
        expectEnd(c);
        node.kind = NodeKind::CallFunction;
        node.target.kind = Target::Kind::Operator;
        node.target.op = std::string(*opName);
        node.args = {std::move(lhs), std::move(rhs)};
        return addNode(std::move(node), nameTok);
    }

    void parseCall(Cursor& c, const std::vector<std::string>& parts, const Token& start, Node& node)
    {
        node.kind = NodeKind::CallFunction;
        if (parts.size() >= 4 && parts[0] == "torch" && parts[1] == "ops") {
            if (parts.size() > 5)
                fail(start, "malformed operator name");
            node.target.kind = Target::Kind::Op;
            node.target.ns = parts[2];
            node.target.op = parts[3];
            node.target.overload = parts.size() == 5 ? parts[4] : "";
        } else if (parts.size() == 2 && parts[0] == "operator") {
            node.target.kind = parts[1] == "getitem" ? Target::Kind::Getitem : Target::Kind::Operator;
            node.target.op = parts[1] == "getitem" ? "" : parts[1];
        } else if (parts.size() >= 2 && lookup(parts[0]) >= 0) {
            if (parts.size() != 2)
                fail(start, "unsupported attribute chain on a node");
            node.kind = NodeKind::CallMethod;
            node.target.kind = Target::Kind::Method;
            node.target.op = parts[1];
            node.args.push_back(Arg::ofNode(lookup(parts[0])));
        } else if (parts.size() == 1 && (lookup(parts[0]) >= 0 || parts[0] == "self")) {
            fail(start, "calling a value is not supported");
        } else {
            node.target.kind = Target::Kind::Python;
            for (std::size_t k = 0; k < parts.size(); ++k)
                node.target.op += (k ? "." : "") + parts[k];
        }
        parseCallArgs(c, node.args, node.kwargs);
    }

    void parseCallArgs(Cursor& c, std::vector<Arg>& args, std::vector<std::pair<std::string, Arg>>& kwargs)
    {
        std::size_t close = matching(*c.tokens, c.pos);
        Cursor inner{c.tokens, c.pos + 1, close};
        while (!inner.done()) {
            if (inner.peek().kind == TokenKind::Name && inner.at("=", 1)) {
                std::string key = inner.peek().text;
                inner.pos += 2;
                kwargs.emplace_back(key, parseValue(inner));
            } else {
                if (!kwargs.empty())
                    fail(inner.peek(), "positional argument after keyword argument");
                args.push_back(parseValue(inner));
            }
            if (!inner.done()) {
                if (!inner.at(","))
                    fail(inner.peek(), "expected ',' between arguments");
                ++inner.pos;
            }
        }
        c.pos = close + 1;
    }

    // AOTAutograd writes one descriptor comment per returned value ("addmm_1,  # PlainAOTOutput(idx=0)"): each
    // comment with the value written before it, in order (stage compare maps outputs between stages by them).
    void collectReturnComments(const std::vector<Token>& tokens)
    {
        m_returnComments.clear();
        std::string last;
        for (const Token& t : tokens) {
            if (t.kind == TokenKind::Comment) {
                if (!last.empty())
                    m_returnComments.emplace_back(last, t.text);
                last.clear();
            } else if (t.kind == TokenKind::Name || t.kind == TokenKind::Number) {
                last = t.text;
            }
        }
    }

    // Graph::outputComments from the comments collected on the return line: the flattened outputs matched in order
    // with the values the comments followed.
    void assignOutputComments(const Arg& outputs)
    {
        std::vector<std::string> leaves;
        auto flatten = [&](auto&& self, const Arg& a) -> void {
            if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
                for (const Arg& item : a.items)
                    self(self, item);
            } else {
                leaves.push_back(a.kind == Arg::Kind::Node ? m_graph.nodes[static_cast<std::size_t>(a.node)].name
                                 : a.kind == Arg::Kind::None ? "None" : "");
            }
        };
        flatten(flatten, outputs);
        m_graph.outputComments.assign(leaves.size(), std::string());
        std::size_t next = 0;
        for (std::size_t k = 0; k < leaves.size() && next < m_returnComments.size(); ++k) {
            if (leaves[k].empty() || m_returnComments[next].first != leaves[k])
                continue;
            m_graph.outputComments[k] = m_returnComments[next++].second;
        }
        if (std::all_of(m_graph.outputComments.begin(), m_graph.outputComments.end(), [](const std::string& s) { return s.empty(); }))
            m_graph.outputComments.clear();
    }

    void parseReturn(Cursor& c, const Token& ret)
    {
        Node out;
        out.kind = NodeKind::Output;
        // FX's name for it ("output_1" where a value took "output"); a second return is an error about "output".
        out.name = m_graph.outputNode() >= 0 ? "output" : m_graph.freeOutputName();
        out.line = ret.line;
        out.stack = -1;
        m_nodeName = out.name;
        if (c.done()) {
            // Python reads it as "return None", but FX always writes its output ("return None", "return ()"):
            // a bare return is an edited or damaged graph whose outputs were lost.
            fail(ret, "'return' without a value: FX writes the graph's outputs after it (return (a, b), return None)");
        } else if (c.peek().isName("pytree")) {
            std::vector<std::string> callee = dottedName(c);
            if (callee != std::vector<std::string>{"pytree", "tree_unflatten"} || !c.at("("))
                fail(ret, "unsupported return form");
            std::size_t close = matching(*c.tokens, c.pos);
            Cursor inner{c.tokens, c.pos + 1, close};
            Arg list = parseValue(inner);
            if (list.kind != Arg::Kind::List)
                fail(ret, "pytree.tree_unflatten expects a list of outputs");
            m_graph.outputForm = OutputForm::Pytree;
            out.args.push_back(std::move(list));
            c.pos = close + 1;
        } else {
            Arg v = parseValue(c);
            m_graph.outputForm = v.kind == Arg::Kind::Tuple ? OutputForm::Tuple
                                 : v.kind == Arg::Kind::List ? OutputForm::List
                                                             : OutputForm::Single;
            out.args.push_back(std::move(v));
        }
        expectEnd(c);
        if (m_graph.outputNode() >= 0)
            fail(ret, "second return statement");
        if (!m_returnComments.empty() && !out.args.empty())
            assignOutputComments(out.args[0]);
        addNode(std::move(out), ret);
    }

    // ---- values ----------------------------------------------------------------------------------------------

    static bool isPythonKeyword(const std::string& s)
    {
        static const std::unordered_set<std::string> kKeywords = {
            "if", "elif", "else", "for", "while", "with", "try", "except", "finally", "pass", "del", "import",
            "from", "raise", "assert", "global", "nonlocal", "lambda", "yield", "def", "class", "break",
            "continue", "async", "await"};  // not the soft keywords (match, case, type): names can be those
        return kKeywords.count(s) > 0;
    }

    // Why a name used at t is not defined yet: the node uses itself, or its definition comes later.
    std::string undefinedWhy(const Token& t) const
    {
        if (!m_nodeName.empty() && t.text == m_nodeName)
            return ": a node cannot use its own value";
        auto it = m_definedAt.find(t.text);
        if (it != m_definedAt.end() && it->second >= t.line)
            return ": it is defined later, on line " + std::to_string(it->second) +
                   " (FX code lists nodes in topological order: a cycle, or lines moved)";
        return {};
    }

    static bool isLiteralName(const std::string& s)
    {
        return s == "True" || s == "False" || s == "None" || s == "inf" || s == "nan" || s == "device" ||
               s == "slice" || s == "Ellipsis" || s == "infj" || s == "nanj";
    }

    std::vector<std::string> dottedName(Cursor& c)
    {
        std::vector<std::string> parts;
        if (c.done() || c.peek().kind != TokenKind::Name)
            fail(c.done() ? (*c.tokens)[c.end - 1] : c.peek(), "expected a name");
        parts.push_back(c.peek().text);
        ++c.pos;
        while (c.at(".") && c.has(1) && c.peek(1).kind == TokenKind::Name) {
            parts.push_back(c.peek(1).text);
            c.pos += 2;
        }
        return parts;
    }

    // A value; inside load_args also a sympy expression over sizes ("128*s77"), kept as its text.
    Arg parseValue(Cursor& c)
    {
        Arg v = parsePrimary(c);
        while (m_bareNamesAsStrings && !c.done() && binaryOpName(c.peek())) {
            std::string op = c.peek().text;
            ++c.pos;
            Arg rhs = parsePrimary(c);
            v = Arg::ofString(exprText(v) + op + exprText(rhs));
        }
        return v;
    }

    std::string exprText(const Arg& a) const
    {
        if (a.kind == Arg::Kind::Int)
            return std::to_string(a.i);
        if (a.kind == Arg::Kind::String)
            return a.s;
        throw Error("unsupported value in a size expression", SourceLocation{m_file, 0, 0, m_nodeName});
    }

    Arg parsePrimary(Cursor& c)
    {
        // Brackets are bounded by the tokenizer; this also bounds chains of unary signs.
        if (++m_valueDepth > 512)
            fail(c.done() ? (*c.tokens)[c.end - 1] : c.peek(), "value nested too deeply");
        struct Leave {
            int& d;
            ~Leave() { --d; }
        } leave{m_valueDepth};
        if (c.done())
            fail((*c.tokens)[c.end - 1], "expected a value");
        const Token& t = c.peek();
        if (t.is("-") || t.is("+"))
            return parseSigned(c, t);
        if (t.kind == TokenKind::Number) {
            ++c.pos;
            return parseNumber(t);
        }
        if (t.kind == TokenKind::String) {
            ++c.pos;
            return Arg::ofString(t.text);
        }
        if (t.is("...")) {
            ++c.pos;
            Arg e;
            e.kind = Arg::Kind::Ellipsis;
            return e;
        }
        if (t.is("{"))
            return parseDict(c);
        if (t.is("(")) {
            if (auto z = parseParenthesisedComplex(c))
                return *z;
        }
        if (t.is("[") || t.is("(")) {
            Arg v = parseListOrTuple(c, t);
            // A parenthesised part of a size expression keeps its parentheses: (a + b)*c is not a + b*c.
            if (m_bareNamesAsStrings && t.is("(") && v.kind == Arg::Kind::String)
                v.s = "(" + v.s + ")";
            return v;
        }
        if (t.kind != TokenKind::Name)
            fail(t, "unexpected '" + t.text + "' in argument");
        return parseNamed(c, t);
    }

    // A unary sign (t) on a number.
    Arg parseSigned(Cursor& c, const Token& t)
    {
        ++c.pos;
        Arg v = parsePrimary(c);
        if (v.kind == Arg::Kind::Int)
            v.i = t.is("-") ? -v.i : v.i;
        else if (v.kind == Arg::Kind::Float)
            v.f = t.is("-") ? -v.f : v.f;
        else if (v.kind == Arg::Kind::Complex && t.is("-")) {
            v.f = -v.f;  // python: -1j is complex(-0.0, -1.0)
            v.imag = -v.imag;
        } else if (v.kind != Arg::Kind::Complex)
            fail(t, "unary '" + t.text + "' on a non-number inside an argument");
        return v;
    }

    // [a, b] is a list; (a, b) and (a,) are tuples; (a) is a.
    Arg parseListOrTuple(Cursor& c, const Token& t)
    {
        const bool isList = t.is("[");
        const std::size_t close = matching(*c.tokens, c.pos);
        Cursor inner{c.tokens, c.pos + 1, close};
        std::vector<Arg> items;
        bool sawComma = false;
        while (!inner.done()) {
            items.push_back(parseValue(inner));
            if (!inner.done()) {
                if (!inner.at(","))
                    fail(inner.peek(), "expected ','");
                sawComma = true;
                ++inner.pos;
            }
        }
        c.pos = close + 1;
        if (!isList && items.size() == 1 && !sawComma)
            return items[0];  // parenthesised value
        return Arg::ofList(std::move(items), isList ? Arg::Kind::List : Arg::Kind::Tuple);
    }

    // A name or dotted name starting at t: a constant, a node, device(...) / slice(...), torch.<dtype, memory
    // format or layout>, math.inf / nan, an operator object.
    Arg parseNamed(Cursor& c, const Token& t)
    {
        std::vector<std::string> parts = dottedName(c);
        const std::string& head = parts[0];
        if (parts.size() == 1)
            return parseBareName(c, t, head);
        if (parts.size() == 2 && head == "torch") {
            if (auto a = parseTorchAttribute(c, t, parts[1]))
                return *a;
        }
        if (parts.size() == 2 && head == "math" && (parts[1] == "inf" || parts[1] == "nan"))
            return Arg::ofFloat(parts[1] == "inf" ? std::numeric_limits<double>::infinity()
                                                  : std::numeric_limits<double>::quiet_NaN());
        std::string dotted;
        for (std::size_t k = 0; k < parts.size(); ++k)
            dotted += (k ? "." : "") + parts[k];
        // An operator object as an argument: activation checkpointing's run_and_save_rng_state(op, *args) and
        // run_with_rng_state(state, op, *args) take the op they run (torch.ops.<ns>.<op>[.<overload>]).
        if ((parts.size() == 4 || parts.size() == 5) && head == "torch" && parts[1] == "ops") {
            Arg op;
            op.kind = Arg::Kind::Op;
            op.s = dotted.substr(std::string_view("torch.ops.").size());
            return op;
        }
        fail(t, "unsupported value '" + dotted + "'");
    }

    Arg parseBareName(Cursor& c, const Token& t, const std::string& head)
    {
        if (head == "True" || head == "False")
            return Arg::ofBool(head == "True");
        if (head == "None")
            return Arg::none();
        if (head == "inf")
            return Arg::ofFloat(std::numeric_limits<double>::infinity());
        if (head == "nan")
            return Arg::ofFloat(std::numeric_limits<double>::quiet_NaN());
        if (head == "Ellipsis") {
            Arg e;
            e.kind = Arg::Kind::Ellipsis;
            return e;
        }
        if (head == "infj" || head == "nanj")  // python's repr of complex(0, inf) / complex(0, nan)
            return complexOf(0.0, head == "infj" ? std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::quiet_NaN());
        if (head == "device" && c.at("("))
            return parseDevice(c, t);
        if (head == "slice" && c.at("("))
            return parseSlice(c, t);
        int ref = lookup(head);
        if (ref >= 0) {
            markUsed(ref);
            return Arg::ofNode(ref);
        }
        if (m_bareNamesAsStrings && c.at("("))
            return Arg::ofString(head + sizeCallArguments(c));
        if (m_bareNamesAsStrings)
            return Arg::ofString(head);
        fail(t, "undefined name '" + head + "'" + undefinedWhy(t));
    }

    // The "(...)" of a sympy function in a load_args size expression, as its text: inductor writes storage sizes
    // of dynamic shapes as "4*s27*Max(1, s27 - (Mod(s27, 8)) + 8)" (CUDA's padded attention outputs).
    std::string sizeCallArguments(Cursor& c)
    {
        const std::size_t close = matching(*c.tokens, c.pos);
        Cursor inner{c.tokens, c.pos + 1, close};
        std::string text = "(";
        while (!inner.done()) {
            text += exprText(parseValue(inner));
            if (!inner.done()) {
                if (!inner.at(","))
                    fail(inner.peek(), "expected ',' between a size function's arguments");
                text += ", ";
                ++inner.pos;
            }
        }
        c.pos = close + 1;
        return text + ")";
    }

    // slice(stop), slice(start, stop), slice(start, stop, step): always three items.
    Arg parseSlice(Cursor& c, const Token& t)
    {
        Arg s;
        s.kind = Arg::Kind::Slice;
        std::vector<std::pair<std::string, Arg>> kw;
        parseCallArgs(c, s.items, kw);
        if (!kw.empty() || s.items.empty() || s.items.size() > 3)
            fail(t, "slice() takes 1 to 3 positional arguments");
        if (s.items.size() == 1)
            s.items.insert(s.items.begin(), Arg::none());
        while (s.items.size() < 3)
            s.items.push_back(Arg::none());
        return s;
    }

    // torch.<n>: a dtype, memory format or layout, or torch.device(...); nothing for other names.
    std::optional<Arg> parseTorchAttribute(Cursor& c, const Token& t, const std::string& n)
    {
        if (auto dt = dtypeFromTorchName(n)) {
            Arg a;
            a.kind = Arg::Kind::DType;
            a.dtype = *dt;
            return a;
        }
        if (contains(kMemoryFormats, n)) {
            Arg a;
            a.kind = Arg::Kind::MemoryFormat;
            a.s = n;
            return a;
        }
        if (contains(kLayouts, n)) {
            Arg a;
            a.kind = Arg::Kind::Layout;
            a.s = n;
            return a;
        }
        if (n == "device" && c.at("("))
            return parseDevice(c, t);
        return std::nullopt;
    }

    static Arg complexOf(double re, double im)
    {
        Arg z;
        z.kind = Arg::Kind::Complex;
        z.f = re;
        z.imag = im;
        return z;
    }

    // "{k: v, ...}" (flex_attention's kernel options, dynamo-level calls): keys and values alternate in items.
    Arg parseDict(Cursor& c)
    {
        std::size_t close = matching(*c.tokens, c.pos);
        Cursor inner{c.tokens, c.pos + 1, close};
        Arg d;
        d.kind = Arg::Kind::Dict;
        while (!inner.done()) {
            d.items.push_back(parseValue(inner));
            if (!inner.at(":"))
                fail(inner.done() ? (*c.tokens)[close] : inner.peek(), "expected ':' after a dict key");
            ++inner.pos;
            d.items.push_back(parseValue(inner));
            if (!inner.done()) {
                if (!inner.at(","))
                    fail(inner.peek(), "expected ',' between dict items");
                ++inner.pos;
            }
        }
        c.pos = close + 1;
        return d;
    }

    // Python's repr of a complex with a real part: "(1+2j)", "(-0-1j)", "(1+nanj)". nullopt when the
    // parentheses hold anything else (then they are a tuple or a parenthesised value).
    std::optional<Arg> parseParenthesisedComplex(Cursor& c)
    {
        std::size_t close = matching(*c.tokens, c.pos);
        Cursor inner{c.tokens, c.pos + 1, close};
        const auto isImaginary = [](const Token& t) {
            return (t.kind == TokenKind::Number && (t.text.back() == 'j' || t.text.back() == 'J')) ||
                   t.isName("infj") || t.isName("nanj");
        };
        // [sign] real (+|-) imaginary: the sign token sits at close - 2, the imaginary part at close - 1.
        if (close < c.pos + 4 || !isImaginary((*c.tokens)[close - 1]) ||
            !((*c.tokens)[close - 2].is("+") || (*c.tokens)[close - 2].is("-")))
            return std::nullopt;
        Cursor realPart{c.tokens, inner.pos, close - 2};
        Arg re = parsePrimary(realPart);
        if (!realPart.done() || (re.kind != Arg::Kind::Float && re.kind != Arg::Kind::Int))
            return std::nullopt;
        Cursor imagPart{c.tokens, close - 1, close};
        Arg im = parsePrimary(imagPart);
        c.pos = close + 1;
        double real = re.kind == Arg::Kind::Int ? static_cast<double>(re.i) : re.f;
        if (real == 0 && (*c.tokens)[inner.pos].is("-"))
            real = -0.0;  // repr writes complex(-0.0, -1.0) as "(-0-1j)": the int -0 stands for -0.0
        return complexOf(real, (*c.tokens)[close - 2].is("-") ? -im.imag : im.imag);
    }

    Arg parseDevice(Cursor& c, const Token& t)
    {
        std::vector<Arg> args;
        std::vector<std::pair<std::string, Arg>> kw;
        parseCallArgs(c, args, kw);
        Arg d;
        d.kind = Arg::Kind::Device;
        auto setType = [&](const Arg& a) {
            if (a.kind != Arg::Kind::String || a.s.empty())
                fail(t, "device type must be a string");
            std::size_t colon = a.s.find(':');
            d.device.type = a.s.substr(0, colon);
            if (colon != std::string::npos) {
                auto [p, ec] = std::from_chars(a.s.data() + colon + 1, a.s.data() + a.s.size(), d.device.index);
                if (ec != std::errc() || p != a.s.data() + a.s.size())
                    fail(t, "bad device string '" + a.s + "'");
            }
        };
        auto setIndex = [&](const Arg& a) {
            if (a.kind == Arg::Kind::None)
                return;
            if (a.kind != Arg::Kind::Int || a.i < 0 || a.i > 1'000'000)
                fail(t, "device index must be a non-negative int");
            d.device.index = static_cast<int>(a.i);
        };
        if (args.size() > 2)
            fail(t, "device() takes at most 2 arguments");
        if (!args.empty())
            setType(args[0]);
        if (args.size() == 2)
            setIndex(args[1]);
        for (const auto& [k, v] : kw) {
            if (k == "type")
                setType(v);
            else if (k == "index")
                setIndex(v);
            else
                fail(t, "unknown device() argument '" + k + "'");
        }
        if (d.device.type.empty())
            fail(t, "device() without a type");
        return d;
    }

    Arg parseNumber(const Token& t)
    {
        const std::string& s = t.text;
        if (s.size() > 1 && (s.back() == 'j' || s.back() == 'J')) {  // imaginary literal: 1j, 2.5j, 1e-05j
            double v = 0;
            const bool hex = s[1] == 'x' || s[1] == 'X';
            auto [p, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, v);
            if (hex || ec != std::errc() || p != s.data() + s.size() - 1)
                fail(t, "bad number '" + s + "'");
            return complexOf(0.0, v);
        }
        bool isFloat = s.find_first_of(".eE") != std::string::npos && !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
        if (!isFloat) {
            std::int64_t v = 0;
            int base = 10;
            std::size_t off = 0;
            if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                base = 16;
                off = 2;
            }
            auto [p, ec] = std::from_chars(s.data() + off, s.data() + s.size(), v, base);
            if (ec == std::errc::result_out_of_range)
                fail(t, "integer literal out of int64 range");
            if (ec != std::errc() || p != s.data() + s.size())
                fail(t, "bad number '" + s + "'");
            return Arg::ofInt(v);
        }
        double v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || p != s.data() + s.size())
            fail(t, "bad number '" + s + "'");
        return Arg::ofFloat(v);
    }

    // ---- load_args -------------------------------------------------------------------------------------------

    struct StorageDecl {
        Device device;
        std::optional<DType> dtypeHint;
    };

    std::size_t parseLoadArgs(std::size_t i, std::vector<LoadArgsInput>& out)
    {
        std::size_t end = skipBlock(i);
        std::unordered_map<std::string, StorageDecl> storages;
        m_names.clear();
        m_bareNamesAsStrings = true;
        for (std::size_t j = i + 1; j < end; ++j) {
            const LogicalLine& l = m_lines[j];
            if (l.commentOnly())
                continue;
            std::vector<Token> toks;
            std::string comment;
            for (const Token& t : l.tokens) {
                if (t.kind == TokenKind::Comment)
                    comment = t.text;
                else
                    toks.push_back(t);
            }
            Cursor c{&toks, 0, toks.size()};
            const Token& first = c.peek();
            m_nodeName = comment;
            if (first.kind == TokenKind::Name && c.at("=", 1)) {
                // bufN = reader.storage(hash, nbytes, device=..., dtype_hint=...)
                std::string buf = first.text;
                c.pos += 2;
                std::vector<std::string> callee = dottedName(c);
                if (callee != std::vector<std::string>{"reader", "storage"} || !c.at("("))
                    fail(first, "expected reader.storage(...) in load_args");
                std::vector<Arg> args;
                std::vector<std::pair<std::string, Arg>> kw;
                parseCallArgs(c, args, kw);
                StorageDecl decl;
                for (const auto& [k, v] : kw) {
                    if (k == "device" && v.kind == Arg::Kind::Device)
                        decl.device = v.device;
                    else if (k == "dtype_hint" && v.kind == Arg::Kind::DType)
                        decl.dtypeHint = v.dtype;
                }
                storages[buf] = decl;
                continue;
            }
            std::vector<std::string> callee = dottedName(c);
            if (callee.size() != 2 || callee[0] != "reader" || !c.at("("))
                fail(first, "unsupported statement in load_args");
            std::vector<Arg> args;
            std::vector<std::pair<std::string, Arg>> kw;
            parseCallArgs(c, args, kw);
            LoadArgsInput input;
            input.name = comment;
            input.line = first.line;
            if (callee[1] == "symint") {
                input.meta.kind = ValueMeta::Kind::SymInt;
                if (!args.empty() && (args[0].kind == Arg::Kind::Int || args[0].kind == Arg::Kind::String))
                    input.meta.symExpr = exprText(args[0]);
            } else if (callee[1] == "tensor") {
                if (args.size() < 2 || args[0].kind != Arg::Kind::String || !storages.count(args[0].s))
                    fail(first, "reader.tensor needs a storage declared by reader.storage");
                const StorageDecl& decl = storages[args[0].s];
                TensorMeta& tm = input.meta.tensor;
                input.meta.kind = ValueMeta::Kind::Tensor;
                tm.device = decl.device;
                tm.sizes = intDims(args[1], first);
                if (args.size() > 2)
                    tm.strides = intDims(args[2], first);
                tm.dtype = DType::Float32;
                for (const auto& [k, v] : kw) {
                    if (k == "dtype" && v.kind == Arg::Kind::DType)
                        tm.dtype = v.dtype;
                    else if (k == "stride")
                        tm.strides = intDims(v, first);
                    else if (k == "storage_offset" && v.kind == Arg::Kind::Int)
                        tm.storageOffset = SymDim::constant(v.i);
                    else if (k == "storage_offset" && v.kind == Arg::Kind::String)
                        tm.storageOffset = SymDim::symbolic(v.s);
                }
                if (tm.strides && tm.strides->size() != tm.sizes.size())
                    fail(first, "stride has " + std::to_string(tm.strides->size()) + " entries but size has " +
                                    std::to_string(tm.sizes.size()));
                if (!tm.strides)
                    tm.strides = contiguousStrides(tm.sizes);
                if (!tm.storageOffset)
                    tm.storageOffset = SymDim::constant(0);
            } else {
                fail(first, "unsupported reader." + callee[1] + " in load_args");
            }
            out.push_back(std::move(input));
        }
        m_bareNamesAsStrings = false;
        m_names.clear();
        return end;
    }

    std::vector<SymDim> intDims(const Arg& a, const Token& where)
    {
        if (a.kind != Arg::Kind::Tuple && a.kind != Arg::Kind::List)
            fail(where, "expected a tuple of ints");
        std::vector<SymDim> dims;
        for (const Arg& d : a.items) {
            if (d.kind == Arg::Kind::Int)
                dims.push_back(SymDim::constant(d.i));
            else if (d.kind == Arg::Kind::String && !d.s.empty())
                dims.push_back(SymDim::symbolic(d.s));  // a size expression ("s77", "2*s77")
            else
                fail(where, "expected a tuple of sizes");
        }
        return dims;
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    int addNode(Node node, const Token& where)
    {
        if (auto it = m_names.find(node.name); it != m_names.end())
            fail(where, "duplicate name '" + node.name + "' (first defined on line " +
                            std::to_string(m_graph.nodes[static_cast<std::size_t>(it->second)].line) + ")");
        int index = static_cast<int>(m_graph.nodes.size());
        m_names[node.name] = index;
        m_graph.nodes.push_back(std::move(node));
        return index;
    }

    int lookup(const std::string& name) const
    {
        auto it = m_names.find(name);
        return it == m_names.end() ? -1 : it->second;
    }

    std::size_t matching(const std::vector<Token>& t, std::size_t open) const
    {
        int depth = 0;
        for (std::size_t k = open; k < t.size(); ++k) {
            if (t[k].is("(") || t[k].is("[") || t[k].is("{"))
                ++depth;
            else if ((t[k].is(")") || t[k].is("]") || t[k].is("}")) && --depth == 0)
                return k;
        }
        fail(t[open], "unclosed bracket");
    }

    void expectEnd(const Cursor& c) const
    {
        if (!c.done())
            fail(c.peek(), "unexpected '" + c.peek().text + "'");
    }

    SourceLocation loc(const Token& t, const std::string& node = {}) const
    {
        return SourceLocation{m_file, t.line, t.column, node};
    }

    std::string excerpt(const Token& t) const
    {
        int idx = t.line - m_firstLine;
        if (idx < 0 || static_cast<std::size_t>(idx) >= m_physical.size())
            return {};
        std::string_view l = m_physical[static_cast<std::size_t>(idx)];
        while (!l.empty() && (l.front() == ' ' || l.front() == '\t'))
            l.remove_prefix(1);
        return detail::printableText(l.substr(0, 200));
    }

    [[noreturn]] void fail(const Token& t, const std::string& msg) const
    {
        throw Error(msg, loc(t, m_nodeName), excerpt(t));
    }

    struct Pending {
        ValueMeta meta;
        std::string comment;
        Token token;
    };

    std::string_view m_text;
    std::string m_file;
    int m_firstLine;
    std::vector<std::string_view> m_physical;
    std::vector<LogicalLine> m_lines;
    Graph m_graph;
    std::unordered_map<std::string, int> m_names;
    std::unordered_map<std::string, Pending> m_pending;
    std::unordered_map<std::string, int> m_stackIds;
    std::unordered_map<std::string, int> m_definedAt;  // forward body: name -> line of its first assignment
    std::vector<char> m_used;  // per node index: read by a later statement (a flag per node, not a hash set: 7% of a parse)
    void markUsed(int ref)
    {
        if (ref < 0)
            return;
        if (static_cast<std::size_t>(ref) >= m_used.size())
            m_used.resize(static_cast<std::size_t>(ref) + 1 + m_used.size() / 2, 0);
        m_used[static_cast<std::size_t>(ref)] = 1;
    }
    bool wasUsed(int ref) const
    {
        return ref >= 0 && static_cast<std::size_t>(ref) < m_used.size() && m_used[static_cast<std::size_t>(ref)];
    }
    int m_currentStack = -1;
    std::string m_nodeName;
    std::vector<std::pair<std::string, std::string>> m_returnComments;  // (value written, its comment) on the return line
    bool m_bareNamesAsStrings = false;
    int m_valueDepth = 0;
};

}  // namespace

ParsedModule parseFxModule(std::string_view text, const ParseOptions& options)
{
    // torch 2.11 writes the fx_graph_runnable of a graph without inputs with an empty load_args body
    // ("def load_args(reader):" straight followed by "load_args._version = 0"), which Python itself refuses.
    // Read it as an empty body: the repair keeps the line count, so every location stays right.
    constexpr std::string_view kEmpty = "def load_args(reader):\nload_args.";
    if (text.find(kEmpty) != std::string_view::npos) {
        std::string repaired(text);
        for (std::size_t at = repaired.find(kEmpty); at != std::string::npos; at = repaired.find(kEmpty, at))
            repaired.replace(at, kEmpty.size(), "def load_args(reader): pass\nload_args.");
        return FxParser(repaired, options).parse();
    }
    return FxParser(text, options).parse();
}

}  // namespace fxray::graph
