#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// The registration state of the Instance pool, shared by every strategy of
// a run (it changes only with trace events, never with decisions): pool
// order, alive flags, weights, qps_1m and service speeds. Per-strategy load
// (inflight) lives in each World.
class Pool {
 public:
  struct Entry {
    bool alive = false;
    // Distinguishes registrations of one id: a completion only touches the
    // registration its request was routed to.
    std::uint64_t registration = 0;
    double weight = 1.0;
    std::optional<double> qps_1m;
    double speed = 1.0;  // service speed; used only by the what-if service model
  };

  // Makes room for Instance indices below `n`.
  void Reserve(std::size_t n) {
    if (entries_.size() >= n) return;
    entries_.resize(n);
    registered_.resize(n, 0);
  }

  // Registers `i` at the end of pool order, alive, weight 1 and qps_1m
  // unknown, when it is not registered; otherwise marks it alive again in
  // its place. Returns true for a new registration.
  bool Up(InstanceIndex i);
  // Marks a registered Instance dead; it keeps its place and load fields.
  void Down(InstanceIndex i);
  // Marks a registered Instance alive again when it is dead (a Proxy's
  // heartbeat refreshing its liveness); nothing when it is alive.
  void Revive(InstanceIndex i) {
    if (!entries_[i].alive) Up(i);
  }
  // Unregisters `i`: it leaves pool order.
  void Remove(InstanceIndex i);

  // Instances with an entry: every index below it has ever been registered
  // or reserved.
  std::size_t size() const { return entries_.size(); }
  bool IsRegistered(InstanceIndex i) const {
    return i < registered_.size() && registered_[i];
  }
  Entry& at(InstanceIndex i) { return entries_[i]; }
  const Entry& at(InstanceIndex i) const { return entries_[i]; }

  // The alive Instances in pool order: the candidates of a decision.
  const std::vector<InstanceIndex>& Alive() const;
  // Changes whenever Alive() may have changed (any Up, Down or Remove).
  std::uint64_t version() const { return version_; }

 private:
  std::vector<Entry> entries_;
  // Whether each Instance is registered, apart from its entry: every
  // completion asks, and at 10,000 Instances these 10 KiB stay in cache
  // where the entries (480 KiB) do not.
  std::vector<std::uint8_t> registered_;
  std::vector<InstanceIndex> order_;  // registered, in pool order
  std::uint64_t registrations_ = 0;
  std::uint64_t version_ = 0;
  mutable std::vector<InstanceIndex> alive_;
  mutable bool alive_dirty_ = true;
};

}  // namespace lbsim
