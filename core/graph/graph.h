#pragma once
// fxray's graph IR: the FX graph as dumped, with recorded metadata, source locations and frees.
// Plain C++: no LibTorch, no Qt. Nodes are stored in program order; an argument refers to a node by index.
#include "graph/tensor_meta.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fxray::graph {

// An argument value: every literal form FX prints, nested lists/tuples, and references to nodes.
struct Arg {
    enum class Kind {
        None, Bool, Int, Float, String,
        DType, Layout, MemoryFormat, Device,  // torch.float32, torch.strided, torch.channels_last, device(...)
        Slice,                                // slice(a, b, c): items holds the three parts
        List, Tuple,
        Node,                                 // reference to graph node `node`
        Ellipsis,                             // `Ellipsis` (FX's repr of `...`, in dynamo-level indexing)
        Dict,                                 // {k: v, ...}: items holds keys and values alternately
        Complex,                              // 1j, (1+2j): f is the real part, imag the imaginary part
        Op,                                   // an operator passed as a value (activation checkpointing's
                                              // run_and_save_rng_state(torch.ops.aten.native_dropout.default, ...)):
                                              // s holds "aten.native_dropout.default" (without "torch.ops.")
    };
    Kind kind = Kind::None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0.0;
    double imag = 0.0;     // Complex
    std::string s;         // String; Layout / MemoryFormat name ("strided", "channels_last"); Op: dotted name
    graph::DType dtype{};  // DType
    graph::Device device;  // Device
    std::vector<Arg> items;  // List / Tuple / Slice / Dict (k0, v0, k1, v1, ...)
    int node = -1;           // Node: index into Graph::nodes

    static Arg none() { return Arg{}; }
    static Arg ofBool(bool v) { Arg a; a.kind = Kind::Bool; a.b = v; return a; }
    static Arg ofInt(std::int64_t v) { Arg a; a.kind = Kind::Int; a.i = v; return a; }
    static Arg ofFloat(double v) { Arg a; a.kind = Kind::Float; a.f = v; return a; }
    static Arg ofString(std::string v) { Arg a; a.kind = Kind::String; a.s = std::move(v); return a; }
    static Arg ofNode(int index) { Arg a; a.kind = Kind::Node; a.node = index; return a; }
    static Arg ofList(std::vector<Arg> v, Kind k = Kind::List) { Arg a; a.kind = k; a.items = std::move(v); return a; }

    // Equality compares node references by index (same graph or index-aligned graphs).
    bool operator==(const Arg& o) const;
};

enum class NodeKind { Placeholder, CallFunction, CallMethod, GetAttr, Output };

// What a call_function node calls.
struct Target {
    enum class Kind {
        None,       // placeholders, get_attr, output
        Op,         // torch.ops.<ns>.<op>.<overload>
        Getitem,    // x[i] / operator.getitem
        Operator,   // python operator on SymInts: op is "add", "sub", "mul", "floordiv", "mod", "pow", "truediv",
                    // "neg", "eq", "ne", "lt", "le", "gt", "ge", "and_", "or_"; in dynamo-level graphs also the
                    // in-place forms FX prints as statements: "iadd" ... (`a += b;  n = a`) and "setitem"
                    // (`a[i] = v;  n = a`, args a, i, v)
        Python,     // any other python callable (dynamo-level graphs): op holds the dotted name
        Method,     // call_method: op holds the method name
    };
    Kind kind = Kind::None;
    std::string ns;        // Op: "aten", "prims", ...
    std::string op;        // Op: "mm"; Operator: "mul"; Python: "torch._C._nn.linear"; Method: "view"
    std::string overload;  // Op: "default" or "Tensor", "dim_IntList", ...

    // "aten.mm.default", "getitem", "operator.mul", "torch._C._nn.linear", "method view"
    std::string str() const;
    // Qualified operator name as the dispatcher knows it: "aten::mm" (Op only).
    std::string qualifiedName() const { return ns + "::" + op; }
    bool operator==(const Target& o) const = default;
};

// The "# File: path:line in fn, code: source" comment that precedes a group of nodes.
struct StackFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    std::string raw;  // the comment text without "# " (also for unrecognised forms)
    bool operator==(const StackFrame& o) const = default;
};

struct Node {
    std::string name;
    NodeKind kind = NodeKind::CallFunction;
    Target target;
    std::vector<Arg> args;
    std::vector<std::pair<std::string, Arg>> kwargs;
    std::optional<ValueMeta> meta;  // recorded annotation, when the dump had one
    std::string attr;               // GetAttr: attribute path ("_tensor_constant0"); Placeholder: python arg name
    std::string comment;            // trailing comment on a placeholder line ("PlainAOTInput(idx=0)")
    int stack = -1;                 // index into Graph::stacks; -1: none recorded
    std::vector<int> frees;         // nodes whose values die after this node ("; a = b = None")
    int line = 0;                   // 1-based line in Graph::sourceFile (0 when built in memory)

    bool isOp() const { return kind == NodeKind::CallFunction && target.kind == Target::Kind::Op; }
};

// How the forward's output is written: `return (a, b)`, `return [a, b]`, `return a`, or the pytree joint form.
enum class OutputForm { Tuple, List, Single, Pytree };  // Single: `return x`

struct Subgraph;

struct Graph {
    std::string className = "FxModule";  // class that held forward (FxModule, GraphModule, inner_f, Repro)
    std::vector<Node> nodes;              // program order; the output node is last
    std::vector<StackFrame> stacks;
    OutputForm outputForm = OutputForm::Tuple;
    std::vector<std::string> pytreeInputs;  // pytree joint form: forward(self, primals, tangents)
    // One per flattened output, the comment written after it ("PlainAOTOutput(idx=0)", AOTAutograd's output
    // descriptors); empty when the return line has none.
    std::vector<std::string> outputComments;
    std::string sourceFile;                 // where it was parsed from (for error messages)

    // Subgraphs of higher-order ops (nested classes in print_readable), by attribute name.
    std::vector<Subgraph> subgraphs;  // (a vector of an incomplete type is fine; Subgraph is defined below)

    int findNode(const std::string& name) const;  // -1 if absent
    int outputNode() const;                       // index of the output node, -1 if absent
    // The name FX gives an output node added now: "output", or "output_1", ... when a node holds that name (a
    // model's own variable called `output`, as in Gemma's dynamo graphs).
    std::string freeOutputName() const;
    std::vector<int> placeholders() const;
    std::size_t opCount() const;  // call_function + call_method nodes
};

struct Subgraph {
    std::string name;  // the attribute the parent refers to (self.<name>)
    Graph graph;
};

// Calls fn(index) for every node an argument (or a whole node's args and kwargs) refers to, in order.
void forEachNodeRef(const Arg& a, const auto& fn)
{
    if (a.kind == Arg::Kind::Node)
        fn(a.node);
    for (const Arg& item : a.items)
        forEachNodeRef(item, fn);
}
void forEachNodeRef(const Node& n, const auto& fn)
{
    for (const Arg& a : n.args)
        forEachNodeRef(a, fn);
    for (const auto& kv : n.kwargs)
        forEachNodeRef(kv.second, fn);
}

std::string_view nodeKindName(NodeKind k);  // "placeholder", "call_function", ...

}  // namespace fxray::graph
