#include "replay/plan/python_values.h"

#include "base/error.h"
#include "replay/values/torch_types.h"

#include <algorithm>
#include <cmath>

namespace fxray::replay::detail {

// Python-level arithmetic on ints/floats/bools (SymInt nodes).
c10::IValue applyOperator(const std::string& op, const std::vector<c10::IValue>& a)
{
    auto isInt = [](const c10::IValue& v) { return v.isInt() || v.isBool(); };
    auto asInt = [](const c10::IValue& v) { return v.isBool() ? static_cast<std::int64_t>(v.toBool()) : v.toInt(); };
    auto asDouble = [&](const c10::IValue& v) { return v.isDouble() ? v.toDouble() : static_cast<double>(asInt(v)); };
    if (a.size() == 1) {
        if (op == "neg") {
            if (isInt(a[0]) && asInt(a[0]) == INT64_MIN)
                throw Error("integer overflow in operator.neg");
            return isInt(a[0]) ? c10::IValue(-asInt(a[0])) : c10::IValue(-asDouble(a[0]));
        }
        if (op == "not_" || op == "sym_not")
            return c10::IValue(!a[0].toBool());
        if (op == "float" || op == "sym_float")
            return c10::IValue(asDouble(a[0]));
        if (op == "int" || op == "sym_int")
            return c10::IValue(static_cast<std::int64_t>(asDouble(a[0])));
    }
    if (a.size() == 2) {
        const bool ints = isInt(a[0]) && isInt(a[1]);
        const std::int64_t x = ints ? asInt(a[0]) : 0, y = ints ? asInt(a[1]) : 0;
        const double p = asDouble(a[0]), q = asDouble(a[1]);
        std::int64_t r = 0;
        auto checked = [&](bool overflowed) {
            if (overflowed)
                throw Error("integer overflow in operator." + op);
            return c10::IValue(r);
        };
        if (op == "add")
            return ints ? checked(__builtin_add_overflow(x, y, &r)) : c10::IValue(p + q);
        if (op == "sub")
            return ints ? checked(__builtin_sub_overflow(x, y, &r)) : c10::IValue(p - q);
        if (op == "mul")
            return ints ? checked(__builtin_mul_overflow(x, y, &r)) : c10::IValue(p * q);
        if (op == "truediv")
            return c10::IValue(p / q);
        if (op == "floordiv" || op == "mod") {
            if (ints) {
                if (y == 0)
                    throw Error("integer division by zero");
                if (x == INT64_MIN && y == -1)
                    throw Error("integer overflow in operator." + op);
                std::int64_t fd = x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0);
                return op == "floordiv" ? c10::IValue(fd) : c10::IValue(x - fd * y);
            }
            double fd = std::floor(p / q);
            return op == "floordiv" ? c10::IValue(fd) : c10::IValue(p - fd * q);
        }
        if (op == "pow") {
            if (!ints || y < 0)
                return c10::IValue(std::pow(p, q));
            // |x| <= 1 needs no loop (y may be huge); otherwise overflow comes within 63 steps.
            if (x == 0 || x == 1) {
                r = (x == 1 || y == 0) ? 1 : 0;
            } else if (x == -1) {
                r = y % 2 ? -1 : 1;
            } else {
                r = 1;
                for (std::int64_t k = 0; k < y; ++k)
                    if (__builtin_mul_overflow(r, x, &r))
                        throw Error("integer overflow in operator.pow");
            }
            return c10::IValue(r);
        }
        if (op == "eq")
            return c10::IValue(p == q);
        if (op == "ne")
            return c10::IValue(p != q);
        if (op == "lt")
            return c10::IValue(p < q);
        if (op == "le")
            return c10::IValue(p <= q);
        if (op == "gt")
            return c10::IValue(p > q);
        if (op == "ge")
            return c10::IValue(p >= q);
        if (op == "and_")
            return ints ? c10::IValue(x & y) : c10::IValue(a[0].toBool() && a[1].toBool());
        if (op == "or_")
            return ints ? c10::IValue(x | y) : c10::IValue(a[0].toBool() || a[1].toBool());
        if (op == "sym_max")
            return ints ? c10::IValue(std::max(x, y)) : c10::IValue(std::max(p, q));
        if (op == "sym_min")
            return ints ? c10::IValue(std::min(x, y)) : c10::IValue(std::min(p, q));
    }
    throw Error("operator." + op + " on " + std::to_string(a.size()) + " operand(s) is not supported");
}

c10::IValue getItem(const c10::IValue& base, std::int64_t index)
{
    auto pick = [&](std::int64_t size) {
        std::int64_t i = index < 0 ? index + size : index;
        if (i < 0 || i >= size)
            throw Error("index " + std::to_string(index) + " out of range for " + std::to_string(size) + " values");
        return static_cast<std::size_t>(i);
    };
    if (base.isTuple()) {
        const auto& e = base.toTupleRef().elements();
        return e[pick(static_cast<std::int64_t>(e.size()))];
    }
    if (base.isList()) {
        auto l = base.toListRef();
        return l[pick(static_cast<std::int64_t>(l.size()))];
    }
    throw Error("getitem on " + describeValue(base));
}

}  // namespace fxray::replay::detail
