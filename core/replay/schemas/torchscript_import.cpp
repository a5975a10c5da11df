#include "replay/schemas/torchscript_import.h"

#include "base/error.h"
#include "graph/torchscript_graph.h"
#include "graph/torchscript_parser.h"
#include "replay/values/torch_types.h"

#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/ir/irparser.h>

#include <sstream>
#include <unordered_map>

namespace fxray::replay {
namespace {

std::string typeText(const c10::TypePtr& type)
{
    std::ostringstream os;
    os << *type;  // the form the IR printer writes: Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)
    return os.str();
}

graph::Arg literal(const c10::IValue& v, const std::string& fileName)
{
    using graph::Arg;
    if (v.isNone())
        return Arg::none();
    if (v.isBool())
        return Arg::ofBool(v.toBool());
    if (v.isInt())
        return Arg::ofInt(v.toInt());
    if (v.isDouble())
        return Arg::ofFloat(v.toDouble());
    if (v.isString())
        return Arg::ofString(v.toStringRef());
    if (v.isDevice()) {
        Arg a;
        a.kind = Arg::Kind::Device;
        a.device.type = c10::DeviceTypeName(v.toDevice().type(), /*lower_case=*/true);
        a.device.index = v.toDevice().has_index() ? v.toDevice().index() : -1;
        return a;
    }
    if (v.isList()) {
        std::vector<Arg> items;
        for (const c10::IValue& item : v.toListRef())
            items.push_back(literal(item, fileName));
        return Arg::ofList(std::move(items));
    }
    if (v.isTuple()) {
        std::vector<Arg> items;
        for (const c10::IValue& item : v.toTupleRef().elements())
            items.push_back(literal(item, fileName));
        return Arg::ofList(std::move(items), Arg::Kind::Tuple);
    }
    throw Error("unsupported constant of type " + v.tagKind(), fileLocation(fileName));
}

// parseIR cannot read some of what torch.jit itself prints: node scopes (below), and types: module classes (it would need their compilation
// unit) and NamedTuple(...) (LTC's backend output). Neither matters to fxray's graph beyond "a module" / "not a
// tensor", so such values are declared Any for parseIR and their printed types restored after the walk.
std::string readableByParseIR(const std::string& text, const std::string& fileName,
                              std::unordered_map<std::string, std::string>& replaced)
{
    const graph::TsGraph ts = graph::readTorchScript(text, fileName);
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    auto patch = [&](const graph::TsValue& v) {
        if (!v.type.starts_with("__torch__.") && !v.type.starts_with("NamedTuple("))
            return;
        if (v.line <= 0 || static_cast<std::size_t>(v.line) > lines.size())
            return;
        std::string& line = lines[static_cast<std::size_t>(v.line - 1)];
        const std::string decl = "%" + v.name + " : " + v.type;
        const std::size_t at = line.find(decl);
        if (at == std::string::npos)
            return;
        line.replace(at, decl.size(), "%" + v.name + " : Any");
        replaced.emplace(v.name, v.type);
    };
    for (const graph::TsValue& v : ts.inputs)
        patch(v);
    for (const graph::TsStatement& st : ts.statements)
        for (const graph::TsValue& v : st.outputs)
            patch(v);
    std::string out;
    for (std::string& line : lines) {
        // Traced graphs' ", scope: __module.conv" after a node's inputs is printed but not parsed by parseIR.
        if (const std::size_t scope = line.find("), scope: "); scope != std::string::npos) {
            const std::size_t comment = line.find(" #", scope);
            line.erase(scope + 1, comment == std::string::npos ? std::string::npos : comment - scope - 1);
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace

graph::Graph importTorchScript(const std::string& text, const std::string& fileName)
{
    auto g = std::make_shared<torch::jit::Graph>();
    std::unordered_map<std::string, torch::jit::Value*> byName;
    std::unordered_map<std::string, std::string> replacedTypes;
    const std::string readable = readableByParseIR(text, fileName, replacedTypes);
    try {
        torch::jit::parseIR(readable, g.get(), byName, /*parse_tensor_constants=*/true);
    } catch (const std::exception& e) {
        throw Error("LibTorch's parseIR: " + detail::errorText(e), fileLocation(fileName));
    }
    // The text's names (parseIR renames numbered values), so the graph matches the one read from the text.
    std::unordered_map<const torch::jit::Value*, std::string> names;
    for (const auto& [name, value] : byName)
        names.emplace(value, name);
    auto nameOf = [&](const torch::jit::Value* v) {
        auto it = names.find(v);
        return it != names.end() ? it->second : v->debugName();
    };
    auto typeOf = [&](const torch::jit::Value* v) {
        auto it = replacedTypes.find(nameOf(v));
        return it != replacedTypes.end() ? it->second : typeText(v->type());
    };
    graph::TsGraph ts;
    ts.fileName = fileName;
    for (const torch::jit::Value* in : g->inputs())
        ts.inputs.push_back({nameOf(in), typeOf(in), 0});
    for (const torch::jit::Node* node : g->nodes()) {
        graph::TsStatement s;
        s.kind = node->kind().toQualString();
        for (const torch::jit::Value* out : node->outputs())
            s.outputs.push_back({nameOf(out), typeOf(out), 0});
        for (const torch::jit::Value* in : node->inputs())
            s.inputs.push_back(nameOf(in));
        s.hasBlocks = !node->blocks().empty();
        if (node->kind() == c10::prim::Constant) {
            if (node->output()->type()->kind() == c10::TypeKind::TensorType)
                s.tensorConstant = true;
            else if (auto v = torch::jit::toIValue(node->output()))
                s.constant = literal(*v, fileName);
            else
                throw Error("constant " + nameOf(node->output()) + " has no value", fileLocation(fileName));
        } else {
            for (const c10::Symbol& a : node->attributeNames())
                if (node->kindOf(a) == torch::jit::AttributeKind::s)
                    s.attributes.emplace_back(a.toUnqualString(), node->s(a));
        }
        if (const c10::FunctionSchema* schema = node->maybeSchema()) {
            s.overload = schema->overload_name().empty() ? "default" : schema->overload_name();
            const auto& formals = schema->arguments();
            if (!schema->is_vararg() && formals.size() >= s.inputs.size())
                for (std::size_t k = 0; k < s.inputs.size(); ++k)
                    s.keywords.push_back(formals[k].kwarg_only() ? formals[k].name() : std::string());
        }
        ts.statements.push_back(std::move(s));
    }
    for (const torch::jit::Value* r : g->outputs())
        ts.returns.push_back(nameOf(r));
    return graph::buildTorchScriptGraph(ts);
}

}  // namespace fxray::replay
