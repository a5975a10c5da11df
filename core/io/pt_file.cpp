#include "io/pt_file.h"

#include "base/error.h"
#include "io/pickle.h"

#include <charconv>
#include <limits>
#include <optional>
#include <unordered_map>

namespace fxray::io {
namespace {

constexpr std::uint32_t kMaxDepth = 256;

struct StorageInfo {
    std::string key;         // as in the persistent id ("0")
    graph::DType dtype = graph::DType::UInt8;
    bool untyped = false;
    std::string location;
    std::int64_t numel = 0;  // elements of dtype (bytes when untyped)
    std::string_view bytes;  // the storage's bytes in the zip entry
};

std::optional<graph::DType> dtypeOfStorageClass(std::string_view name)
{
    using graph::DType;
    struct Entry { std::string_view name; DType type; };
    static constexpr Entry kMap[] = {
        {"DoubleStorage", DType::Float64}, {"FloatStorage", DType::Float32}, {"HalfStorage", DType::Float16},
        {"BFloat16Storage", DType::BFloat16}, {"LongStorage", DType::Int64}, {"IntStorage", DType::Int32},
        {"ShortStorage", DType::Int16}, {"CharStorage", DType::Int8}, {"ByteStorage", DType::UInt8},
        {"BoolStorage", DType::Bool}, {"ComplexDoubleStorage", DType::Complex128},
        {"ComplexFloatStorage", DType::Complex64},
    };
    for (const auto& e : kMap)
        if (e.name == name)
            return e.type;
    return std::nullopt;
}

class PtConverter {
public:
    PtConverter(const Pickle& pickle, std::shared_ptr<const ZipReader> archive, std::string prefix,
                std::string file)
        : m_p(pickle)
        , m_archive(std::move(archive))
        , m_prefix(std::move(prefix))
        , m_file(std::move(file))
        , m_onPath(pickle.size(), 0)
        , m_budget(4 * pickle.size() + 100000)
    {
    }

    PtValue convert(PickleId id, std::uint32_t depth)
    {
        if (depth > kMaxDepth)
            fail("value nested deeper than " + std::to_string(kMaxDepth) + " levels");
        if (m_budget-- == 0)
            fail("shared references in the pickle expand to too many values");
        if (m_onPath[id])
            fail("value contains itself (self-referencing pickle)");
        m_onPath[id] = 1;
        PtValue out = convertValue(id, depth);
        m_onPath[id] = 0;
        return out;
    }

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        std::string where;
        for (const auto& seg : m_path)
            where += seg;
        throw Error(where.empty() ? message : "at " + where + ": " + message, SourceLocation{m_file, 0, 0, {}});
    }

    const PickleValue& at(PickleId id) const { return m_p[id]; }
    std::string show(PickleId id) const { return m_p.describe(id, 120); }

    const std::vector<PickleId>& tupleItems(PickleId id, const char* what) const
    {
        const auto& v = at(id);
        if (v.kind != PickleKind::Tuple && v.kind != PickleKind::List)
            fail(std::string(what) + " must be a tuple, found " + show(id));
        return v.items;
    }

    std::int64_t intOf(PickleId id, const char* what) const
    {
        const auto& v = at(id);
        if (v.kind == PickleKind::Int)
            return v.integer;
        if (v.kind == PickleKind::Bool)
            return v.boolean ? 1 : 0;
        fail(std::string(what) + " must be an int, found " + show(id));
    }

    bool boolOf(PickleId id, const char* what) const
    {
        const auto& v = at(id);
        if (v.kind == PickleKind::Bool)
            return v.boolean;
        if (v.kind == PickleKind::Int)
            return v.integer != 0;
        fail(std::string(what) + " must be a bool, found " + show(id));
    }

    const std::string& stringOf(PickleId id, const char* what) const
    {
        const auto& v = at(id);
        if (v.kind != PickleKind::String)
            fail(std::string(what) + " must be a string, found " + show(id));
        return v.text;
    }

