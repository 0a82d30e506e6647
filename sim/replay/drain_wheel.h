#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/replay/drain_queue.h"

namespace lbsim {

// A DrainQueue with a ring of equal time slots in front: the same contract
// (Push at or after the last bound; Drain(bound) takes every item whose
// time is <= bound, in no particular order), cheaper when items are due a
// similar distance after the bound they are pushed at. A near item sits in
// the slot floor(time / width), whose items are kept together in one
// array: a drain takes the slots it passed wholesale, and sorts the bound's
// own slot by time (merging in what was pushed to it since), so that the
// drains after it in that slot take its items from the earliest on.
// Farther items wait in a DrainQueue and come into the ring as it
// advances. The width (a power of two) is chosen from the distances pushed
// past the ring, and chosen again, moving every item, when most pushes go
// past the ring (coarser) or drains keep merging new items into a crowded
// slot (finer); a rebuild waits for as many such pushes or merged items as
// there are items, so it costs O(1) per push or merged item in the long
// run.
//
// slot(t) = floor(t * 2^-exp) is monotone in t. Invariants, with base_ the
// slot of the last bound: ring items have times <= far_edge_ and slots in
// [base_, base_ + kSlots); far items have times > far_edge_; the first
// sorted_ items of slot base_ are in order, the latest first. So a bound in
// slot s has every ring item of a slot below s due, and no far item due
// unless it is after far_edge_. A refill to slot F moves the far items up
// to F * 2^exp, whose slots are <= F.
template <typename Payload>
class DrainWheel {
 public:
  // A pushed payload and its time.
  struct Item {
    double time;
    Payload payload;
  };

  // Throws std::logic_error when `time` is below the last drain's bound.
  // `time` is not NaN.
  void Push(double time, Payload payload) {
    if (time < bound_)
      throw std::logic_error("DrainWheel: a time falls before the last bound drained");
    ++size_;
    ++pushes_;
    if (time < next_due_) next_due_ = time;
    if (active_) {
      if (time <= far_edge_) {
        // At or after the last bound: its slot is >= base_.
        Put(Index(SlotOf(time * scale_)), Item{time, std::move(payload)});
        return;
      }
    }
    PushFar(time, std::move(payload));
  }

