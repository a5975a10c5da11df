#include "io/seed_writer.h"

#include "base/error.h"
#include "graph/printer.h"
#include "io/text_file.h"

#include <cstdint>
#include <filesystem>

namespace fxray::io {
namespace {

namespace fs = std::filesystem;

// Pickle opcodes (protocol 2 subset).
constexpr char PROTO = '\x80', STOP = '.', MARK = '(', TUPLE = 't', TUPLE1 = '\x85', EMPTY_LIST = ']', APPENDS = 'e',
               GLOBAL = 'c', REDUCE = 'R', BININT = 'J', LONG1 = '\x8a', BINUNICODE = 'X', BINFLOAT = 'G';

class PickleOut {
public:
    void op(char c) { m_out += c; }
    void global(std::string_view module, std::string_view name)
    {
        op(GLOBAL);
        m_out.append(module).append("\n").append(name).append("\n");
    }
    void integer(std::int64_t v)
    {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            op(BININT);
            raw(static_cast<std::uint64_t>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v))), 4);
            return;
        }
        op(LONG1);  // two's complement, little endian, 8 bytes
        m_out += '\x08';
        raw(static_cast<std::uint64_t>(v), 8);
    }
    void real(double v)
    {
        op(BINFLOAT);  // big endian IEEE double
        std::uint64_t bits;
        static_assert(sizeof bits == sizeof v);
        __builtin_memcpy(&bits, &v, sizeof v);
        for (int k = 7; k >= 0; --k)
            m_out += static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    void string(std::string_view s)
    {
        op(BINUNICODE);
        raw(s.size(), 4);
        m_out.append(s);
    }
    void dim(const graph::SymDim& d)
    {
        if (d.isConstant())
            integer(*d.value);
        else
            string(d.expr);
    }
    std::string take() { return std::move(m_out); }

private:
    void raw(std::uint64_t v, int bytes)
    {
        for (int k = 0; k < bytes; ++k)
            m_out += static_cast<char>((v >> (8 * k)) & 0xff);
    }
    std::string m_out;
};

}  // namespace

std::string serializeInputPickle(const std::vector<graph::ValueMeta>& metas)
{
    PickleOut p;
    p.op(PROTO);
    p.op('\x02');
    p.op(EMPTY_LIST);
    p.op(MARK);
    for (const graph::ValueMeta& m : metas) {
        p.op(MARK);
        switch (m.kind) {
        case graph::ValueMeta::Kind::Tensor: {
            const graph::TensorMeta& t = m.tensor;
            p.global("torch", "Tensor");
            p.global("torch", "Size");  // torch.Size((d0, ...))
            p.op(MARK);
            for (const auto& d : t.sizes)
                p.dim(d);
            p.op(TUPLE);
            p.op(TUPLE1);
            p.op(REDUCE);
            p.op(MARK);
            const auto strides = t.strides ? t.strides : graph::contiguousStrides(t.sizes);
            if (strides)
                for (const auto& d : *strides)
                    p.dim(d);
            p.op(TUPLE);
            p.global("torch", graph::dtypeTorchName(t.dtype));
            p.global("torch", "device");
            p.op(MARK);
            const graph::Device dev = t.device.value_or(graph::Device{});
            p.string(dev.type);
            if (dev.index >= 0)
                p.integer(dev.index);
            p.op(TUPLE);
            p.op(REDUCE);
            break;
        }
        case graph::ValueMeta::Kind::Float:
        case graph::ValueMeta::Kind::SymFloat:
            p.global("builtins", "float");
            if (!m.symExpr.empty()) {
                try {
                    p.real(std::stod(m.symExpr));
                } catch (const std::exception&) {
                }
            }
            break;
        case graph::ValueMeta::Kind::None:
        case graph::ValueMeta::Kind::SymBool:
        case graph::ValueMeta::Kind::Int:
        case graph::ValueMeta::Kind::SymInt:
            p.global("builtins", "int");
            if (!m.symExpr.empty() && m.symExpr.find_first_not_of("-0123456789") == std::string::npos) {
                try {
                    p.integer(std::stoll(m.symExpr));
                } catch (const std::exception&) {
                }
            }
            break;
        }
        p.op(TUPLE);
    }
    p.op(APPENDS);
    p.op(STOP);
    return p.take();
}

std::string writeSeedDump(const LoadedGraph& g, const std::string& dir, const std::string& folder)
{
    std::vector<graph::ValueMeta> metas;
    for (const InputSpec& s : g.inputs) {
        if (!s.meta)
            throw Error("input '" + s.name + "' has no metadata: the seed layout cannot record it", fileLocation(dir));
        metas.push_back(*s.meta);
    }
    const fs::path out = fs::path(dir) / folder;
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec)
        throw Error("cannot create the folder: " + ec.message(), fileLocation(out.string()));
    // module.py is Python that functorch's loader imports: its class is FxModule, as to_folder writes it (the
    // readable file keeps print_readable's name, which may be `<lambda>`).
    graph::Graph asModule = g.graph;
    asModule.className = "FxModule";
    writeTextFile((out / "module.py").string(), graph::printFxModule(asModule));
    writeTextFile((out / "__init__.py").string(), "from .module import *\n");
    writeTextFile((out / (folder + ".readable.py")).string(), graph::printReadable(g.graph));
    writeTextFile((out / (folder + ".input")).string(), serializeInputPickle(metas));
    if (!g.stateDictPath.empty() && fs::exists(g.stateDictPath, ec)) {
        fs::copy_file(g.stateDictPath, out / "state_dict.pt", fs::copy_options::overwrite_existing, ec);
        if (ec)
            throw Error("cannot copy state_dict.pt: " + ec.message(), fileLocation(g.stateDictPath));
    }
    return out.string();
}

}  // namespace fxray::io
