#include "graph/graph.h"

namespace fxray::graph {

bool Arg::operator==(const Arg& o) const
{
    if (kind != o.kind)
        return false;
    switch (kind) {
    case Kind::None: return true;
    case Kind::Bool: return b == o.b;
    case Kind::Int: return i == o.i;
    case Kind::Float: return f == o.f || (f != f && o.f != o.f);  // nan == nan for graph equality
    case Kind::Complex:
        return (f == o.f || (f != f && o.f != o.f)) && (imag == o.imag || (imag != imag && o.imag != o.imag));
    case Kind::Ellipsis: return true;
    case Kind::String:
    case Kind::Layout:
    case Kind::MemoryFormat:
    case Kind::Op: return s == o.s;
    case Kind::DType: return dtype == o.dtype;
    case Kind::Device: return device == o.device;
    case Kind::Slice:
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict: return items == o.items;
    case Kind::Node: return node == o.node;
    }
    return false;
}

std::string Target::str() const
{
    switch (kind) {
    case Kind::None: return "";
    case Kind::Op: return overload.empty() ? ns + "." + op : ns + "." + op + "." + overload;
    case Kind::Getitem: return "getitem";
    case Kind::Operator: return "operator." + op;
    case Kind::Python: return op;
    case Kind::Method: return "method " + op;
    }
    return "";
}

int Graph::findNode(const std::string& name) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::string Graph::freeOutputName() const
{
    std::string name = "output";
    for (int k = 1; findNode(name) >= 0; ++k)
        name = "output_" + std::to_string(k);
    return name;
}

int Graph::outputNode() const
{
    for (std::size_t i = nodes.size(); i-- > 0;)
        if (nodes[i].kind == NodeKind::Output)
            return static_cast<int>(i);
    return -1;
}

std::vector<int> Graph::placeholders() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].kind == NodeKind::Placeholder)
            out.push_back(static_cast<int>(i));
    return out;
}

std::size_t Graph::opCount() const
{
    std::size_t n = 0;
    for (const Node& node : nodes)
        n += node.kind == NodeKind::CallFunction || node.kind == NodeKind::CallMethod;
    return n;
}

std::string_view nodeKindName(NodeKind k)
{
    switch (k) {
    case NodeKind::Placeholder: return "placeholder";
    case NodeKind::CallFunction: return "call_function";
    case NodeKind::CallMethod: return "call_method";
    case NodeKind::GetAttr: return "get_attr";
    case NodeKind::Output: return "output";
    }
    return "";
}

}  // namespace fxray::graph