  // The items that fall due next, as far as the bound's slot has them in
  // order: the latest first, the earliest last (a look ahead, for
  // prefetching what their payloads name).
  std::span<const Item> NextDue() const {
    if (!active_) return {};
    return {ring_[Index(base_)].data(), sorted_};
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // Items the ring's arrays (its slots', its spares' and the merge's) have
  // room for: its memory beside the far items.
  std::size_t room() const {
    std::size_t room = merging_.capacity();
    for (const std::vector<Item>& items : ring_) room += items.capacity();
    for (const std::vector<Item>& items : spares_) room += items.capacity();
    return room;
  }

  // Drain's common case, small enough to inline where drains are asked
  // for: when no item can be due by `bound`, does what Drain(bound) would
  // (records the bound) and returns true; otherwise changes nothing.
  bool DrainsNothing(double bound) {
    if (bound < bound_) return true;
    if (bound >= next_due_) return false;
    bound_ = bound;
    return true;
  }

  // Calls `apply(payload)` for, and removes, every item whose time is <=
  // `bound` (as doubles compare: -0.0 equals 0.0). A bound below the last
  // one drains nothing. `apply` must not Push.
  template <typename Apply>
  void Drain(double bound, Apply&& apply) {
    // Nothing is due before the earliest time an item may have: most
    // drains end here when bounds come closer together than item times.
    if (DrainsNothing(bound)) return;
    bound_ = bound;
    if (active_) {
      const double x = bound * scale_;
      if (x < kSlotLimit) {
        DrainRing(SlotOf(x), bound, apply);
        return;
      }
      // Past any slot: every ring item is due.
      DrainAllRing(apply);
      active_ = false;
    }
    far_.Drain(bound, [&](Item& item) {
      --size_;
      apply(item.payload);
    });
    next_due_ = size_ == 0 ? INFINITY : bound;  // the items left are after `bound`
  }

  // Calls `apply(payload)` for, and removes, every item. `apply` must not
  // Push.
  template <typename Apply>
  void DrainAll(Apply&& apply) {
    DrainAllRing(apply);
    far_.DrainAll([&](Item& item) { apply(item.payload); });
    size_ = 0;
    next_due_ = INFINITY;
  }

 private:
  static constexpr std::size_t kSlots = 1024;
  static constexpr std::size_t kWords = kSlots / 64;
  // Slot numbers stay within +-2^52, where every integer is a double.
  static constexpr double kSlotLimit = 4503599627370496.0;  // 2^52
  // A bound's slot holding more items than this, when a drain merges new
  // ones into them, is too wide.
  static constexpr std::size_t kCrowded = 32;
  // Pushes between two choices of the width, at least.
  static constexpr std::uint64_t kMinPushes = 1024;
  // Room for this many items a slot keeps when emptied, at most.
  static constexpr std::size_t kKeptRoom = 64;
  // Emptied slots' arrays kept for slots that fill, at most.
  static constexpr std::size_t kSpares = 8;

  // The order of a sorted slot: later times first, so that the earliest
  // are taken from the back.
  struct Later {
    bool operator()(const Item& a, const Item& b) const { return a.time > b.time; }
  };

  // floor(x) for |x| < kSlotLimit, which every slot number computed here
  // is: a conversion and a compare, where std::floor is a libm call on
  // baseline x86-64 (no rounding instruction), once per push and drain.
  static std::int64_t SlotOf(double x) {
    const auto toward_zero = static_cast<std::int64_t>(x);
    return toward_zero - (static_cast<double>(toward_zero) > x);
  }
  static std::size_t Index(std::int64_t slot) {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(slot) & (kSlots - 1));
  }
  // Appends `item` to ring slot `i`; a slot without room takes a spare
  // array's.
  void Put(std::size_t i, Item&& item) {
    std::vector<Item>& items = ring_[i];
    if (items.capacity() == 0 && !spares_.empty()) {
      items.swap(spares_.back());
      spares_.pop_back();
    }
    items.push_back(std::move(item));
    occupied_[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  // Empties ring slot `i` (leaving its occupied bit to the caller). Room
  // for kKeptRoom items or fewer stays with the slot. More becomes a spare,
  // for the next slot that fills (the slots filling as others empty, time
  // after time), unless there are kSpares already or it is far more than a
  // slot holds on average: the ring's memory follows the items it holds,
  // not the most one slot ever held, nor every slot's most.
  void Clear(std::size_t i) {
    std::vector<Item>& items = ring_[i];
    items.clear();
    if (items.capacity() <= kKeptRoom) return;
    if (spares_.size() < kSpares && items.capacity() <= size_ / (kSlots / 32))
      spares_.push_back(std::move(items));  // leaves the slot without room
    else
      std::vector<Item>().swap(items);
  }
  // Calls `apply(payload)` for, and removes, every item of ring slot `i`
  // (leaving its occupied bit to the caller).
  template <typename Apply>
  void DrainSlot(std::size_t i, Apply& apply) {
    for (Item& item : ring_[i]) apply(item.payload);
    size_ -= ring_[i].size();
    Clear(i);
  }

  void PushFar(double time, Payload&& payload) {
    const double distance = time - bound_;
    if (distance > 0.0 && distance < kSlotLimit) {
      distance_sum_ += distance;
      ++distances_;
    }
    far_.Push(time, Item{time, std::move(payload)});
    ++far_pushes_;
    // Most pushes go past the ring (or there is none yet): choose again,
    // coarser.
    if (pushes_ >= kMinPushes && pushes_ >= size_ && 4 * far_pushes_ >= 3 * pushes_)
      Rebuild(active_ ? 2 : 0);
  }

  template <typename Apply>
  void DrainRing(std::int64_t slot, double bound, Apply& apply) {
    if (bound > far_edge_) {
      // Every ring item (at or before far_edge_) and some far ones are due.
      DrainAllRing(apply);
      far_.Drain(bound, [&](Item& item) {
        --size_;
        apply(item.payload);
      });
      base_ = slot;
      far_edge_ = bound;
      far_floor_ = slot;
      Refill();
      next_due_ = size_ == 0 ? INFINITY : bound;  // the items left are after `bound`
      return;
    }
    // Slots [base_, slot) wholesale, then `slot` split.
    const std::int64_t whole = slot - base_ < static_cast<std::int64_t>(kSlots)
                                   ? slot - base_
                                   : static_cast<std::int64_t>(kSlots);
    for (std::int64_t s = base_; s < base_ + whole; ++s) {
      const std::size_t i = Index(s);
      const std::uint64_t bit = std::uint64_t{1} << (i % 64);
      if ((occupied_[i / 64] & bit) == 0) continue;
      occupied_[i / 64] &= ~bit;
      DrainSlot(i, apply);
    }
    if (slot != base_) sorted_ = 0;
    base_ = slot;
    const std::size_t i = Index(slot);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    double kept_min = INFINITY;  // the earliest time `slot` keeps
    if (occupied_[i / 64] & bit) {
      std::vector<Item>& items = ring_[i];
      // Sorts what was put since the last drain and merges it in.
      bool merged = false;
      if (items.size() > sorted_) {
        const auto fresh = items.begin() + static_cast<std::ptrdiff_t>(sorted_);
        std::sort(fresh, items.end(), Later{});
        if (sorted_ > 0) {
          merging_.clear();
          std::merge(items.begin(), fresh, fresh, items.end(), std::back_inserter(merging_),
                     Later{});
          items.swap(merging_);
          remerged_ += sorted_;
          merged = true;
        }
      }
      // The due items, from the earliest on (apply does not Push).
      while (!items.empty() && items.back().time <= bound) {
        apply(items.back().payload);
        items.pop_back();
        --size_;
      }
      sorted_ = items.size();
      if (items.empty()) {
        occupied_[i / 64] &= ~bit;
        Clear(i);
      } else {
        kept_min = items.back().time;
        // Items merged again and again: the slots are too wide. Choosing
        // again costs as much as the merges since the last choice.
        if (merged && items.size() > kCrowded && remerged_ >= kMinPushes && remerged_ >= size_) {
          Rebuild(-4);
          next_due_ = bound;  // the items left are after `bound`
          return;
        }
      }
    }
    if (far_floor_ - base_ < static_cast<std::int64_t>(kSlots / 2)) Refill();
    FindNextDue(kept_min);
  }

  // Sets next_due_ after a ring drain whose bound's slot (base_) keeps
  // items from `kept_min` on: far items come after far_edge_, and those of
  // a later ring slot no earlier than its start, so the first occupied one
  // bounds them all. That start is exact: slot * 2^exp_ is a power-of-two
  // scaling of an integer below 2^52, neither overflowing (the items in it
  // are finite) nor subnormal (|exp_| <= 1000).
  void FindNextDue(double kept_min) {
    if (size_ == 0) {
      next_due_ = INFINITY;
      return;
    }
    double due = kept_min < far_edge_ ? kept_min : far_edge_;
    // Ring slots after base_ in order, a word of occupied bits at a time. A
    // bit read past the last of them can only be base_'s own (the ring
    // wraps there), whose items kept_min covers.
    std::int64_t slot = base_ + 1;
    for (std::size_t seen = 0; seen < kSlots - 1;) {
      const std::size_t i = Index(slot);
      const std::uint64_t bits = occupied_[i / 64] >> (i % 64);
      if (bits != 0) {
        const double start = static_cast<double>(slot + std::countr_zero(bits)) * width_;
        due = start < due ? start : due;
        break;
      }
      slot += static_cast<std::int64_t>(64 - i % 64);
      seen += 64 - i % 64;
    }
    next_due_ = due;
  }

  // Moves the far items of slots below base_ + kSlots - 1 into the ring.
  void Refill() {
    const std::int64_t floor = base_ + static_cast<std::int64_t>(kSlots) - 1;
    if (floor >= static_cast<std::int64_t>(kSlotLimit)) return;
    // floor * 2^exp_ is exact, so a time at or before it has a slot <=
    // floor (a ring slot), one after it a slot >= floor.
    const double edge = std::ldexp(static_cast<double>(floor), exp_);
    if (!std::isfinite(edge)) return;
    far_edge_ = edge;
    far_.Drain(far_edge_, [&](Item& item) {
      const double time = item.time;
      Put(Index(SlotOf(time * scale_)), std::move(item));
    });
    far_floor_ = floor;
  }

  template <typename Apply>
  void DrainAllRing(Apply& apply) {
    for (std::size_t w = 0; w < kWords; ++w) {
      for (std::uint64_t due = occupied_[w]; due != 0; due &= due - 1)
        DrainSlot(64 * w + std::countr_zero(due), apply);
      occupied_[w] = 0;
    }
    sorted_ = 0;
  }

  // Chooses the width again (from the mean distance pushed, then `shift`
  // times finer or coarser by powers of two) and puts every item back.
  void Rebuild(int shift) {
    std::vector<Item> items;
    items.reserve(size_);
    for (std::size_t w = 0; w < kWords; ++w) {
      for (std::uint64_t due = occupied_[w]; due != 0; due &= due - 1) {
        const std::size_t i = 64 * w + std::countr_zero(due);
        for (Item& item : ring_[i]) items.push_back(std::move(item));
        ring_[i].clear();
      }
      occupied_[w] = 0;
    }
    sorted_ = 0;
    far_.DrainAll([&](Item& item) { items.push_back(std::move(item)); });
    far_ = DrainQueue<Item>();
    int exp = exp_ + shift;
    if (distances_ > 0) {
      // The mean distance spans about kSlots / 8 slots.
      const int chosen = std::ilogb(distance_sum_ / static_cast<double>(distances_)) - 7;
      exp = shift < 0 ? std::min(exp, chosen) : shift > 0 ? std::max(exp, chosen) : chosen;
    }
    exp_ = exp < -1000 ? -1000 : exp > 1000 ? 1000 : exp;
    scale_ = std::ldexp(1.0, -exp_);
    width_ = std::ldexp(1.0, exp_);
    pushes_ = far_pushes_ = distances_ = remerged_ = 0;
    distance_sum_ = 0.0;
    const double x = bound_ * scale_;
    active_ = x < kSlotLimit && x > -kSlotLimit;
    if (active_) {
      base_ = SlotOf(x);
      far_floor_ = base_;
      far_edge_ = bound_;
    }
    far_.Drain(bound_, [](Item&) {});  // nothing is due: sets far_'s bound
    for (Item& item : items) far_.Push(item.time, std::move(item));
    if (active_) Refill();
  }

  // Ring slot i's items, in the order put but for slot base_'s first
  // sorted_ (see the invariants).
  std::array<std::vector<Item>, kSlots> ring_;
  std::size_t sorted_ = 0;
  std::vector<Item> merging_;  // room for merging new items into slot base_'s
  // Arrays emptied slots gave up, holding no items, each with room for
  // more than kKeptRoom; at most kSpares.
  std::vector<std::vector<Item>> spares_;
  std::array<std::uint64_t, kWords> occupied_{};  // bit i: slot i is not empty
  DrainQueue<Item> far_;
  bool active_ = false;  // the ring is in use (a width is chosen)
  int exp_ = 0;          // the slot width is 2^exp_
  double scale_ = 1.0;   // 2^-exp_
  double width_ = 1.0;   // 2^exp_
  std::int64_t base_ = 0;       // the slot of the last bound
  // far_ holds the items after far_edge_, whose slots are >= far_floor_;
  // the ring those at or before it.
  std::int64_t far_floor_ = 0;
  double far_edge_ = -INFINITY;
  double bound_ = -INFINITY;    // the last bound
  // No item's time is before this (+inf when there is none); a bound below
  // it has nothing due.
  double next_due_ = INFINITY;
  std::size_t size_ = 0;
  // Since the last choice of the width: pushes, those that went to far_,
  // the sorted items of the bound's slot merged again (with new ones),
  // and the positive distances pushed to far_ (sum and count).
  std::uint64_t pushes_ = 0;
  std::uint64_t far_pushes_ = 0;
  std::uint64_t remerged_ = 0;
  double distance_sum_ = 0.0;
  std::uint64_t distances_ = 0;
};

}  // namespace lbsim
