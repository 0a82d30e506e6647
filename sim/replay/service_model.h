#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "sim/replay/latency_recorder.h"
#include "sim/replay/level_tracker.h"
#include "strategies/hint.h"

namespace lbsim {

// The what-if service model of one strategy run: each Instance runs at most
// `slots` requests at once and the rest wait in FIFO order. A request routed
// at time a that starts at time s on an Instance of speed v, with duration
// d, is served for d / v: it ends at s + d / v, waited s - a, and its latency
// is (s - a) + d / v. The model belongs to the Instance id: a request keeps
// its slot or its place in the queue when the Instance goes down or is
// removed (routed requests still complete).
class ServiceModel {
 public:
  // A request that started service: when it ends, and the registration it
  // was routed to (the caller's tag, handed back untouched).
  struct Started {
    double end = 0.0;
    std::uint64_t registration = 0;
  };

  // `keep_arrivals`: also keep each served request's arrival time, for
  // per-window latency summaries.
  explicit ServiceModel(std::uint32_t slots, bool keep_arrivals = false)
      : slots_(slots), latencies_(keep_arrivals) {}

  // A request routed to `i` at `t`. Starts it at `t` when a slot is free
  // and returns its end; otherwise queues it and returns nullopt.
  std::optional<Started> Admit(InstanceIndex i, double t, double duration,
                               double speed, std::uint64_t registration);
  // A request on `i` ended at `t`: frees its slot, and starts the request
  // that waited longest, at `speed`, returning its end; nullopt when none
  // waits.
  std::optional<Started> Release(InstanceIndex i, double t, double speed);
  // Accrues busy-slot time up to `t`, the end of the run.
  void CloseAt(double t);

  std::uint32_t slots() const { return slots_; }
  std::size_t Waiting(InstanceIndex i) const {
    return i < queues_.size() ? queues_[i].size() : 0;
  }
  const LatencyRecorder& latencies() const { return latencies_; }
  // Busy slots per Instance over time (utilisation = area / (slots x span)).
  const LevelTracker& busy() const { return busy_; }

 private:
  struct Waiter {
    double arrival;
    double duration;
    std::uint64_t registration;
  };
  Started Begin(InstanceIndex i, double now, const Waiter& w, double speed);

  std::uint32_t slots_;
  std::vector<std::deque<Waiter>> queues_;
  LevelTracker busy_;
  LatencyRecorder latencies_;
};

}  // namespace lbsim
