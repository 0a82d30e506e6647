#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "strategies/hint.h"

namespace lbsim {

// One alive Instance offered to a strategy. Candidates always come in pool
// order; an unknown load field is std::nullopt, never 0.
struct Candidate {
  InstanceIndex instance = 0;
  std::string_view id;
  double weight = 1.0;
  std::optional<std::int64_t> inflight;
  std::optional<double> qps_1m;
  // Which registration of the Instance this is: it changes when the
  // Instance is removed and registered again (a fresh process), not when it
  // goes down and comes back.
  std::uint64_t registration = 0;
  // The Proxy queue model's standing snapshot entry of this Instance (its
  // counts, backlog 0), which scores read when the decision's hint has no
  // entry for it; null without the model or while the Instance is idle.
  const QueueLoad* queue = nullptr;
};

}  // namespace lbsim
