#pragma once

#include <span>

#include "strategies/hint.h"

namespace lbsim {

// Queue loads a decision reads on demand instead of from a hint's list:
// the Proxy queue model's, whose predicted backlog moves with time. At one
// decision they stand for a hint whose `queues` are, for each Instance of
// Instances(), its LoadNow, and for no other Instance.
class TimedQueueLoads {
 public:
  virtual ~TimedQueueLoads() = default;
  // The Instances the hint names, each once.
  virtual std::span<const InstanceIndex> Instances() const = 0;
  // The load the hint gives `i`, one of Instances(): every value >= 0, and
  // key by key at least the standing load of its candidate
  // (Candidate::queue; 0 where that is null or leaves a key unknown).
  virtual void LoadNow(InstanceIndex i, QueueLoad& load) const = 0;
};

}  // namespace lbsim
