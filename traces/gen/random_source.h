#pragma once

#include <cstdint>
#include <random>

namespace lbsim {

// Named, independent random streams of one generator run, so that changing
// one part of a spec (say, the duration distribution) leaves the draws of
// the others (the arrival times) unchanged.
enum class RandomStream : std::uint64_t {
  kArrivals = 1, kThinning, kDurations, kSilent, kInputTokens, kOutputTokens, kPrefixes,
  kTtft, kRoutes
};

// A reproducible random source: std::mt19937_64 (whose output the C++
// standard fixes) seeded from (seed, stream), with lbsim's own mappings to
// distributions (std's distributions differ between standard libraries).
class RandomSource {
 public:
  RandomSource(std::uint64_t seed, RandomStream stream);

  // Uniform in [0, 1), 53 random bits.
  double Uniform();
  // Exponential with mean `mean`.
  double Exponential(double mean);
  // Standard normal (Box-Muller, one value per two uniforms).
  double Normal();
  // Uniform index in [0, n), n > 0.
  std::uint64_t Index(std::uint64_t n);

 private:
  std::mt19937_64 engine_;
};

}  // namespace lbsim
