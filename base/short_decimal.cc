#include "base/short_decimal.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace lbsim {

// Why the text is nlohmann's. Let D be the decimal of at most 9 fraction
// digits nearest to x. Below 2^20 a double's spacing (ulp) is at most
// 2^-33, under an eighth of 1e-9, so at most one such decimal lies within
// half an ulp of x, and no decimal of fewer digits does unless it is D
// itself: when D reads back as x, it is the shortest text that does.
// Grisu2 finds the shortest decimal within x's rounding interval
// [x - ulp/2, x + ulp/2] (not a power of two: the interval is symmetric)
// narrowed by its rounding error, at most 2^-9 ulp on each side (the
// first decimals it misses lie 0.499 ulp from x); so when D is within
// (1/2 - 1/128) ulp of x, Grisu2's digits are D's. nlohmann then
// lays the digits out as %g would, with ".0" after an integer and no
// exponent from 1e-4 on.
char* WriteShortDecimal(char* p, double x) {
  if (!(x >= 1e-4 && x < 1048576.0)) return nullptr;  // NaN too
  const auto bits = std::bit_cast<std::uint64_t>(x);
  constexpr std::uint64_t kFraction = (std::uint64_t{1} << 52) - 1;
  if ((bits & kFraction) == 0) return nullptr;  // a power of two
  const double ulp = std::bit_cast<double>(bits + 1) - x;
  constexpr double kScale = 1e9;
  const double scaled = std::nearbyint(x * kScale);  // below 1.05e15: exact
  // x - D in units of 1e-9, with one rounding of a tiny value.
  const double error = std::fma(x, kScale, -scaled);
  if (!(std::fabs(error) <= ulp * kScale * (0.5 - 1.0 / 128))) return nullptr;
  auto digits = static_cast<std::uint64_t>(scaled);
  int fraction = 9;
  while (fraction > 0 && digits % 10 == 0) {
    digits /= 10;
    --fraction;
  }
  const fmt::format_int text(digits);
  const int size = static_cast<int>(text.size());
  const int point = size - fraction;  // digits before the decimal point
  if (fraction == 0) {  // digits ".0"
    std::memcpy(p, text.data(), text.size());
    std::memcpy(p + size, ".0", 2);
    return p + size + 2;
  }
  if (point > 0) {  // dig.its
    std::memcpy(p, text.data(), static_cast<std::size_t>(point));
    p[point] = '.';
    std::memcpy(p + point + 1, text.data() + point, static_cast<std::size_t>(fraction));
    return p + size + 1;
  }
  if (point < -3) return nullptr;  // nlohmann's exponent form; x >= 1e-4 has none
  // 0.[000]digits
  std::memcpy(p, "0.000", static_cast<std::size_t>(2 - point));
  std::memcpy(p + 2 - point, text.data(), text.size());
  return p + 2 - point + size;
}

}  // namespace lbsim
