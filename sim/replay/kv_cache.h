#pragma once

#include <cstdint>
#include <vector>

#include "sim/replay/unit_index.h"

namespace lbsim {

// One Instance's KV cache in the LLM engine model (docs/engine.md): a pool
// of `blocks` blocks. Requests hold private blocks; a prefix unit (the
// tokens of one `prefix_blocks` id, `unit_blocks` blocks) is resident once
// a request computed it, shared by reference, and when no request holds it
// any more it stays cached, evictable, least recently released first.
// Allocation takes free blocks first, then evicts. Memory is bounded by the
// number of units that fit.
class KvCache {
 public:
  KvCache(std::uint64_t blocks, std::uint64_t unit_blocks);

  std::uint64_t capacity() const { return blocks_; }
  // Blocks holding something: private blocks and resident units.
  std::uint64_t used() const { return private_ + resident_ * unit_blocks_; }
  // Blocks that requests hold (used() without the evictable units): the
  // cache's utilisation.
  std::uint64_t held() const { return used() - evictable_ * unit_blocks_; }
  std::uint64_t evictions() const { return evictions_; }
  // Blocks an allocation can get: free ones and those of evictable units.
  std::uint64_t Available() const { return blocks_ - held(); }

  // A resident unit is known by its slot, stable while it is resident;
  // kNone is no slot (Find's answer for a unit not resident).
  static constexpr std::uint32_t kNone = UnitIndex::kNone;
  // The slot of `unit`, or kNone when it is not resident.
  std::uint32_t Find(std::uint64_t unit) const { return index_.Find(unit); }
  // References on the resident unit in `slot`.
  std::uint32_t Refs(std::uint32_t slot) const { return units_[slot].refs; }
  // Takes a reference on the resident unit in `slot` (an evictable one
  // stops being so).
  void Ref(std::uint32_t slot);
  // Drops a reference; at none left the unit becomes the most recently
  // released evictable unit.
  void Unref(std::uint32_t slot);

  // Allocates `n` private blocks, evicting the least recently released
  // units while free blocks are short; false, with nothing changed, when
  // n > Available().
  bool Allocate(std::uint64_t n);
  // Frees `n` private blocks.
  void Free(std::uint64_t n) { private_ -= n; }
  // Makes `unit` (not resident) resident with one reference, out of
  // unit_blocks private blocks its computing request already holds; its slot.
  std::uint32_t Publish(std::uint64_t unit);

 private:
  struct Unit {
    std::uint64_t id = 0;
    std::uint32_t refs = 0;
    std::uint32_t prev = kNone, next = kNone;  // the evictable list, when refs == 0
  };
  void Link(std::uint32_t slot);    // at the tail: most recently released
  void Unlink(std::uint32_t slot);
  void Evict();                     // the head: least recently released

  std::uint64_t blocks_, unit_blocks_;
  std::uint64_t private_ = 0, resident_ = 0, evictable_ = 0, evictions_ = 0;
  UnitIndex index_;  // unit id -> slot
  std::vector<Unit> units_;
  std::vector<std::uint32_t> free_slots_;
  std::uint32_t head_ = kNone, tail_ = kNone;
};

}  // namespace lbsim
