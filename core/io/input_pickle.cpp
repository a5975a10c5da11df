#include "io/input_pickle.h"

#include "base/error.h"
#include "io/pickle.h"

#include <charconv>

namespace fxray::io {
namespace {

class InputReader {
public:
    explicit InputReader(const Pickle& p) : m_p(p) {}

    std::vector<graph::ValueMeta> read()
    {
        const PickleValue& root = m_p.root();
        if (root.kind != PickleKind::List && root.kind != PickleKind::Tuple)
            throw Error(".input must hold a list, found " + m_p.describe(m_p.rootId()),
                        SourceLocation{m_p.fileName(), 0, 0, {}});
        std::vector<graph::ValueMeta> out;
        out.reserve(root.items.size());
        for (std::size_t i = 0; i < root.items.size(); ++i) {
            m_entry = i;
            m_entryId = root.items[i];
            out.push_back(entry(root.items[i]));
        }
        return out;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error("input entry " + std::to_string(m_entry) + ": " + what + " in " + m_p.describe(m_entryId),
                    SourceLocation{m_p.fileName(), 0, 0, {}});
    }

    const PickleValue& at(PickleId id) const { return m_p[id]; }

    bool isGlobal(PickleId id, std::string_view qualified) const
    {
        return at(id).kind == PickleKind::Global && at(id).qualifiedName() == qualified;
    }

    const std::vector<PickleId>& sequence(PickleId id, const char* what) const
    {
        if (at(id).kind != PickleKind::Tuple && at(id).kind != PickleKind::List)
            fail(std::string(what) + " is not a tuple");
        return at(id).items;
    }

    std::vector<graph::SymDim> dims(PickleId id, const char* what) const
    {
        PickleId seq = id;
        const PickleValue& v = at(id);
        if (v.kind == PickleKind::Call && isGlobal(v.callee, "torch.Size")) {
            const auto& a = sequence(v.args, what);
            if (a.size() != 1)
                fail(std::string(what) + ": torch.Size takes one tuple");
            seq = a[0];
        }
        std::vector<graph::SymDim> out;
        for (const PickleId d : sequence(seq, what)) {
            const PickleValue& dv = at(d);
            if (dv.kind == PickleKind::Int)
                out.push_back(graph::SymDim::constant(dv.integer));
            else if (dv.kind == PickleKind::String && !dv.text.empty())
                out.push_back(graph::SymDim::symbolic(dv.text));
            else
                fail(std::string(what) + " has an element that is not an int");
        }
        return out;
    }

    graph::Device device(PickleId id) const
    {
        graph::Device d;
        const PickleValue& v = at(id);
        std::string text;
        if (v.kind == PickleKind::String) {
            text = v.text;
        } else if (v.kind == PickleKind::Call && isGlobal(v.callee, "torch.device")) {
            const auto& a = sequence(v.args, "device arguments");
            if (a.empty() || a.size() > 2 || at(a[0]).kind != PickleKind::String)
                fail("unsupported torch.device arguments");
            text = at(a[0]).text;
            if (a.size() == 2 && at(a[1]).kind != PickleKind::None) {
                if (at(a[1]).kind != PickleKind::Int)
                    fail("device index is not an int");
                text += ":" + std::to_string(at(a[1]).integer);
            }
        } else {
            fail("device is not a torch.device");
        }
        const auto colon = text.find(':');
        d.type = text.substr(0, colon);
        if (colon != std::string::npos) {
            const char* b = text.data() + colon + 1;
            const char* e = text.data() + text.size();
            const auto [p, ec] = std::from_chars(b, e, d.index);
            if (ec != std::errc() || p != e || d.index < 0)
                fail("bad device '" + text + "'");
        }
        if (d.type.empty())
            fail("empty device type");
        return d;
    }

    graph::ValueMeta entry(PickleId id) const
    {
        const PickleValue& v = at(id);
        if (v.kind != PickleKind::Tuple || v.items.empty())
            fail("unsupported entry");
        const auto& it = v.items;
        graph::ValueMeta m;
        const PickleId cls = it[0];
        if (it.size() == 5
            && (isGlobal(cls, "torch._subclasses.fake_tensor.FakeTensor") || isGlobal(cls, "torch.Tensor")
                || isGlobal(cls, "torch.nn.parameter.Parameter"))) {
            graph::TensorMeta t;
            t.sizes = dims(it[1], "size");
            t.strides = dims(it[2], "stride");
            if (t.strides->size() != t.sizes.size())
                fail(std::to_string(t.sizes.size()) + " sizes but " + std::to_string(t.strides->size()) + " strides");
            const PickleValue& dt = at(it[3]);
            if (dt.kind != PickleKind::Global || dt.text != "torch")
                fail("dtype is not a torch dtype");
            const auto parsed = graph::dtypeFromTorchName(dt.name);
            if (!parsed)
                fail("unsupported dtype torch." + dt.name);
            t.dtype = *parsed;
            t.device = device(it[4]);
            return graph::ValueMeta::ofTensor(std::move(t));
        }
        const bool isInt = isGlobal(cls, "builtins.int");
        const bool isFloat = isGlobal(cls, "builtins.float");
        if (it.size() == 1 && (isInt || isFloat)) {
            m.kind = isInt ? graph::ValueMeta::Kind::Int : graph::ValueMeta::Kind::Float;
            return m;
        }
        if (it.size() == 2 && isInt && at(it[1]).kind == PickleKind::Int) {
            m.kind = graph::ValueMeta::Kind::SymInt;
            m.symExpr = std::to_string(at(it[1]).integer);
            return m;
        }
        if (it.size() == 2 && isFloat && (at(it[1]).kind == PickleKind::Float || at(it[1]).kind == PickleKind::Int)) {
            m.kind = graph::ValueMeta::Kind::SymFloat;
            m.symExpr = at(it[1]).kind == PickleKind::Float ? pythonFloatRepr(at(it[1]).real)
                                                            : std::to_string(at(it[1]).integer);
            return m;
        }
        // A generator input (AOTAutograd's rng_state of graphsafe_run_with_rng_state): metadata of no kind; the
        // graph's use of it makes it a generator (io/graph_inputs.h).
        if (it.size() == 2 && isGlobal(cls, "torch._C.Generator") && at(it[1]).kind == PickleKind::String)
            return m;
        if (it.size() == 1 && (isGlobal(cls, "torch.SymInt") || isGlobal(cls, "torch.SymFloat"))) {
            m.kind = isGlobal(cls, "torch.SymInt") ? graph::ValueMeta::Kind::SymInt : graph::ValueMeta::Kind::SymFloat;
            return m;
        }
        fail("unsupported entry");
    }

    const Pickle& m_p;
    std::size_t m_entry = 0;
    PickleId m_entryId = 0;
};

}  // namespace

std::vector<graph::ValueMeta> parseInputPickle(std::string_view data, const std::string& fileName)
{
    const Pickle p = parsePickle(data, fileName);
    return InputReader(p).read();
}

std::vector<graph::ValueMeta> readInputPickle(const std::string& path)
{
    const Pickle p = readPickleFile(path);
    return InputReader(p).read();
}

}  // namespace fxray::io
