#include "graph/printer.h"

#include <cstdint>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace fxray::graph {
namespace {

const char* kModuleHeader =
    "\nimport torch\nfrom math import inf\nfrom math import nan\nNoneType = type(None)\nimport torch\n"
    "from torch import device\nimport torch.fx._pytree as fx_pytree\nimport torch.utils._pytree as pytree\n\n"
    "from torch.nn import *\n";


const char* operatorSymbol(const std::string& op)
{
    static const std::pair<const char*, const char*> kOps[] = {
        {"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"floordiv", "//"}, {"mod", "%"},
        {"pow", "**"}, {"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="},
        {"and_", "&"}, {"or_", "|"}, {"xor", "^"}, {"matmul", "@"}, {"lshift", "<<"}, {"rshift", ">>"}};
    for (const auto& [name, sym] : kOps)
        if (op == name)
            return sym;
    return nullptr;
}

// FX's inplace_methods: these call_function targets print as python statements, not as calls.
const char* inplaceSymbol(const std::string& op)
{
    static const std::pair<const char*, const char*> kOps[] = {
        {"iadd", "+="}, {"isub", "-="}, {"imul", "*="}, {"itruediv", "/="}, {"ifloordiv", "//="},
        {"imod", "%="}, {"ipow", "**="}, {"iand", "&="}, {"ior", "|="}, {"ixor", "^="}, {"imatmul", "@="},
        {"ilshift", "<<="}, {"irshift", ">>="}};
    for (const auto& [name, sym] : kOps)
        if (op == name)
            return sym;
    return nullptr;
}

// "a += b" / "a[i] = v" for an in-place operator node FX prints as a statement; empty for any other node.
std::string inplaceStatement(const Graph& g, const Node& n)
{
    if (n.kind != NodeKind::CallFunction || n.target.kind != Target::Kind::Operator || !n.kwargs.empty())
        return {};
    if (const char* sym = inplaceSymbol(n.target.op); sym && n.args.size() == 2)
        return formatArg(g, n.args[0]) + " " + sym + " " + formatArg(g, n.args[1]);
    if (n.target.op == "setitem" && n.args.size() == 3)
        return formatArg(g, n.args[0]) + "[" + formatArg(g, n.args[1]) + "] = " + formatArg(g, n.args[2]);
    return {};
}

// A complex part as python's complex repr writes it: float repr without a trailing ".0" ("1", "1.5", "inf").
std::string complexPartRepr(double v)
{
    std::string s = pythonFloatRepr(v);
    if (s.size() > 2 && s.ends_with(".0"))
        s.resize(s.size() - 2);
    return s;
}

std::string complexRepr(double re, double im)
{
    if (re == 0.0 && !std::signbit(re))
        return complexPartRepr(im) + "j";
    const bool plus = std::isnan(im) || !std::signbit(im);
    return "(" + complexPartRepr(re) + (plus ? "+" : "") + complexPartRepr(std::isnan(im) ? std::abs(im) : im) + "j)";
}

std::string callArgs(const Graph& g, const Node& n, std::size_t skip)
{
    std::string out;
    for (std::size_t k = skip; k < n.args.size(); ++k) {
        if (!out.empty())
            out += ", ";
        out += formatArg(g, n.args[k]);
    }
    for (const auto& [key, v] : n.kwargs) {
        if (!out.empty())
            out += ", ";
        out += key + " = " + formatArg(g, v);
    }
    return out;
}

std::string freesSuffix(const Graph& g, const Node& n)
{
    if (n.frees.empty())
        return "";
    std::string out = ";  ";
    for (int f : n.frees)
        out += g.nodes[static_cast<std::size_t>(f)].name + " = ";
    return out + "None";
}

std::string outputExpr(const Graph& g, const Node& out)
{
    const Arg& v = out.args.empty() ? Arg{} : out.args[0];
    if (g.outputForm == OutputForm::Pytree)
        return "pytree.tree_unflatten(" + formatArg(g, v) + ", self._out_spec)";
    return formatArg(g, v);
}

enum class Style { Module, Readable };

struct PrintOptions {
    std::vector<int>* lines = nullptr;           // per node of the graph, the 1-based line that defines it
    std::size_t wrapSignatureAbove = SIZE_MAX;   // a longer signature: one parameter per line
};

// `className` names the class (empty: the graph's own, else FxModule).
std::string printGraph(const Graph& g, const std::string& className, Style style, int indent, const PrintOptions& options = {});

// "def forward(self, a, b):\n"; longer than `wrapAbove`, one parameter per line at `paramPad`, the closing ")" at
// `closePad`.
std::string printSignature(const Graph& g, Style style, std::size_t wrapAbove, const std::string& paramPad, const std::string& closePad)
{
    std::vector<std::string> params{"self"};
    std::size_t length = 0;
    if (g.pytreeInputs.empty()) {
        for (const Node& n : g.nodes) {
            if (n.kind != NodeKind::Placeholder)
                continue;
            std::string p = n.attr;
            if (style == Style::Readable && n.meta)
                p += ": \"" + formatAnnotation(*n.meta) + "\"";
            length += p.size() + 2;
            params.push_back(std::move(p));
        }
    } else {
        for (const std::string& p : g.pytreeInputs) {
            length += p.size() + 2;
            params.push_back(p);
        }
    }
    std::string sig = "def forward(";
    if (length > wrapAbove) {
        sig += "\n";
        for (const std::string& p : params)
            sig += paramPad + p + ",\n";
        return sig + closePad + "):\n";
    }
    for (std::size_t k = 0; k < params.size(); ++k)
        sig += (k ? ", " : "") + params[k];
    return sig + "):\n";
}

std::string printGraph(const Graph& g, const std::string& className, Style style, int indent, const PrintOptions& options)
{
    std::vector<int>* lines = options.lines;
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    const std::string body = pad + "        ";
    const std::string& name = !className.empty() ? className : g.className;
    std::string out = pad + "class " + (name.empty() ? "FxModule" : name) + "(torch.nn.Module):\n";
    // The line `out` has reached, counted as it grows.
    std::size_t counted = 0;
    int line = 1;
    const auto lineNow = [&] {
        for (; counted < out.size(); ++counted)
            line += out[counted] == '\n';
        return line;
    };
    if (lines)
        lines->assign(g.nodes.size(), 0);
    if (style == Style::Module)
        out += pad + "    def __init__(self):\n" + pad + "        super().__init__()\n\n";
    for (const auto& [subName, sub] : g.subgraphs)
        out += printGraph(sub, subName, style, indent + 4);
    const int defLine = lineNow();
    const std::string signature = printSignature(g, style, options.wrapSignatureAbove, body, pad + "    ");
    // Wrapped, each placeholder has its own line, after "def forward(" and "self,".
    const bool wrapped = signature.find('\n') + 1 < signature.size();
    out += pad + "    " + signature;
    if (!g.pytreeInputs.empty()) {
        std::string decl, names;
        for (const Node& n : g.nodes) {
            if (n.kind != NodeKind::Placeholder)
                continue;
            if (style == Style::Readable && n.meta)
                decl += n.name + ": \"" + formatAnnotation(*n.meta) + "\"; ";
            names += n.name + ", ";
        }
        if (!decl.empty())
            out += body + decl + "\n\n";
        std::string specs;
        for (std::size_t k = 0; k < g.pytreeInputs.size(); ++k)
            specs += (k ? ", " : "") + g.pytreeInputs[k];
        const int flattenLine = lineNow();
        if (lines)
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
                if (g.nodes[i].kind == NodeKind::Placeholder)
                    (*lines)[i] = flattenLine;
        out += body + names + "= fx_pytree.tree_flatten_spec([" + specs + "], self._in_spec)\n";
    }
    int stack = -2;
    int placeholderLine = defLine + 2;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.kind == NodeKind::Placeholder) {
            if (lines && g.pytreeInputs.empty())
                (*lines)[i] = wrapped ? placeholderLine++ : defLine;
            if (n.name != n.attr)  // the rename of a Dynamo input: the node stays where its argument is
                out += body + n.name + " = " + n.attr + "\n";
            continue;
        }
        if (n.kind == NodeKind::Output) {
            if (lines)
                (*lines)[i] = lineNow();
            out += body + "return " + outputExpr(g, n) + "\n";
            continue;
        }
        if (style == Style::Readable && n.stack != stack) {
            if (stack != -2)
                out += "\n";
            out += body + "# " +
                   (n.stack >= 0 ? g.stacks[static_cast<std::size_t>(n.stack)].raw : "No stacktrace found for following nodes") +
                   "\n";
            stack = n.stack;
        }
        std::string lhs = n.name;
        if (style == Style::Readable && n.meta)
            lhs += ": \"" + formatAnnotation(*n.meta) + "\"";
        if (lines)
            (*lines)[i] = lineNow();
        // FX writes an in-place operator as its statement, then binds the node's name to the mutated value.
        if (std::string inplace = inplaceStatement(g, n); !inplace.empty())
            out += body + inplace + ";  " + lhs + " = " + formatArg(g, n.args[0]) + freesSuffix(g, n) + "\n";
        else
            out += body + lhs + " = " + formatNodeExpr(g, n) + freesSuffix(g, n) + "\n";
    }
    return out + "\n";
}

}  // namespace

