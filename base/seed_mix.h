#pragma once

#include <cstdint>

namespace lbsim {

// SplitMix64's step: a well-mixed 64-bit function of its input, used to
// derive independent seeds and counter-based random numbers from a seed.
constexpr std::uint64_t SplitMix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The top 53 bits of `bits` as a uniform number in [0, 1).
constexpr double UnitInterval(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

}  // namespace lbsim
