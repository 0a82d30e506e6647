#pragma once

#include <cstdint>
#include <deque>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "traces/gen/instance_schedule.h"

namespace lbsim {

// A Proxy running round_robin over the generated trace as it is written:
// pool order, alive flags, one round-robin counter over the alive
// Instances, and each request leaving `duration` after it arrived. Load
// reports carry its counts. Memory: the requests in flight and the
// arrivals of the last qps window, never the whole trace.
class ReferenceProxy {
 public:
  // `qps_window`: the qps_1m window in the trace's unit (60 s = 60000 ms).
  ReferenceProxy(const std::vector<std::string>& initial_ids, double qps_window);

  // Applies a registration change (the schedule has been validated).
  void Apply(const InstanceChange& change);
  // Routes one arrival at `t` (nothing when no Instance is alive).
  void Arrive(double t, double duration);
  // Runs completions due at or before `t` and forgets arrivals older than
  // the qps window before `t`.
  void AdvanceTo(double t);

  // Instances in pool order (registered ones), by index.
  const std::vector<std::uint32_t>& order() const { return order_; }
  const std::string& Id(std::uint32_t i) const { return instances_[i].id; }
  std::uint32_t IndexOf(const std::string& id) const { return index_.at(id); }
  bool Alive(std::uint32_t i) const { return instances_[i].alive; }
  bool Registered(std::uint32_t i) const { return instances_[i].registered; }
  std::int64_t Inflight(std::uint32_t i) const { return instances_[i].inflight; }
  // Arrivals per second routed to `i` over the qps window.
  double Qps(std::uint32_t i) const;

 private:
  struct Instance {
    std::string id;
    bool registered = false;
    bool alive = false;
    std::uint64_t registration = 0;
    std::int64_t inflight = 0;
    std::deque<double> recent;  // arrival times within the qps window
  };
  struct Departure {
    double end;
    std::uint32_t instance;
    std::uint64_t registration;
    bool operator>(const Departure& o) const { return end > o.end; }
  };
  std::uint32_t Intern(const std::string& id);
  void Register(std::uint32_t i);

  double qps_window_;
  std::vector<Instance> instances_;
  std::unordered_map<std::string, std::uint32_t> index_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> alive_;  // cache, rebuilt when dirty
  bool alive_dirty_ = true;
  std::uint64_t counter_ = 0;
  std::uint64_t registrations_ = 0;
  std::priority_queue<Departure, std::vector<Departure>, std::greater<>> departures_;
};

}  // namespace lbsim
