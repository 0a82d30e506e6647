#pragma once

namespace lbsim {

// The most bytes WriteShortDecimal writes.
inline constexpr int kShortDecimalBound = 24;

// Writes at `p` the text nlohmann::json's dump() writes for `x` ("12.5",
// "0.001", "3.0") and returns its end, when `x` is the double nearest to a
// decimal with at most 9 digits after the point, is at least 0.0001 and
// below 2^20, and is not a power of two: most fractional trace times. For
// any other `x` (and for the few of those whose decimal lies too close to
// the midpoint between two doubles for nlohmann's Grisu2 to be sure of it)
// writes nothing and returns nullptr; the caller writes those the general
// way.
char* WriteShortDecimal(char* p, double x);

}  // namespace lbsim
