#include "sim/replay/kv_cache.h"

namespace lbsim {

KvCache::KvCache(std::uint64_t blocks, std::uint64_t unit_blocks)
    : blocks_(blocks), unit_blocks_(unit_blocks) {}

void KvCache::Link(std::uint32_t slot) {
  Unit& u = units_[slot];
  u.prev = tail_;
  u.next = kNone;
  if (tail_ != kNone) units_[tail_].next = slot;
  else head_ = slot;
  tail_ = slot;
  ++evictable_;
}

void KvCache::Unlink(std::uint32_t slot) {
  Unit& u = units_[slot];
  if (u.prev != kNone) units_[u.prev].next = u.next;
  else head_ = u.next;
  if (u.next != kNone) units_[u.next].prev = u.prev;
  else tail_ = u.prev;
  u.prev = u.next = kNone;
  --evictable_;
}

void KvCache::Ref(std::uint32_t slot) {
  if (units_[slot].refs++ == 0) Unlink(slot);
}

void KvCache::Unref(std::uint32_t slot) {
  if (--units_[slot].refs == 0) Link(slot);
}

void KvCache::Evict() {
  const std::uint32_t slot = head_;
  Unlink(slot);
  index_.Erase(units_[slot].id);
  free_slots_.push_back(slot);
  --resident_;
  ++evictions_;
}

bool KvCache::Allocate(std::uint64_t n) {
  if (n == 0) return true;
  if (n > Available()) return false;
  while (blocks_ - used() < n) Evict();
  private_ += n;
  return true;
}

std::uint32_t KvCache::Publish(std::uint64_t unit) {
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(units_.size());
    units_.emplace_back();
  }
  units_[slot] = Unit{unit, 1, kNone, kNone};
  index_.Insert(unit, slot);
  private_ -= unit_blocks_;
  ++resident_;
  return slot;
}

}  // namespace lbsim
