#include "sim/replay/what_if_ranges.h"

#include <fmt/format.h>

namespace lbsim {

std::string ExpectedInteger(const WhatIfRange& range, std::string_view what) {
  std::string text = fmt::format("an integer from {} to {}", range.min, range.max_text);
  if (!what.empty()) text += fmt::format(" ({})", what);
  return text;
}

}  // namespace lbsim
