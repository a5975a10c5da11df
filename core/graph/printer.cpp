#include "graph/printer.h"

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

std::string printGraph(const Graph& g, Style style, int indent);

std::string printSignature(const Graph& g, Style style)
{
    std::string sig = "def forward(self";
    if (g.pytreeInputs.empty()) {
        for (const Node& n : g.nodes) {
            if (n.kind != NodeKind::Placeholder)
                continue;
            sig += ", " + n.attr;
            if (style == Style::Readable && n.meta)
                sig += ": \"" + formatAnnotation(*n.meta) + "\"";
        }
    } else {
        for (const std::string& p : g.pytreeInputs)
            sig += ", " + p;
    }
    return sig + "):\n";
}

std::string printGraph(const Graph& g, Style style, int indent)
{
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    const std::string body = pad + "        ";
    std::string out = pad + "class " + (g.className.empty() ? "FxModule" : g.className) + "(torch.nn.Module):\n";
    if (style == Style::Module)
        out += pad + "    def __init__(self):\n" + pad + "        super().__init__()\n\n";
    for (const auto& [name, sub] : g.subgraphs) {
        Graph named = sub;
        named.className = name;
        out += printGraph(named, style, indent + 4);
    }
    out += pad + "    " + printSignature(g, style);
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
        out += body + names + "= fx_pytree.tree_flatten_spec([" + specs + "], self._in_spec)\n";
    }
    int stack = -2;
    for (const Node& n : g.nodes) {
        if (n.kind == NodeKind::Placeholder) {
            if (n.name != n.attr)
                out += body + n.name + " = " + n.attr + "\n";
            continue;
        }
        if (n.kind == NodeKind::Output) {
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
    Graph named = g;
    if (named.className.empty())
        named.className = "FxModule";
    return kModuleHeader + printGraph(named, Style::Module, 0);
}

std::string printReadable(const Graph& g)
{
    Graph named = g;
    if (named.className.empty())
        named.className = "GraphModule";
    return printGraph(named, Style::Readable, 0);
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
