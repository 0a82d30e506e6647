#pragma once

#include <optional>
#include <string_view>

#include "strategies/python_version.h"

namespace lbsim {

// Python's float() of a str, `text` being the string's UTF-8: the value, or
// nullopt where float() raises ValueError. The rules, as CPython applies
// them: every Unicode decimal digit reads as its ASCII digit and every
// Unicode space as ' ' (any other non-ASCII character makes the text
// invalid); ASCII spaces around the number are dropped; an underscore may
// stand only between two digits and is then ignored; the rest must be a
// whole decimal literal ([+-], digits with an optional point, an optional
// exponent), correctly rounded, ±inf past the double range and 0 below it,
// or [+-]inf, infinity or nan in any case. The set of Unicode digits is
// that of `python`'s Unicode database.
std::optional<double> PythonFloatOfText(std::string_view text, PythonVersion python);

}  // namespace lbsim
