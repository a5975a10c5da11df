#include "graph/torchscript_graph.h"

#include "graph/algorithms.h"
#include "graph/node_namer.h"
#include "graph/torchscript_type.h"

#include <cctype>
#include <charconv>
#include <unordered_map>

namespace fxray::graph {
namespace {

// What a TorchScript value is in the FX graph being built.
struct Value {
    enum class Kind { Node, Literal, Module };
    Kind kind = Kind::Node;
    int node = -1;         // Node
    Arg literal;           // Literal
    std::string path;      // Module: attribute path from the graph's module input ("" for the input itself)
    int line = 0;          // where it was defined
};

std::string opName(const std::string& kind) { return kind.substr(kind.rfind(':') + 1); }

// A stack frame becomes a "# File: ..." comment line of the printed code: no control characters in it.
bool printableInComment(const std::string& s)
{
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            return false;
    return true;
}

// Attribute and method names are printed as Python attribute access (self.fc.weight, conv.forward(x)).
bool isIdentifier(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

// "path/x.py:12:0" -> "File: path/x.py:12"; source="path/x.py fn 12" (LTC) -> "File: path/x.py:12 in fn".
std::optional<StackFrame> frameOf(const TsStatement& s)
{
    StackFrame f;
    for (const auto& [key, v] : s.attributes) {
        if (key != "source")
            continue;
        const std::size_t last = v.rfind(' ');
        const std::size_t mid = last == std::string::npos ? std::string::npos : v.rfind(' ', last - 1);
        int line = 0;
        if (mid == std::string::npos ||
            std::from_chars(v.data() + last + 1, v.data() + v.size(), line).ptr != v.data() + v.size())
            continue;
        f.file = v.substr(0, mid);
        f.line = line;
        f.function = v.substr(mid + 1, last - mid - 1);
        f.raw = "File: " + f.file + ":" + std::to_string(line) + " in " + f.function;
        if (!printableInComment(f.raw))
            return std::nullopt;
        return f;
    }
    std::string c = s.comment;
    while (!c.empty() && c.front() == ' ')
        c.erase(0, 1);
    while (!c.empty() && c.back() == ' ')
        c.pop_back();
    if (c.empty())
        return std::nullopt;
    // "file:line:col": drop the column, keep file:line (the FX form "# File: file:line" reads it back the same).
    std::size_t colon = c.rfind(':');
    std::size_t before = colon == std::string::npos || colon == 0 ? std::string::npos : c.rfind(':', colon - 1);
    int line = 0;
    if (before != std::string::npos &&
        std::from_chars(c.data() + before + 1, c.data() + colon, line).ptr == c.data() + colon) {
        f.file = c.substr(0, before);
        f.line = line;
        f.raw = "File: " + f.file + ":" + std::to_string(line);
        if (!printableInComment(f.raw))
            return std::nullopt;
        return f;
    }
    return std::nullopt;  // other comments carry no location
}

class Builder {
public:
    explicit Builder(const TsGraph& ts) : m_ts(ts) { m_graph.sourceFile = ts.fileName; m_graph.className = "GraphModule"; }

    Graph build()
    {
        bool haveModule = false;
        for (const TsValue& in : m_ts.inputs) {
            if (isTorchScriptClassType(in.type) && !haveModule) {
                haveModule = true;
                Value v;
                v.kind = Value::Kind::Module;
                v.line = in.line;
                define(in.name, std::move(v), in.line);
                continue;
            }
            Node n;
            n.kind = NodeKind::Placeholder;
            n.target = {};
            n.name = m_namer.unique(in.name);
            n.attr = n.name;
            n.meta = torchScriptTypeMeta(in.type, where(in.line, in.name));
            n.line = in.line;
            defineNode(in.name, add(std::move(n)), in.line);
        }
        for (const TsStatement& s : m_ts.statements)
            statement(s);
        Node out;
        out.kind = NodeKind::Output;
        out.target = {};
        out.name = m_graph.freeOutputName();
        out.line = m_ts.returnLine;
        std::vector<Arg> items;
        for (const std::string& r : m_ts.returns)
            items.push_back(argOf(r, m_ts.returnLine));
        Arg v = items.size() == 1 ? std::move(items[0]) : Arg::ofList(std::move(items), Arg::Kind::Tuple);
        m_graph.outputForm = v.kind == Arg::Kind::Tuple ? OutputForm::Tuple
                             : v.kind == Arg::Kind::List ? OutputForm::List
                                                         : OutputForm::Single;
        out.args.push_back(std::move(v));
        add(std::move(out));
        recomputeFrees(m_graph);
        return std::move(m_graph);
    }

private:
    SourceLocation where(int line, const std::string& node = {}) const
    {
        return SourceLocation{m_ts.fileName, line, 0, node};
    }

    [[noreturn]] void fail(const std::string& msg, int line) const { throw Error(msg, where(line)); }

    int add(Node n)
    {
        m_graph.nodes.push_back(std::move(n));
        return static_cast<int>(m_graph.nodes.size() - 1);
    }

    void define(const std::string& name, Value v, int line)
    {
        auto [it, fresh] = m_values.emplace(name, std::move(v));
        if (!fresh)
            fail("value %" + name + " is defined twice (first on line " + std::to_string(it->second.line) + ")", line);
    }

    // A get_attr node reading the attribute `path` for the TorchScript value o, named after `wanted`.
    Node getAttrNode(const TsValue& o, const std::string& wanted, const std::string& path, int line)
    {
        Node n;
        n.kind = NodeKind::GetAttr;
        n.target = {};
        n.name = m_namer.unique(wanted);
        n.attr = path;
        n.meta = torchScriptTypeMeta(o.type, where(line, n.name));
        n.line = line;
        return n;
    }

    void defineNode(const std::string& name, int node, int line)
    {
        Value v;
        v.kind = Value::Kind::Node;
        v.node = node;
        v.line = line;
        define(name, std::move(v), line);
    }

    const Value& lookup(const std::string& name, int line) const
    {
        auto it = m_values.find(name);
        if (it == m_values.end())
            fail("undefined value %" + name, line);
        return it->second;
    }

    // A module used as a value (an argument of prim::CallMethod): its get_attr node, made on first use.
    int moduleNode(const Value& v, int line)
    {
        auto it = m_moduleNodes.find(v.path);
        if (it != m_moduleNodes.end())
            return it->second;
        if (v.path.empty())
            fail("the module input itself is used as a value (only its attributes can be)", line);
        Node n;
        n.kind = NodeKind::GetAttr;
        n.target = {};
        n.name = m_namer.unique(v.path);
        n.attr = v.path;
        n.line = line;
        const int index = add(std::move(n));
        m_moduleNodes.emplace(v.path, index);
        return index;
    }

    Arg argOf(const std::string& name, int line)
    {
        const Value& v = lookup(name, line);
        switch (v.kind) {
        case Value::Kind::Node: return Arg::ofNode(v.node);
        case Value::Kind::Literal: return v.literal;
        case Value::Kind::Module: return Arg::ofNode(moduleNode(v, line));
        }
        return {};
    }

    int stackOf(const TsStatement& s)
    {
        auto f = frameOf(s);
        if (!f)
            return -1;
        auto it = m_stackIds.find(f->raw);
        if (it != m_stackIds.end())
            return it->second;
        m_graph.stacks.push_back(*f);
        const int id = static_cast<int>(m_graph.stacks.size() - 1);
        m_stackIds.emplace(f->raw, id);
        return id;
    }

    void expectOutputs(const TsStatement& s, std::size_t n) const
    {
        if (s.outputs.size() != n)
            fail(s.kind + " with " + std::to_string(s.outputs.size()) + " outputs (expected " + std::to_string(n) + ")",
                 s.line);
    }

    // The attribute `key`, which names a Python attribute or method.
    std::string attribute(const TsStatement& s, const std::string& key) const
    {
        for (const auto& [k, v] : s.attributes)
            if (k == key) {
                if (!isIdentifier(v))
                    fail(s.kind + " " + key + " '" + v.substr(0, 60) + "' is not an identifier", s.line);
                return v;
            }
        fail(s.kind + " without its '" + key + "' attribute", s.line);
    }

    // getitem nodes for each output of a tuple-valued node.
    void unpack(const TsStatement& s, int tupleNode, int stack)
    {
        for (std::size_t k = 0; k < s.outputs.size(); ++k) {
            const TsValue& o = s.outputs[k];
            Node g;
            g.kind = NodeKind::CallFunction;
            g.target.kind = Target::Kind::Getitem;
            g.name = m_namer.unique(NodeNamer::isAnonymous(o.name) ? "getitem" : o.name);
            g.args = {Arg::ofNode(tupleNode), Arg::ofInt(static_cast<std::int64_t>(k))};
            g.meta = torchScriptTypeMeta(o.type, where(s.line, g.name));
            g.stack = stack;
            g.line = s.line;
            defineNode(o.name, add(std::move(g)), s.line);
        }
    }

    void statement(const TsStatement& s)
    {
        if (s.hasBlocks || s.kind == "prim::If" || s.kind == "prim::Loop" || s.kind == "prim::Closure")
            fail(s.kind + " has nested blocks (control flow from torch.jit.script): fxray reads straight-line "
                          "TorchScript graphs (torch.jit.trace, the lazy-tensor TorchScript backend)",
                 s.line);
        const std::size_t sep = s.kind.find("::");
        if (sep == std::string::npos || !isIdentifier(s.kind.substr(0, sep)) || !isIdentifier(s.kind.substr(sep + 2)))
            fail("bad operator name '" + s.kind + "' (expected ns::op)", s.line);
        const int stack = stackOf(s);
        if (s.kind == "prim::Constant") {
            expectOutputs(s, 1);
            const TsValue& o = s.outputs[0];
            if (s.tensorConstant) {
                const std::string attr = "_tensor_constant" + std::to_string(m_tensorConstants++);
                defineNode(o.name, add(getAttrNode(o, NodeNamer::isAnonymous(o.name) ? attr : o.name, attr, s.line)), s.line);
                return;
            }
            Value v;
            v.kind = Value::Kind::Literal;
            v.literal = s.constant.value_or(Arg::none());
            v.line = s.line;
            define(o.name, std::move(v), s.line);
            return;
        }
        if (s.kind == "prim::ListConstruct" || s.kind == "prim::TupleConstruct") {
            expectOutputs(s, 1);
            std::vector<Arg> items;
            for (const std::string& in : s.inputs)
                items.push_back(argOf(in, s.line));
            Value v;
            v.kind = Value::Kind::Literal;
            v.literal = Arg::ofList(std::move(items), s.kind == "prim::ListConstruct" ? Arg::Kind::List : Arg::Kind::Tuple);
            v.line = s.line;
            define(s.outputs[0].name, std::move(v), s.line);
            return;
        }
        if (s.kind == "prim::TupleUnpack" || s.kind == "prim::ListUnpack") {
            if (s.inputs.size() != 1)
                fail(s.kind + " takes one input", s.line);
            const Value& in = lookup(s.inputs[0], s.line);
            if (in.kind == Value::Kind::Literal) {
                if (in.literal.items.size() != s.outputs.size() ||
                    (in.literal.kind != Arg::Kind::List && in.literal.kind != Arg::Kind::Tuple))
                    fail(s.kind + " of " + std::to_string(s.outputs.size()) + " values from %" + s.inputs[0] +
                             ", which holds " + std::to_string(in.literal.items.size()),
                         s.line);
                const std::vector<Arg> items = in.literal.items;
                for (std::size_t k = 0; k < items.size(); ++k) {
                    Value v;
                    v.kind = items[k].kind == Arg::Kind::Node ? Value::Kind::Node : Value::Kind::Literal;
                    v.node = items[k].node;
                    v.literal = items[k];
                    v.line = s.line;
                    define(s.outputs[k].name, std::move(v), s.line);
                }
                return;
            }
            const Arg a = argOf(s.inputs[0], s.line);
            unpack(s, a.node, stack);
            return;
        }
        if (s.kind == "prim::GetAttr") {
            expectOutputs(s, 1);
            if (s.inputs.size() != 1 || lookup(s.inputs[0], s.line).kind != Value::Kind::Module)
                fail("prim::GetAttr on a value that is not the graph's module or one of its submodules", s.line);
            const std::string base = lookup(s.inputs[0], s.line).path;
            const std::string path = (base.empty() ? "" : base + ".") + attribute(s, "name");
            const TsValue& o = s.outputs[0];
            if (isTorchScriptClassType(o.type)) {
                Value v;
                v.kind = Value::Kind::Module;
                v.path = path;
                v.line = s.line;
                define(o.name, std::move(v), s.line);
                return;
            }
            Node n = getAttrNode(o, path, path, s.line);
            n.stack = stack;
            defineNode(o.name, add(std::move(n)), s.line);
            return;
        }
        Node n;
        n.line = s.line;
        n.stack = stack;
        if (s.kind == "prim::CallMethod") {
            n.kind = NodeKind::CallMethod;
            n.target.kind = Target::Kind::Method;
            n.target.op = attribute(s, "name");
            if (s.inputs.empty())
                fail("prim::CallMethod without the object it calls", s.line);
        } else {
            n.kind = NodeKind::CallFunction;
            n.target.kind = Target::Kind::Op;
            n.target.ns = s.kind.substr(0, sep);
            n.target.op = s.kind.substr(sep + 2);
            n.target.overload = s.overload;
        }
        for (std::size_t k = 0; k < s.inputs.size(); ++k) {
            if (k < s.keywords.size() && !s.keywords[k].empty())
                n.kwargs.emplace_back(s.keywords[k], argOf(s.inputs[k], s.line));
            else if (!n.kwargs.empty())
                fail("positional input %" + s.inputs[k] + " after a keyword-only one", s.line);
            else
                n.args.push_back(argOf(s.inputs[k], s.line));
        }
        const bool single = s.outputs.size() == 1;
        const std::string wanted = single && !NodeNamer::isAnonymous(s.outputs[0].name) ? s.outputs[0].name
                                   : n.kind == NodeKind::CallMethod ? n.target.op
                                                                    : opName(s.kind);
        n.name = m_namer.unique(wanted);
        if (single)
            n.meta = torchScriptTypeMeta(s.outputs[0].type, where(s.line, n.name));
        const int index = add(std::move(n));
        if (single)
            defineNode(s.outputs[0].name, index, s.line);
        else if (s.outputs.size() > 1)
            unpack(s, index, stack);
    }

    const TsGraph& m_ts;
    Graph m_graph;
    NodeNamer m_namer;
    std::unordered_map<std::string, Value> m_values;
    std::unordered_map<std::string, int> m_moduleNodes;
    std::unordered_map<std::string, int> m_stackIds;
    int m_tensorConstants = 0;
};

}  // namespace

Graph buildTorchScriptGraph(const TsGraph& ts)
{
    return Builder(ts).build();
}

}  // namespace fxray::graph
