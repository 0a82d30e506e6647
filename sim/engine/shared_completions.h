#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/engine/drain_wheel.h"

namespace lbsim {

// The pending completions of a plain replay (every what-if part off), kept
// once for all of its strategy runs rather than by each: an arrival with a
// duration takes a slot before the runs decide, each run that routes it
// keeps what its completion lowers under that slot (World::Decide), and
// the slot is due at the arrival's end, for every run at once. A slot
// comes back for reuse once it has been taken as due or released. Due
// slots come in no particular order, which a plain replay allows (see
// World::CompleteRouted).
class SharedCompletions {
 public:
  // A slot for an arrival, held until it is released or scheduled and due.
  std::uint32_t Take() {
    if (free_.empty()) return next_++;
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
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
    return Collect([&](auto take) { due_.Drain(bound, take); });
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

  DrainWheel<std::uint32_t> due_;
  std::vector<std::uint32_t> taken_;  // the last DueBy's or All's
  std::vector<std::uint32_t> free_;  // slots to reuse, the latest freed last
  std::uint32_t next_ = 0;           // the first slot never taken
};

}  // namespace lbsim
