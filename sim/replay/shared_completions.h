#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/replay/drain_wheel.h"
#include "strategies/hint.h"

namespace lbsim {

// What one strategy run routed an arrival to: the Instance, and its
// registration then (a completion lowers only that registration's
// counter).
struct RoutedArrival {
  InstanceIndex instance;
  std::uint64_t registration;
};

// The pending completions of a plain replay (every what-if part off), kept
// once for all of its strategy runs rather than by each: an arrival with a
// duration takes a slot before the runs decide, each run that routes it
// records where under that slot (World::Decide), and the slot is due at
// the arrival's end, for every run at once. The runs' records of a slot
// lie together, so that completing an arrival for every run reads one
// place. A slot comes back for reuse once it has been taken as due or
// released. Due slots come in no particular order, which a plain replay
// allows (see World::CompleteRouted).
class SharedCompletions {
 public:
  // The record of a run that did not route the slot's arrival.
  static constexpr InstanceIndex kNotRouted = ~InstanceIndex{0};

  // For `runs` strategy runs (at least one).
  explicit SharedCompletions(std::size_t runs = 1) : runs_(runs < 1 ? 1 : runs) {}

  // A slot for an arrival, its records all kNotRouted, held until it is
  // released or scheduled and due.
  std::uint32_t Take() {
    std::uint32_t slot;
    if (free_.empty()) {
      slot = next_++;
      routes_.resize(routes_.size() + runs_);
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    for (RoutedArrival& r : Routes(slot)) r.instance = kNotRouted;
    return slot;
  }
  // The records of `slot`, one per run in run order, valid until the next
  // Take.
  std::span<RoutedArrival> Routes(std::uint32_t slot) {
    return {routes_.data() + std::size_t{slot} * runs_, runs_};
  }
  // Hands back a slot no run routed an arrival to.
  void Release(std::uint32_t slot) { free_.push_back(slot); }
  // Makes `slot` due at `end`, which is not before the last drain's bound.
  void Schedule(double end, std::uint32_t slot) { due_.Push(end, slot); }
  // Slots scheduled and not yet due.
  std::size_t pending() const { return due_.size(); }

  // Takes every slot due by `bound` (<= bound) and frees it for reuse;
  // the span stays valid until the next call.
  std::span<const std::uint32_t> DueBy(double bound) {
    if (due_.DrainsNothing(bound)) return {};
    const std::span<const std::uint32_t> due = Collect([&](auto take) { due_.Drain(bound, take); });
    // The records of the slots due next are read an arrival or a few from
    // now, each at a random place: fetched into the cache meanwhile. Four
    // calls written out: GCC removes a loop that only prefetches.
    const std::span<const DrainWheel<std::uint32_t>::Item> next = due_.NextDue();
    auto fetch = [&](std::size_t k) {
      if (k <= next.size())
        __builtin_prefetch(routes_.data() + std::size_t{next[next.size() - k].payload} * runs_);
    };
    fetch(1);
    fetch(2);
    fetch(3);
    fetch(4);
    return due;
  }
  // Takes every scheduled slot, as DueBy does.
  std::span<const std::uint32_t> All() {
    return Collect([&](auto take) { due_.DrainAll(take); });
  }

 private:
  template <typename Drain>
  std::span<const std::uint32_t> Collect(Drain drain) {
    taken_.clear();
    drain([&](std::uint32_t slot) { taken_.push_back(slot); });
    free_.insert(free_.end(), taken_.begin(), taken_.end());
    return taken_;
  }

  std::size_t runs_;
  std::vector<RoutedArrival> routes_;  // runs_ a slot, slot by slot
  DrainWheel<std::uint32_t> due_;
  std::vector<std::uint32_t> taken_;  // the last DueBy's or All's
  std::vector<std::uint32_t> free_;  // slots to reuse, the latest freed last
  std::uint32_t next_ = 0;           // the first slot never taken
};

}  // namespace lbsim
