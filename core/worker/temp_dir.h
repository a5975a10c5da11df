#pragma once
// A fresh temporary folder (mkdtemp under the system's temp path), removed with what it holds when the object
// goes: the distributed job's rendezvous store and its single-rank reference's files.
#include <string>

namespace fxray::worker {

struct TempDir {
    std::string path;
    explicit TempDir(const std::string& prefix = "fxray-dist-");  // throws fxray::Error when it cannot be made
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

}  // namespace fxray::worker
