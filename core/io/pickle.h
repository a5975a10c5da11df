#pragma once
// A restricted unpickler: reads Python pickles (protocols 0-5) into a plain value tree and never executes,
// imports or calls anything. GLOBAL/STACK_GLOBAL only name a global, and only globals on the caller's
// whitelist are accepted; REDUCE/NEWOBJ applications are kept as data (PickleKind::Call) for the caller to
// interpret (pt_file.h, input_pickle.h).
//
// Values live in one arena (Pickle::values()) and refer to each other by index, so shared references and
// cycles (a list appended into itself through the memo) cost nothing and cannot leak. Code walking the tree
// must expect cycles and shared subtrees: bound its recursion depth and its total work.
//
// A few pure constructors are folded into plain values while reading, because protocols < 3 and < 5 spell
// ordinary values that way: _codecs.encode(str, 'latin1') and builtins.bytes()/bytearray(...) -> Bytes,
// builtins.set(list)/frozenset(list) -> Set. They are folded only when whitelisted (the default list has them).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fxray::io {

using PickleId = std::uint32_t;
inline constexpr PickleId kNoPickleValue = 0xFFFFFFFFu;

enum class PickleKind : std::uint8_t {
    None, Bool, Int, Float, String, Bytes,
    List, Tuple, Dict, Set,
    Global,        // module + name, e.g. torch.FloatStorage; nothing is imported
    Call,          // callee(args) from REDUCE / NEWOBJ / NEWOBJ_EX, with what was applied to the result afterwards
    PersistentId,  // PERSID / BINPERSID: `args` is the persistent id value
};
std::string_view pickleKindName(PickleKind k);  // "list", "call", ...

struct PickleValue {
    PickleKind kind = PickleKind::None;
    bool boolean = false;        // Bool
    std::int64_t integer = 0;    // Int (values outside int64 are refused)
    double real = 0.0;           // Float
    std::string text;            // String (UTF-8 as pickled), Bytes (raw), Global: module
    std::string name;            // Global: name
    std::vector<PickleId> items;  // List/Tuple/Set elements; Call: values APPENDed to the object
    std::vector<std::pair<PickleId, PickleId>> entries;  // Dict (insertion order); Call: SETITEMs on the object
    PickleId callee = kNoPickleValue;  // Call: the callable (usually a Global)
    PickleId args = kNoPickleValue;    // Call: argument tuple; PersistentId: the id value
    PickleId kwargs = kNoPickleValue;  // Call from NEWOBJ_EX: keyword dict
    PickleId state = kNoPickleValue;   // Call: BUILD state (__setstate__ argument), if any
    std::uint32_t depth = 1;           // nesting depth when built (guards the nesting limit)

    std::string qualifiedName() const { return text + "." + name; }  // Global: "torch.Size"
};

struct PickleLimits {
    std::uint32_t maxDepth = 256;        // nesting of containers, and of open MARKs
    std::size_t maxMemo = 1u << 20;      // memo entries
    std::size_t maxStack = 1u << 20;     // values on the unpickler stack
    std::size_t maxValues = 1u << 26;    // values in the arena (each opcode adds at most one)
};

struct PickleOptions {
    // "module.name" of every global the pickle may name. Anything else is refused with an error naming it.
    // Empty here (no globals at all); defaultPickleOptions() fills in defaultAllowedGlobals().
    std::unordered_set<std::string> allowedGlobals;
    // Also accepted: globals whose "module.name" starts with one of these (a GraphModule's __dict__ names its
    // tracer class and other torch internals; they are kept as names, never imported).
    std::vector<std::string> allowedGlobalPrefixes;
    PickleLimits limits;
};

// The globals that torch.save files and functorch .input files use (torch dtypes, Size, device, storages,
// tensor rebuild functions, OrderedDict, a few builtins, _codecs.encode).
const std::unordered_set<std::string>& defaultAllowedGlobals();
PickleOptions defaultPickleOptions();

class Pickle {
public:
    Pickle() = default;
    Pickle(std::vector<PickleValue> values, PickleId root, std::string fileName, int protocol);

    const PickleValue& root() const { return m_values[m_root]; }
    PickleId rootId() const { return m_root; }
    const PickleValue& operator[](PickleId id) const { return m_values[id]; }
    const std::vector<PickleValue>& values() const { return m_values; }
    std::size_t size() const { return m_values.size(); }
    const std::string& fileName() const { return m_file; }
    int protocol() const { return m_protocol; }

    // A short Python-like rendering for error messages: cycle-safe, depth-limited, cut at maxChars.
    std::string describe(PickleId id, std::size_t maxChars = 160) const;

private:
    std::vector<PickleValue> m_values;
    PickleId m_root = 0;
    std::string m_file;
    int m_protocol = 0;
};

// The shortest text that reads back as `x`, spelled as Python's repr() does ("3.0", "1e-05", "inf").
std::string pythonFloatRepr(double x);

// Parses one pickle. Errors (fxray::Error) name `fileName`, the byte offset and the opcode.
// Bytes after STOP are ignored, as Python does.
Pickle parsePickle(std::string_view data, const std::string& fileName, const PickleOptions& options);
Pickle parsePickle(std::string_view data, const std::string& fileName);  // default options
Pickle readPickleFile(const std::string& path, const PickleOptions& options);
Pickle readPickleFile(const std::string& path);

}  // namespace fxray::io
