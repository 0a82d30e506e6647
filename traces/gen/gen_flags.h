#pragma once

#include <span>
#include <string_view>

#include "traces/gen/gen_spec.h"

namespace lbsim {

// One command-line flag of `lbsim gen`: each sets one part of a GenSpec.
struct GenFlagInfo {
  std::string_view name;       // e.g. "--rate"
  std::string_view type_name;  // e.g. "R"
  std::string_view help;
  bool repeatable = false;     // repeatable flags add to a list
  // What a bad value is told it should be, e.g. "a number >= 0 (arrivals
  // per time unit)"; empty: any text.
  std::string_view expected = {};
};

// Every `lbsim gen` spec flag, in help order.
std::span<const GenFlagInfo> GenFlags();

// Applies `flag value` to `spec` (over a spec file's value, or appending to
// its list for repeatable flags). Throws UsageError naming the flag, the
// value and what was expected.
void ApplyGenFlag(GenSpec& spec, std::string_view flag, std::string_view value);

}  // namespace lbsim
