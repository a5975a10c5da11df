#pragma once
// The hook through which a program linked with LibTorch lends io its TorchScript importer
// (replay/schemas/torchscript_import.h: torch::jit::parseIR, overloads resolved from the op schemas). Without one (the GUI
// process, builds without LibTorch) io reads TorchScript with fxray's own parser only, whose op targets name no
// overload: viewable and diffable, not replayable.
#include "graph/graph.h"

#include <functional>
#include <string>

namespace fxray::io {

// Text and file name -> graph. Throws fxray::Error when LibTorch cannot read the text.
using TorchScriptImporter = std::function<graph::Graph(const std::string& text, const std::string& fileName)>;

// Installed once at start-up (before any loading thread runs); an empty function removes it.
void setTorchScriptImporter(TorchScriptImporter importer);
const TorchScriptImporter& torchScriptImporter();

}  // namespace fxray::io
