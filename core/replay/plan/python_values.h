#pragma once
// Internal to core/replay (includes LibTorch). What a plan's Python-level steps do with values, for every runner of
// plans (the interpreter; the subgraphs of higher-order ops): operator.* arithmetic on ints, floats and bools
// (SymInt nodes), and getitem of a tuple or list.
#include <ATen/core/ivalue.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fxray::replay::detail {

// operator.<op> (add, floordiv, eq, ...; sym_max, sym_float, ...) on its operands; throws fxray::Error on overflow,
// division by zero or an operator it does not know.
c10::IValue applyOperator(const std::string& op, const std::vector<c10::IValue>& a);

// base[index] of a tuple or list (negative indices from the end); throws fxray::Error when out of range.
c10::IValue getItem(const c10::IValue& base, std::int64_t index);

}  // namespace fxray::replay::detail
