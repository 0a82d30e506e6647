#pragma once

#include <string_view>
#include <vector>

namespace lbsim {

// The parts of `text` between each `separator`, empty ones included:
// "a,,b" gives "a", "", "b"; "" gives one empty part. Views into `text`.
inline std::vector<std::string_view> SplitAt(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

}  // namespace lbsim
