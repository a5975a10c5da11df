#include "replay/values/pt_tensors.h"

#include "base/error.h"
#include "replay/values/torch_types.h"

#include <ATen/ATen.h>

#include <cstring>
#include <map>

namespace fxray::replay::detail {
namespace {

// The whole storage of a record as a flat tensor on `device`.
at::Tensor storageOf(const io::TensorRecord& r, const c10::Device& device)
{
    at::Tensor storage = at::empty({r.storageNumel}, at::TensorOptions().dtype(toScalarType(r.dtype)));
    std::memcpy(storage.data_ptr(), r.data.data(), std::min<std::size_t>(r.data.size(), storage.nbytes()));
    return device.is_cpu() ? storage : storage.to(device);
}

// The saved view with its lazy conjugate/negative bits set again: the bytes are the unconjugated values.
at::Tensor withViewBits(at::Tensor t, const io::TensorRecord& r)
{
    if (r.conj)
        t = at::_conj(t);
    if (r.neg)
        t = at::_neg_view(t);
    return t;
}

}  // namespace

at::Tensor tensorFromRecord(const io::TensorRecord& r, const c10::Device& device)
{
    // The view is taken on the target device: moving a strided view with .to() would compact it (an expand's
    // stride 0, a transpose, a select into a larger storage would all arrive with fresh contiguous strides).
    return withViewBits(storageOf(r, device).as_strided(r.sizes, r.strides, r.storageOffset), r);
}

std::vector<c10::IValue> valuesFromPtList(const io::PtFile& pt, const c10::Device& device)
{
    const io::PtValue& root = pt.root;
    if (root.kind != io::PtValue::Kind::List && root.kind != io::PtValue::Kind::Tuple)
        throw Error("expected a list of values, found a " + std::string(io::ptKindName(root.kind)), fileLocation(pt.path));
    // Tensors saved as views of one storage share it again, so inputs alias as they did in the captured run.
    std::map<std::string, at::Tensor> storages;
    std::vector<c10::IValue> out;
    for (std::size_t k = 0; k < root.items.size(); ++k) {
        const io::PtValue& v = root.items[k];
        switch (v.kind) {
        case io::PtValue::Kind::None: out.emplace_back(); break;
        case io::PtValue::Kind::Int: out.emplace_back(v.integer); break;
        case io::PtValue::Kind::Float: out.emplace_back(v.real); break;
        case io::PtValue::Kind::Bool: out.emplace_back(v.boolean); break;
        case io::PtValue::Kind::Tensor: {
            const io::TensorRecord& r = *v.tensor;
            // Tensors saved on the CPU (0-dim scalars such as a step count, philox seeds) stay there, as in
            // the captured run.
            const c10::Device where = r.location == "cpu" ? c10::Device(c10::kCPU) : device;
            const std::string key = r.storageKey + "@" + where.str() + "#" + std::to_string(static_cast<int>(r.dtype));
            auto it = storages.find(key);
            if (it == storages.end())
                it = storages.emplace(key, storageOf(r, where)).first;
            out.emplace_back(withViewBits(it->second.as_strided(r.sizes, r.strides, r.storageOffset), r));
            break;
        }
        default:
            throw Error("value " + std::to_string(k) + " is a " + std::string(io::ptKindName(v.kind)) +
                            ", not a tensor, number or None",
                        fileLocation(pt.path));
        }
    }
    return out;
}

}  // namespace fxray::replay::detail
