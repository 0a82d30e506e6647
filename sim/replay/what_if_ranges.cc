#include "sim/replay/what_if_ranges.h"

#include <fmt/format.h>

namespace lbsim {

std::string ExpectedInteger(const WhatIfRange& range) {
  std::string text = fmt::format("an integer from {} to {}", range.min, range.max_text);
  if (!range.what.empty()) text += fmt::format(" ({})", range.what);
  return text;
}

}  // namespace lbsim