    // torch.Size((...)) or a plain tuple of ints.
    std::vector<std::int64_t> intList(PickleId id, const char* what) const
    {
        PickleId t = id;
        const auto& v = at(id);
        if (v.kind == PickleKind::Call && at(v.callee).kind == PickleKind::Global
            && at(v.callee).qualifiedName() == "torch.Size") {
            const auto& a = tupleItems(v.args, "torch.Size arguments");
            if (a.size() != 1)
                fail(std::string(what) + ": torch.Size takes one tuple, found " + show(id));
            t = a[0];
        }
        std::vector<std::int64_t> out;
        for (const PickleId item : tupleItems(t, what))
            out.push_back(intOf(item, what));
        return out;
    }

    static bool isGlobal(const PickleValue& v, std::string_view qualified)
    {
        return v.kind == PickleKind::Global && v.qualifiedName() == qualified;
    }

    PtValue convertValue(PickleId id, std::uint32_t depth)
    {
        const PickleValue& v = at(id);
        PtValue out;
        switch (v.kind) {
        case PickleKind::None: return out;
        case PickleKind::Bool: out.kind = PtValue::Kind::Bool; out.boolean = v.boolean; return out;
        case PickleKind::Int: out.kind = PtValue::Kind::Int; out.integer = v.integer; return out;
        case PickleKind::Float: out.kind = PtValue::Kind::Float; out.real = v.real; return out;
        case PickleKind::String: out.kind = PtValue::Kind::String; out.text = v.text; return out;
        case PickleKind::Bytes: out.kind = PtValue::Kind::Bytes; out.text = v.text; return out;
        case PickleKind::List:
        case PickleKind::Tuple:
            out.kind = v.kind == PickleKind::List ? PtValue::Kind::List : PtValue::Kind::Tuple;
            out.items.reserve(v.items.size());
            for (std::size_t i = 0; i < v.items.size(); ++i) {
                m_path.push_back("[" + std::to_string(i) + "]");
                out.items.push_back(convert(v.items[i], depth + 1));
                m_path.pop_back();
            }
            return out;
        case PickleKind::Dict:
            return convertDict(v.entries, depth);
        case PickleKind::Set:
            fail("sets are not supported in .pt files");
        case PickleKind::Global:
            // Bare torch constants: dtypes, layouts, memory formats.
            if (v.text == "torch" && !v.name.empty() && v.name[0] >= 'a' && v.name[0] <= 'z') {
                out.kind = PtValue::Kind::String;
                out.text = v.qualifiedName();
                return out;
            }
            fail("unsupported object " + show(id));
        case PickleKind::PersistentId:
            fail("storage outside a tensor: " + show(id));
        case PickleKind::Call:
            return convertCall(id, depth);
        }
        fail("unknown pickle value");
    }

    // get_tensor_metadata's dict: {"conj": bool, "neg": bool}, each present only when set; other keys are ignored
    // (nothing else changes how the bytes read).
    void readViewBits(PickleId metadata, TensorRecord& t) const
    {
        const PickleValue& m = at(metadata);
        if (m.kind == PickleKind::None)
            return;
        if (m.kind != PickleKind::Dict)
            fail("tensor metadata must be a dict, found " + show(metadata));
        for (const auto& [k, v] : m.entries) {
            const PickleValue& key = at(k);
            if (key.kind != PickleKind::String || (key.text != "conj" && key.text != "neg"))
                continue;
            (key.text == "conj" ? t.conj : t.neg) = boolOf(v, key.text == "conj" ? "tensor metadata conj" : "tensor metadata neg");
        }
    }

