#pragma once

#include <cstddef>
#include <functional>
#include <queue>
#include <vector>

#include "traces/trace_reader.h"

namespace lbsim {

// Counts the requests a trace being written puts in flight (arrived, their
// duration not yet over) as a replay counts them, so that gen and import
// refuse, before writing it, a trace that replay would refuse past
// kMaxInFlight. Memory: one double per request in flight, at most
// kMaxInFlight.
class InFlightBound {
 public:
  // An arrival at `t` (not before the last one) lasting `duration`. Returns
  // false, counting nothing, when it would make more than kMaxInFlight
  // requests in flight: those that end at `t` or before have ended, as a
  // replay runs due completions before the next event.
  bool Arrive(double t, double duration) {
    while (!ends_.empty() && ends_.top() <= t) ends_.pop();
    if (ends_.size() >= kMaxInFlight) return false;
    ends_.push(t + duration);
    return true;
  }

 private:
  std::priority_queue<double, std::vector<double>, std::greater<>> ends_;
};

}  // namespace lbsim
