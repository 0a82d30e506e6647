#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "strategies/params.h"

namespace lbsim {

// The `seed` parameter every randomized strategy declares: default 1, set
// for a whole run by --seed. Reports always echo it.
ParamSpec SeedParam();

// A reproducible source of uniform indices. std::mt19937_64's output is fixed
// by the C++ standard, and the mapping to [0, n) is lbsim's own (std's
// distributions differ between standard libraries), so a seed gives the same
// picks on every platform.
class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  // A uniform index in [0, n); n > 0. Draws one 64-bit value, and another
  // only in the rare case (probability below n / 2^64) that the draw falls
  // in the uneven remainder of 2^64 / n.
  std::size_t Index(std::size_t n);

  // The next raw 64-bit value of the engine.
  std::uint64_t Next() { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace lbsim
