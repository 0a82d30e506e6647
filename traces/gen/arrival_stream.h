#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "traces/gen/gen_spec.h"
#include "traces/gen/random_source.h"

namespace lbsim {

// The arrival times of a generated trace, one at a time, in order: a
// Poisson process at the spec's rate (shaped by its on/off or diurnal curve
// by thinning) merged with its bursts, stopped by `arrivals` or `until`.
// Holds O(bursts) state: never the arrivals themselves.
class ArrivalStream {
 public:
  explicit ArrivalStream(const GenSpec& spec);

  bool done() const { return done_; }
  // The next arrival's time, rounded as the trace writes it.
  double time() const { return time_; }
  // Moves to the following arrival.
  void Pop();

 private:
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  struct BurstCursor {
    Burst burst;
    std::uint64_t next = 0;  // index of its next arrival
    double Time() const {
      return burst.at + burst.over * static_cast<double>(next) / static_cast<double>(burst.count);
    }
  };
  // The Poisson rate at `t`.
  double Rate(double t) const;
  // Advances the Poisson process to its next accepted arrival.
  void AdvancePoisson();
  // Picks the earlier source as the next arrival, or ends the stream.
  void Settle();

  const GenSpec& spec_;
  RandomSource gaps_;
  RandomSource thinning_;
  double peak_rate_;
  double poisson_ = 0.0;  // raw time of the next Poisson arrival; kNever when none
  std::vector<BurstCursor> bursts_;
  std::size_t from_burst_ = 0;  // source of time_: a burst index, or bursts_.size()
  std::uint64_t emitted_ = 0;
  double time_ = 0.0;
  bool done_ = false;
};

// Request durations drawn from the spec's distribution, rounded as written.
class DurationSampler {
 public:
  explicit DurationSampler(const GenSpec& spec);
  // Draws from `dist` on random stream `stream` instead.
  DurationSampler(const DurationSpec& dist, std::uint64_t seed, RandomStream stream);
  double Next();

 private:
  DurationSpec spec_;
  double log_median_;  // lognormal: mu = ln(mean) - sigma^2 / 2
  RandomSource random_;
};

}  // namespace lbsim
