#include "replay/pt_tensors.h"

#include "base/error.h"
#include "replay/torch_types.h"

#include <ATen/ATen.h>

#include <cstring>

namespace fxray::replay::detail {

at::Tensor tensorFromRecord(const io::TensorRecord& r)
{
    at::Tensor storage = at::empty({r.storageNumel}, at::TensorOptions().dtype(toScalarType(r.dtype)));
    std::memcpy(storage.data_ptr(), r.data.data(), std::min<std::size_t>(r.data.size(), storage.nbytes()));
    return storage.as_strided(r.sizes, r.strides, r.storageOffset);
}

std::vector<c10::IValue> valuesFromPtList(const io::PtFile& pt)
{
    const io::PtValue& root = pt.root;
    if (root.kind != io::PtValue::Kind::List && root.kind != io::PtValue::Kind::Tuple)
        throw Error("expected a list of values, found a " + std::string(io::ptKindName(root.kind)), fileLocation(pt.path));
    std::vector<c10::IValue> out;
    for (std::size_t k = 0; k < root.items.size(); ++k) {
        const io::PtValue& v = root.items[k];
        switch (v.kind) {
        case io::PtValue::Kind::None: out.emplace_back(); break;
        case io::PtValue::Kind::Int: out.emplace_back(v.integer); break;
        case io::PtValue::Kind::Float: out.emplace_back(v.real); break;
        case io::PtValue::Kind::Bool: out.emplace_back(v.boolean); break;
        case io::PtValue::Kind::Tensor: out.emplace_back(tensorFromRecord(*v.tensor)); break;
        default:
            throw Error("value " + std::to_string(k) + " is a " + std::string(io::ptKindName(v.kind)) +
                            ", not a tensor, number or None",
                        fileLocation(pt.path));
        }
    }
    return out;
}

}  // namespace fxray::replay::detail
