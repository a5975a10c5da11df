#include "replay/schemas/op_schemas.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <sstream>

namespace fxray::replay {

std::optional<std::string> registeredSchema(std::string_view overload)
{
    // <namespace>.<name>.<overload>: op names hold no '.', and Python's "default" overload is C++'s "".
    const auto first = overload.find('.');
    const auto last = overload.rfind('.');
    if (first == std::string_view::npos || last == first)
        return std::nullopt;
    const std::string name = std::string(overload.substr(0, first)) + "::" + std::string(overload.substr(first + 1, last - first - 1));
    std::string ov(overload.substr(last + 1));
    if (ov == "default")
        ov.clear();
    const auto handle = c10::Dispatcher::singleton().findSchema({name, ov});
    if (!handle)
        return std::nullopt;
    std::ostringstream text;
    text << handle->schema();  // the printer Python's str(schema) uses
    return text.str();
}

}  // namespace fxray::replay