std::string pythonFloatRepr(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    // Shortest round-trip digits, laid out the way Python's repr does (scientific below 1e-4 and from 1e16).
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    std::size_t e = sci.find('e');
    std::string mant = sci.substr(0, e);
    int exp = std::stoi(sci.substr(e + 1));
    bool neg = !mant.empty() && mant[0] == '-';
    if (neg)
        mant.erase(0, 1);
    std::string digits;
    for (char c : mant)
        if (c != '.')
            digits += c;
    std::string out;
    if (exp < -4 || exp >= 16) {
        out = digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        out += eb;
    } else if (exp < 0) {
        out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else {
        std::size_t intLen = static_cast<std::size_t>(exp) + 1;
        if (digits.size() <= intLen)
            out = digits + std::string(intLen - digits.size(), '0') + ".0";
        else
            out = digits.substr(0, intLen) + "." + digits.substr(intLen);
    }
    return neg ? "-" + out : out;
}

std::string formatArg(const Graph& g, const Arg& a)
{
    switch (a.kind) {
    case Arg::Kind::None: return "None";
    case Arg::Kind::Bool: return a.b ? "True" : "False";
    case Arg::Kind::Int: return std::to_string(a.i);
    case Arg::Kind::Float: return pythonFloatRepr(a.f);
    case Arg::Kind::String: return pythonStringRepr(a.s);
    case Arg::Kind::DType: return "torch." + std::string(dtypeTorchName(a.dtype));
    case Arg::Kind::Layout:
    case Arg::Kind::MemoryFormat: return "torch." + a.s;
    case Arg::Kind::Device:
        return a.device.index < 0 ? "device(type='" + a.device.type + "')"
                                  : "device(type='" + a.device.type + "', index=" + std::to_string(a.device.index) + ")";
    case Arg::Kind::Slice: {
        std::string out = "slice(";
        for (std::size_t k = 0; k < a.items.size(); ++k)
            out += (k ? ", " : "") + formatArg(g, a.items[k]);
        return out + ")";
    }
    case Arg::Kind::List:
    case Arg::Kind::Tuple: {
        bool list = a.kind == Arg::Kind::List;
        std::string out = list ? "[" : "(";
        for (std::size_t k = 0; k < a.items.size(); ++k)
            out += (k ? ", " : "") + formatArg(g, a.items[k]);
        if (!list && a.items.size() == 1)
            out += ",";
        return out + (list ? "]" : ")");
    }
    case Arg::Kind::Ellipsis: return "Ellipsis";
    case Arg::Kind::Complex: return complexRepr(a.f, a.imag);
    case Arg::Kind::Op: return "torch.ops." + a.s;
    case Arg::Kind::Dict: {
        std::string out = "{";
        for (std::size_t k = 0; k + 1 < a.items.size(); k += 2)
            out += (k ? ", " : "") + formatArg(g, a.items[k]) + ": " + formatArg(g, a.items[k + 1]);
        return out + "}";
    }
    case Arg::Kind::Node:
        return a.node >= 0 && static_cast<std::size_t>(a.node) < g.nodes.size() ? g.nodes[static_cast<std::size_t>(a.node)].name
                                                                               : "<bad node " + std::to_string(a.node) + ">";
    }
    return "";
}

std::string formatNodeExpr(const Graph& g, const Node& n)
{
    switch (n.kind) {
    case NodeKind::Placeholder: return n.attr;
    case NodeKind::GetAttr: return "self." + n.attr;
    case NodeKind::Output: return outputExpr(g, n);
    case NodeKind::CallMethod:
        return (n.args.empty() ? std::string("<self>") : formatArg(g, n.args[0])) + "." + n.target.op + "(" +
               callArgs(g, n, 1) + ")";
    case NodeKind::CallFunction: break;
    }
    switch (n.target.kind) {
    case Target::Kind::Op: return "torch.ops." + n.target.str() + "(" + callArgs(g, n, 0) + ")";
    case Target::Kind::Getitem:
        if (n.args.size() == 2 && n.kwargs.empty())
            return formatArg(g, n.args[0]) + "[" + formatArg(g, n.args[1]) + "]";
        return "operator.getitem(" + callArgs(g, n, 0) + ")";
    case Target::Kind::Operator:
        if (const char* sym = operatorSymbol(n.target.op); sym && n.args.size() == 2 && n.kwargs.empty())
            return formatArg(g, n.args[0]) + " " + sym + " " + formatArg(g, n.args[1]);
        if (n.target.op == "neg" && n.args.size() == 1)
            return "-" + formatArg(g, n.args[0]);
        if (n.target.op == "invert" && n.args.size() == 1)
            return "~" + formatArg(g, n.args[0]);
        return "operator." + n.target.op + "(" + callArgs(g, n, 0) + ")";
    case Target::Kind::Python: return n.target.op + "(" + callArgs(g, n, 0) + ")";
    case Target::Kind::Method:
    case Target::Kind::None: break;
    }
    return "<unknown target>";
}

std::string printFxModule(const Graph& g)
{
    return kModuleHeader + printGraph(g, g.className.empty() ? "FxModule" : g.className, Style::Module, 0);
}

std::string printReadable(const Graph& g)
{
    return printGraph(g, g.className.empty() ? "GraphModule" : g.className, Style::Readable, 0);
}

std::string printReadableWithLines(const Graph& g, std::vector<int>& lineOfNode, std::size_t wrapSignatureAbove)
{
    PrintOptions options;
    options.lines = &lineOfNode;
    options.wrapSignatureAbove = wrapSignatureAbove;
    return printGraph(g, g.className.empty() ? "GraphModule" : g.className, Style::Readable, 0, options);
}


std::string pythonStringRepr(const std::string& s)
{
    // Python repr: single quotes unless the text has a single quote and no double quote.
    char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
    std::string out(1, q);
    for (char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c == q) {
                out += '\\';
                out += c;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + q;
}

}  // namespace fxray::graph
