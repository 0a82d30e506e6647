#include "base/json/json_write.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "base/short_decimal.h"

namespace lbsim {

static_assert(kShortDecimalBound <= kJsonNumberBound);

void AppendJsonString(std::string& out, std::string_view s) {
  const std::size_t at = out.size();
  out.resize(at + JsonStringBound(s));
  char* end = WriteJsonString(out.data() + at, s);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

char* WriteJsonDouble(char* p, double x) {
  // Most fractional numbers are short decimals, written without Grisu2.
  if (char* end = WriteShortDecimal(p, x)) return end;
  // The same text nlohmann::json (and Python's json) prints for a double:
  // its dump() writes what this function of its own writes, for a finite
  // IEEE double, without building a value and a string first.
  if (!std::isfinite(x)) {
    std::memcpy(p, "null", 4);
    return p + 4;
  }
  return nlohmann::detail::to_chars(p, p + kJsonNumberBound, x);
}

void AppendJsonDouble(std::string& out, double x) {
  char text[kJsonNumberBound];
  out.append(text, static_cast<std::size_t>(WriteJsonDouble(text, x) - text));
}

}  // namespace lbsim
