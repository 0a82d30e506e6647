#include "base/number_text.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace lbsim {

bool ParseFiniteNumber(std::string_view text, double& out) {
  if (text.empty()) return false;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (*first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && std::isfinite(out);
}

std::string NumberText(double x) { return fmt::format("{}", x); }

std::string FigureText(double x) {
  if (!std::isfinite(x)) return NumberText(x);
  const std::string rounded = fmt::format("{:.12g}", x);
  double y = 0;
  std::from_chars(rounded.data(), rounded.data() + rounded.size(), y);
  return NumberText(y);
}

}  // namespace lbsim