    PtValue convertDict(const std::vector<std::pair<PickleId, PickleId>>& entries, std::uint32_t depth)
    {
        PtValue out;
        out.kind = PtValue::Kind::Dict;
        // A repeated key replaces the value in the first key's place, as a Python dict does.
        std::unordered_map<std::string, std::size_t> seen;
        for (const auto& [k, val] : entries) {
            const auto& key = at(k);
            std::string tag;
            PtValue keyValue;
            if (key.kind == PickleKind::String) {
                tag = "s" + key.text;
                keyValue.kind = PtValue::Kind::String;
                keyValue.text = key.text;
            } else if (key.kind == PickleKind::Int) {
                tag = "i" + std::to_string(key.integer);
                keyValue.kind = PtValue::Kind::Int;
                keyValue.integer = key.integer;
            } else {
                fail("dict keys must be strings or ints, found " + show(k));
            }
            m_path.push_back("[" + show(k) + "]");
            PtValue value = convert(val, depth + 1);
            m_path.pop_back();
            const auto [it, fresh] = seen.emplace(tag, out.entries.size());
            if (fresh)
                out.entries.push_back(PtEntry{std::move(keyValue), std::move(value)});
            else
                out.entries[it->second].second = std::move(value);
        }
        return out;
    }

    PtValue convertCall(PickleId id, std::uint32_t depth)
    {
        const PickleValue& v = at(id);
        const PickleValue& callee = at(v.callee);
        if (callee.kind != PickleKind::Global)
            fail("unsupported object " + show(id));
        const std::string name = callee.qualifiedName();
        PtValue out;
        if (name == "collections.OrderedDict") {
            const auto& a = tupleItems(v.args, "OrderedDict arguments");
            if (!a.empty() || !v.items.empty())
                fail("unsupported OrderedDict construction " + show(id));
            return convertDict(v.entries, depth);
        }
        if (name == "torch.Size") {
            out.kind = PtValue::Kind::Tuple;
            for (const std::int64_t d : intList(id, "torch.Size")) {
                PtValue item;
                item.kind = PtValue::Kind::Int;
                item.integer = d;
                out.items.push_back(item);
            }
            return out;
        }
        if (name == "torch.device") {
            const auto& a = tupleItems(v.args, "torch.device arguments");
            if (a.empty() || a.size() > 2)
                fail("unsupported torch.device " + show(id));
            out.kind = PtValue::Kind::String;
            out.text = stringOf(a[0], "device type");
            if (a.size() == 2 && at(a[1]).kind != PickleKind::None)
                out.text += ":" + std::to_string(intOf(a[1], "device index"));
            return out;
        }
        out.kind = PtValue::Kind::Tensor;
        out.tensor = tensorOf(id);
        return out;
    }

    std::shared_ptr<const TensorRecord> tensorOf(PickleId id)
    {
        if (const auto it = m_tensors.find(id); it != m_tensors.end())
            return it->second;
        const PickleValue& v = at(id);
        if (v.kind != PickleKind::Call || at(v.callee).kind != PickleKind::Global)
            fail("expected a tensor, found " + show(id));
        auto record = rebuild(at(v.callee).qualifiedName(), v.args, id);
        m_tensors.emplace(id, record);
        return record;
    }

    std::shared_ptr<const TensorRecord> rebuild(const std::string& func, PickleId argsId, PickleId callId)
    {
        // A parameter or subclass wraps a plain tensor; wrapping deeper, or around itself, is not torch's doing.
        if (m_rebuildDepth >= 8)
            fail("tensor wrapped too deeply (self-referencing pickle?)");
        ++m_rebuildDepth;
        auto record = rebuildCall(func, argsId, callId);
        --m_rebuildDepth;
        return record;
    }

