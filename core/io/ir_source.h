#pragma once
// TorchScript IR text and lazy-tensor IR dumps (text and DOT) as graph sources: recognising such files and
// loading them. Recognition is by content (the first non-blank line: "graph(", "IR {", or "digraph" with
// lazy-tensor node labels); in directory walks only files named *.ts.txt, *.torchscript, *.ltc.txt or *.ltc.dot
// are looked at, so that the many .txt and .dot files of a compile-debug folder are not taken for graphs.
#include "io/graph_source.h"

#include <optional>
#include <string>

namespace fxray::io {

// Whether a directory walk should look into this file (by name).
bool hasIrFileName(const std::string& path);
// The format of an IR file by its content; nullopt when it is none of them (or cannot be read).
std::optional<SourceFormat> sniffIrFile(const std::string& path);
GraphEntry irEntry(const std::string& path, SourceFormat format);
// TorchScript: fxray's parser for the graph, names and source lines; the LibTorch importer (when installed)
// for operator overloads. A "<stem>.state_dict.pt" beside the file supplies get_attr values.
LoadedGraph loadIrFile(const GraphEntry& entry);

}  // namespace fxray::io
