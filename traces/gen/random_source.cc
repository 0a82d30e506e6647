#include "traces/gen/random_source.h"

#include <cmath>
#include <numbers>

#include "base/seed_mix.h"

namespace lbsim {

RandomSource::RandomSource(std::uint64_t seed, RandomStream stream)
    : engine_(SplitMix64(SplitMix64(seed) ^ static_cast<std::uint64_t>(stream))) {}

double RandomSource::Uniform() { return UnitInterval(engine_()); }

double RandomSource::Exponential(double mean) { return -mean * std::log1p(-Uniform()); }

double RandomSource::Normal() {
  const double u1 = 1.0 - Uniform();  // (0, 1]: the log is finite
  const double u2 = Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::uint64_t RandomSource::Index(std::uint64_t n) {
  const std::uint64_t uneven = (0 - n) % n;  // 2^64 mod n
  std::uint64_t x = engine_();
  while (x < uneven) x = engine_();
  return x % n;
}

}  // namespace lbsim