    std::shared_ptr<const TensorRecord> rebuildCall(const std::string& func, PickleId argsId, PickleId callId)
    {
        const auto& a = tupleItems(argsId, "tensor arguments");
        if (func == "torch._utils._rebuild_parameter" || func == "torch._utils._rebuild_parameter_with_state") {
            if (a.size() < 2)
                fail("too few arguments for " + func);
            auto param = std::make_shared<TensorRecord>(*tensorOf(a[0]));
            param->requiresGrad = boolOf(a[1], "requires_grad");
            param->isParameter = true;
            return param;
        }
        if (func == "torch._tensor._rebuild_from_type_v2") {
            // (func, type, args, state): a tensor subclass around a plain rebuild.
            if (a.size() < 3 || at(a[0]).kind != PickleKind::Global)
                fail("unsupported tensor " + show(callId));
            const auto& type = at(a[1]);
            auto inner = rebuild(at(a[0]).qualifiedName(), a[2], callId);
            if (isGlobal(type, "torch.nn.parameter.Parameter")) {
                auto param = std::make_shared<TensorRecord>(*inner);
                param->isParameter = true;
                return param;
            }
            if (!isGlobal(type, "torch.Tensor"))
                fail("unsupported tensor subclass " + show(a[1]));
            return inner;
        }
        const bool v2 = func == "torch._utils._rebuild_tensor_v2";
        const bool v3 = func == "torch._utils._rebuild_tensor_v3";
        if (!v2 && !v3)
            fail("unsupported object " + show(callId));
        // v2: (storage, offset, size, stride, requires_grad, hooks[, metadata])
        // v3: (storage, offset, size, stride, requires_grad, hooks, dtype[, metadata])
        if (a.size() < (v3 ? 7u : 6u))
            fail("too few arguments for " + func + ": " + show(callId));
        auto t = std::make_shared<TensorRecord>();
        const auto& storageRef = at(a[0]);
        if (storageRef.kind != PickleKind::PersistentId)
            fail("tensor storage must be a persistent id, found " + show(a[0]));
        const StorageInfo& storage = storageOf(storageRef.args);
        t->storageOffset = intOf(a[1], "storage offset");
        t->sizes = intList(a[2], "tensor size");
        t->strides = intList(a[3], "tensor stride");
        t->requiresGrad = boolOf(a[4], "requires_grad");
        if (a.size() > (v3 ? 7u : 6u))
            readViewBits(a[v3 ? 7 : 6], *t);
        t->location = storage.location;
        t->archive = m_archive;
        t->storageKey = storage.key;
        if (v3) {
            const auto& d = at(a[6]);
            if (d.kind != PickleKind::Global || d.text != "torch")
                fail("tensor dtype must be a torch dtype, found " + show(a[6]));
            const auto dt = graph::dtypeFromTorchName(d.name);
            if (!dt)
                fail("dtype torch." + d.name + " is not supported");
            t->dtype = *dt;
        } else {
            t->dtype = storage.dtype;
        }
        const std::int64_t item = graph::dtypeItemSize(t->dtype);
        const std::int64_t storageBytes = storage.untyped ? storage.numel
                                                          : storage.numel * graph::dtypeItemSize(storage.dtype);
        t->storageNumel = storageBytes / item;
        t->data = storage.bytes.substr(0, static_cast<std::size_t>(t->storageNumel * item));
        checkFits(*t);
        return t;
    }

    void checkFits(const TensorRecord& t) const
    {
        if (t.sizes.size() != t.strides.size())
            fail("tensor has " + std::to_string(t.sizes.size()) + " sizes but " + std::to_string(t.strides.size())
                 + " strides");
        if (t.storageOffset < 0)
            fail("negative storage offset");
        bool empty = false;
        std::int64_t last = t.storageOffset;  // highest element index the tensor touches
        for (std::size_t i = 0; i < t.sizes.size(); ++i) {
            if (t.sizes[i] < 0 || t.strides[i] < 0)
                fail("negative size or stride in tensor of size " + dims(t.sizes));
            if (t.sizes[i] == 0)
                empty = true;
        }
        if (!empty) {
            std::int64_t numel = 1;
            for (const auto size : t.sizes)
                if (__builtin_mul_overflow(numel, size, &numel))
                    fail("tensor of size " + dims(t.sizes) + " has too many elements");
            for (std::size_t i = 0; i < t.sizes.size(); ++i) {
                std::int64_t span = 0;
                if (__builtin_mul_overflow(t.sizes[i] - 1, t.strides[i], &span)
                    || __builtin_add_overflow(last, span, &last))
                    fail("tensor of size " + dims(t.sizes) + " overflows 64-bit indexing");
            }
        }
        const bool fitsStorage = empty ? t.storageOffset <= t.storageNumel : last < t.storageNumel;
        if (!fitsStorage)
            fail("storage '" + m_prefix + "/data/" + t.storageKey + "' holds " + std::to_string(t.storageNumel)
                 + " elements but the tensor"
                 + " of size " + dims(t.sizes) + ", stride " + dims(t.strides) + ", offset "
                 + std::to_string(t.storageOffset) + " needs " + std::to_string(empty ? t.storageOffset : last + 1));
    }

