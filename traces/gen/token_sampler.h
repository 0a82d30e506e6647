#pragma once

#include <cstdint>
#include <vector>

#include "traces/gen/gen_spec.h"
#include "traces/gen/random_source.h"

namespace lbsim {

// The token counts and prefix blocks of generated arrivals, one arrival at
// a time (docs/gen.md): each from its own random stream, so that changing
// one leaves the others' draws alone. Holds O(groups) state, never the
// arrivals.
class TokenSampler {
 public:
  // `spec.tokens` must be set.
  explicit TokenSampler(const GenSpec& spec);

  // Draws the next arrival's counts and, with shared prefixes on, its
  // prefix_blocks (otherwise `blocks` is left empty).
  void Next(std::uint64_t& input, std::uint64_t& output, std::vector<std::uint64_t>& blocks);

 private:
  // A draw of `dist`, rounded to the nearest integer, within [min, max].
  static std::uint64_t Draw(const TokenDist& dist, double log_median, RandomSource& random);

  TokenSpec tokens_;
  PrefixSpec prefixes_;
  double input_log_median_, output_log_median_;
  RandomSource input_, output_, prefixes_random_;
  std::vector<double> cumulative_;  // Zipf popularity of the groups, normalised
  std::uint64_t next_own_;          // the next id no other prompt has
};

}  // namespace lbsim
