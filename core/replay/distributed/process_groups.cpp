#include "replay/distributed/process_groups.h"

#include "base/error.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/GroupRegistry.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#if FXRAY_HAVE_GLOO
// The wheel's libtorch_cpu.so holds Gloo (USE_C10D_GLOO) but ships no gloo headers: Debian's libgloo-dev gives
// them. Only the declarations are used (no gloo object is built on this side), and the classes this file touches
// hold gloo types behind pointers only, so the older headers describe the same layout.
#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#if FXRAY_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <algorithm>

namespace fxray::replay {
namespace {

c10::intrusive_ptr<c10d::Backend> makeBackend(const DistributedSetup& s, const std::string& kind,
                                              const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                              const std::string& name)
{
    if (kind == "gloo") {
#if FXRAY_HAVE_GLOO
        auto options = c10d::ProcessGroupGloo::Options::create(s.timeout);
        // One host: loopback, which needs no name resolution (the device machines have no network).
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, options);
#else
        throw Error("this fxray was built without the gloo headers (apt-get install libgloo-dev, then rebuild): "
                    "group '" + name + "' cannot be built");
#endif
    }
    if (kind == "nccl") {
#if FXRAY_HAVE_NCCL
        auto options = c10d::ProcessGroupNCCL::Options::create();
        options->timeout = s.timeout;
        return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, options);
#else
        throw Error("this fxray was built without NCCL's headers: group '" + name + "' cannot use nccl");
#endif
    }
    throw Error("unknown process-group backend '" + kind + "' (gloo or nccl)");
}

// The registry holds groups weakly (torch's Python side owns them): this process owns its groups until it exits.
std::vector<c10::intrusive_ptr<c10d::ProcessGroup>>& ownedGroups()
{
    static std::vector<c10::intrusive_ptr<c10d::ProcessGroup>> groups;
    return groups;
}

}  // namespace

std::string processGroupBackends()
{
    std::string out;
#if FXRAY_HAVE_GLOO
    out += "gloo";
#endif
#if FXRAY_HAVE_NCCL
    out += out.empty() ? "nccl" : ", nccl";
#endif
    return out.empty() ? "none (built without gloo and NCCL headers)" : out;
}

void initProcessGroups(const DistributedSetup& s)
{
    c10::intrusive_ptr<c10d::Store> root;
    // Every rank first waits for all the others to be up (LibTorch loaded: seconds apart on a busy machine), with a
    // start-up timeout of its own; only then does each group's rendezvous run under the collective timeout, which
    // can be short.
    const auto startTimeout = std::max(s.timeout, std::chrono::milliseconds(300000));
    try {
        root = c10::make_intrusive<c10d::FileStore>(s.store, s.world);
        root->setTimeout(startTimeout);
        if (root->add("fxray/joined", 1) == s.world)
            root->set("fxray/all_joined", std::vector<uint8_t>{1});
        root->wait({"fxray/all_joined"});
    } catch (const std::exception& e) {
        std::string what = e.what();
        throw Error("rank " + std::to_string(s.rank) + ": the rendezvous through '" + s.store + "' failed: " +
                    what.substr(0, what.find('\n')));
    }
    // Every rank walks the groups in the same (name) order: each group's rendezvous then pairs the same peers.
    for (const auto& [name, members] : s.groups) {
        const auto at = std::find(members.begin(), members.end(), s.rank);
        if (at == members.end())
            continue;
        const int rank = static_cast<int>(at - members.begin());
        const int size = static_cast<int>(members.size());
        try {
            auto store = c10::make_intrusive<c10d::PrefixStore>("fxray/" + name, root);
            auto pg = c10::make_intrusive<c10d::ProcessGroup>(store, rank, size);
            const bool nccl = s.backend == "nccl";
            const auto type = nccl ? c10d::ProcessGroup::BackendType::NCCL : c10d::ProcessGroup::BackendType::GLOO;
            pg->setDefaultBackend(type);
            pg->setBackend(nccl ? c10::DeviceType::CUDA : c10::DeviceType::CPU, type,
                           makeBackend(s, s.backend, c10::make_intrusive<c10d::PrefixStore>(s.backend, store), rank, size, name));
#if FXRAY_HAVE_GLOO
            // Like torch's default "cpu:gloo,cuda:nccl": a CUDA run's collectives on host tensors (a graph that
            // reduces a CPU scalar, or one recorded on a CPU run) go through Gloo instead of failing in NCCL.
            if (nccl)
                pg->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO,
                               makeBackend(s, "gloo", c10::make_intrusive<c10d::PrefixStore>("gloo", store), rank, size, name));
#endif
            pg->setGroupName(name);
            c10d::register_process_group(name, pg);
            ownedGroups().push_back(pg);
        } catch (const Error&) {
            throw;
        } catch (const std::exception& e) {
            std::string what = e.what();
            what = what.substr(0, what.find('\n'));
            throw Error("rank " + std::to_string(s.rank) + ": process group '" + name + "' (" + s.backend + ", " +
                        std::to_string(size) + " ranks) could not be built: " + what);
        }
    }
}

}  // namespace fxray::replay
