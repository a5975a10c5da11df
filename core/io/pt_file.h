#pragma once
// torch.save files (.pt): a zip archive (zip_reader.h) holding <archive>/data.pkl, read with the restricted
// unpickler (pickle.h), and raw little-endian storages under <archive>/data/<key>. Tensors become
// TensorRecords (metadata + a view of their storage bytes); nothing is executed and LibTorch is not needed.
//
// Understood objects: collections.OrderedDict (-> ordered Dict; attributes such as a state_dict's
// _metadata are dropped), torch._utils._rebuild_tensor_v2 / _v3, _rebuild_parameter(_with_state),
// torch._tensor._rebuild_from_type_v2 around those, torch.Size (-> Tuple), torch.device (-> String "cuda:0"),
// torch dtypes (-> String "torch.float32"). Anything else is an error naming the object.
#include "graph/dtype.h"
#include "graph/tensor_meta.h"
#include "io/zip_reader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxray::io {

struct TensorRecord {
    graph::DType dtype = graph::DType::Float32;
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
    std::int64_t storageOffset = 0;  // in elements
    std::string storageKey;          // the persistent id's key: data in "<archive>/data/<key>"
    std::string location;            // "cpu", "cuda:0" as saved
    std::int64_t storageNumel = 0;   // storage length in elements of dtype
    bool requiresGrad = false;
    bool isParameter = false;        // saved as torch.nn.Parameter
    // The lazy conjugate / negative bits of the saved view (the rebuild's metadata {"conj": True}): the bytes hold
    // the values before conjugation, as the view's storage does (torch.conj(x) saved as it is).
    bool conj = false, neg = false;
    // The whole storage (storageNumel * itemsize bytes, little-endian); views of one storage share it.
    // Valid while `archive` lives (kept alive by this record).
    std::string_view data;
    std::shared_ptr<const ZipReader> archive;

    std::int64_t numel() const;
    graph::Device device() const;  // parsed `location`
    graph::TensorMeta meta() const;  // dtype, sizes, strides, device, storage offset
};

struct PtEntry;

struct PtValue {
    enum class Kind { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict, Tensor };
    Kind kind = Kind::None;
    bool boolean = false;
    std::int64_t integer = 0;
    double real = 0.0;
    std::string text;                                  // String, Bytes
    std::vector<PtValue> items;                        // List, Tuple
    // Dict in saved order; keys are String or Int. (Not std::pair<PtValue, PtValue>: a pair of an incomplete
    // type inside its own class is rejected by clang, which builds the fuzzers.)
    std::vector<PtEntry> entries;
    std::shared_ptr<const TensorRecord> tensor;        // Tensor (shared between references to one tensor)

    bool isTensor() const { return kind == Kind::Tensor; }
    // Dict lookup by string / int key; nullptr when absent or not a dict.
    const PtValue* find(std::string_view key) const;
    const PtValue* find(std::int64_t key) const;
};

struct PtEntry {
    PtValue first;   // key
    PtValue second;  // value
};
std::string_view ptKindName(PtValue::Kind k);

struct PtFile {
    std::string path;
    std::string archiveName;  // the top-level folder inside the zip
    PtValue root;
    std::shared_ptr<const ZipReader> archive;
};

// Reads a torch.save file. Errors (fxray::Error) name the file and what is wrong: not a zip, truncated,
// big-endian, a storage smaller than a tensor needs, an unsupported object, a refused pickle global.
PtFile readPtFile(const std::string& path);
PtFile readPtFile(std::shared_ptr<const ZipReader> archive);  // an archive already opened (tests: in memory)

}  // namespace fxray::io