    static std::string dims(const std::vector<std::int64_t>& v)
    {
        std::string s = "[";
        for (std::size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + std::to_string(v[i]);
        return s + "]";
    }

    // ('storage', storage class, key, location, numel)
    const StorageInfo& storageOf(PickleId pid)
    {
        const auto& p = at(pid);
        if (p.kind != PickleKind::Tuple || p.items.size() != 5 || at(p.items[0]).kind != PickleKind::String
            || at(p.items[0]).text != "storage")
            fail("unsupported persistent id " + show(pid));
        const auto& cls = at(p.items[1]);
        const std::string& key = stringOf(p.items[2], "storage key");
        const std::string& location = stringOf(p.items[3], "storage location");
        const std::int64_t numel = intOf(p.items[4], "storage size");
        const std::string entryName = m_prefix + "/data/" + key;
        if (numel < 0)
            fail("storage '" + entryName + "' has a negative size");
        StorageInfo info;
        const std::string clsName = cls.kind == PickleKind::Global ? cls.qualifiedName() : std::string();
        if (clsName == "torch.UntypedStorage" || clsName == "torch.storage.UntypedStorage") {
            info.untyped = true;
        } else if (cls.kind == PickleKind::Global && cls.text == "torch") {
            const auto dt = dtypeOfStorageClass(cls.name);
            if (!dt)
                fail("unsupported storage type torch." + cls.name + " (quantized storages are not supported)");
            info.dtype = *dt;
        } else {
            fail("unsupported storage type " + show(p.items[1]));
        }
        info.key = key;
        info.location = location;
        info.numel = numel;

        if (const auto it = m_storages.find(key); it != m_storages.end()) {
            if (it->second.untyped != info.untyped || it->second.dtype != info.dtype || it->second.numel != info.numel)
                fail("storage '" + entryName + "' is used with different types or sizes");
            return it->second;
        }
        const std::int64_t item = info.untyped ? 1 : graph::dtypeItemSize(info.dtype);
        std::int64_t needed = 0;
        if (__builtin_mul_overflow(numel, item, &needed))
            fail("storage '" + entryName + "' size overflows");
        const ZipEntry* entry = m_archive->find(entryName);
        if (!entry) {
            if (needed != 0)
                fail("storage '" + entryName + "' is missing from the archive");
        } else {
            info.bytes = m_archive->read(*entry);
            if (static_cast<std::uint64_t>(needed) > info.bytes.size())
                fail("storage '" + entryName + "' holds " + std::to_string(info.bytes.size())
                     + " bytes but declares " + std::to_string(numel) + " elements (" + std::to_string(needed)
                     + " bytes)");
        }
        info.bytes = info.bytes.substr(0, static_cast<std::size_t>(needed));
        return m_storages.emplace(key, std::move(info)).first->second;
    }

    const Pickle& m_p;
    std::shared_ptr<const ZipReader> m_archive;
    std::string m_prefix;
    std::string m_file;
    std::vector<char> m_onPath;
    std::size_t m_budget;
    std::vector<std::string> m_path;
    int m_rebuildDepth = 0;
    std::unordered_map<PickleId, std::shared_ptr<const TensorRecord>> m_tensors;
    std::unordered_map<std::string, StorageInfo> m_storages;
};

}  // namespace

std::int64_t TensorRecord::numel() const
{
    std::int64_t n = 1;
    for (const auto s : sizes)
        if (__builtin_mul_overflow(n, s, &n))
            return std::numeric_limits<std::int64_t>::max();  // records from readPtFile never overflow
    return n;
}

graph::Device TensorRecord::device() const
{
    graph::Device d;
    const auto colon = location.find(':');
    d.type = location.substr(0, colon);
    if (colon != std::string::npos) {
        int index = -1;
        const char* b = location.data() + colon + 1;
        const char* e = location.data() + location.size();
        const auto [p, ec] = std::from_chars(b, e, index);
        if (ec == std::errc() && p == e)
            d.index = index;
        else
            d.type = location;
    }
    return d;
}

graph::TensorMeta TensorRecord::meta() const
{
    graph::TensorMeta m;
    m.dtype = dtype;
    std::vector<graph::SymDim> st;
    for (const auto s : sizes)
        m.sizes.push_back(graph::SymDim::constant(s));
    for (const auto s : strides)
        st.push_back(graph::SymDim::constant(s));
    m.strides = std::move(st);
    m.device = device();
    m.storageOffset = graph::SymDim::constant(storageOffset);
    return m;
}

const PtValue* PtValue::find(std::string_view key) const
{
    if (kind != Kind::Dict)
        return nullptr;
    for (const auto& [k, v] : entries)
        if (k.kind == Kind::String && k.text == key)
            return &v;
    return nullptr;
}

const PtValue* PtValue::find(std::int64_t key) const
{
    if (kind != Kind::Dict)
        return nullptr;
    for (const auto& [k, v] : entries)
        if (k.kind == Kind::Int && k.integer == key)
            return &v;
    return nullptr;
}

std::string_view ptKindName(PtValue::Kind k)
{
    switch (k) {
    case PtValue::Kind::None: return "None";
    case PtValue::Kind::Bool: return "bool";
    case PtValue::Kind::Int: return "int";
    case PtValue::Kind::Float: return "float";
    case PtValue::Kind::String: return "str";
    case PtValue::Kind::Bytes: return "bytes";
    case PtValue::Kind::List: return "list";
    case PtValue::Kind::Tuple: return "tuple";
    case PtValue::Kind::Dict: return "dict";
    case PtValue::Kind::Tensor: return "tensor";
    }
    return "?";
}

PtFile readPtFile(std::shared_ptr<const ZipReader> archive)
{
    PtFile out;
    out.path = archive->path();
    out.archiveName = archive->archivePrefix();
    const std::string& prefix = out.archiveName;
    if (const ZipEntry* bo = archive->find(prefix + "/byteorder")) {
        std::string_view order = archive->read(*bo);
        while (!order.empty() && (order.back() == '\n' || order.back() == '\r' || order.back() == ' '))
            order.remove_suffix(1);
        if (order != "little")
            throw Error("only little-endian .pt files are supported (byteorder '" + std::string(order.substr(0, 16))
                            + "')",
                        SourceLocation{out.path, 0, 0, {}});
    }
    const std::string pklName = prefix + "/data.pkl";
    const ZipEntry* pkl = archive->find(pklName);
    const std::string pklFile = out.path + "/" + pklName;
    if (!pkl)
        throw Error("no " + pklName + " in the archive", SourceLocation{out.path, 0, 0, {}});
    if (!archive->crcMatches(*pkl))
        throw Error("CRC mismatch: the pickle is corrupted", SourceLocation{pklFile, 0, 0, {}});
    const Pickle pickle = parsePickle(archive->read(*pkl), pklFile);
    PtConverter converter(pickle, archive, prefix, out.path);
    out.root = converter.convert(pickle.rootId(), 0);
    out.archive = std::move(archive);
    return out;
}

PtFile readPtFile(const std::string& path)
{
    return readPtFile(std::make_shared<const ZipReader>(path));
}

}  // namespace fxray::io
