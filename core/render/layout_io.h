#pragma once
// A Layout as text, so that Graphviz can run in another process (fxray-layout) and hand its result back: a crash
// or a runaway layout there costs a drawing, not the app (BASELINES.md: dot segfaults on a 3.5k-node joint graph).
//
//   layout <width> <height> <seconds>
//   n <x> <y> <w> <h> <id>
//   c <x> <y> <w> <h> <label-height> <id>          (a cluster: top-left corner, size)
//   e <from> <to> <has-arrow> <tip-x> <tip-y> <point count> <x y>...
// Ids are percent-encoded (%, space, tab, newline, CR), so every field is one whitespace-free token.
#include "render/layout.h"

#include <string>
#include <string_view>

namespace fxray::render {

std::string writeLayoutText(const Layout& layout);
// Throws fxray::Error naming the line when the text is not a layout.
Layout readLayoutText(std::string_view text);

}  // namespace fxray::render
