#pragma once

// Test helper: a deterministic stream of pseudo-random numbers, for tests
// that drive a structure through long random schedules.

#include <cstdint>

namespace lbsim::testing {

// A linear congruential generator; the same seed gives the same stream on
// every platform.
class SeededNumbers {
 public:
  explicit SeededNumbers(std::uint64_t seed) : state_(seed) {}
  // A number in [0, n).
  std::uint64_t Below(std::uint64_t n) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return (state_ >> 33) % n;
  }

 private:
  std::uint64_t state_;
};

}  // namespace lbsim::testing
