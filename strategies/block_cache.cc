#include "strategies/block_cache.h"

namespace lbsim {

std::size_t BlockCache::MatchPrefix(std::span<const std::uint64_t> blocks) const {
  std::size_t n = 0;
  while (n < blocks.size() && where_.contains(blocks[n])) ++n;
  return n;
}

void BlockCache::Insert(std::span<const std::uint64_t> blocks) {
  if (capacity_ == 0) return;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    auto found = where_.find(*it);
    if (found != where_.end()) {
      recency_.splice(recency_.begin(), recency_, found->second);
      continue;
    }
    if (where_.size() == capacity_) {
      where_.erase(recency_.back());
      recency_.pop_back();
    }
    recency_.push_front(*it);
    where_.emplace(*it, recency_.begin());
  }
}

BlockCache& InstanceBlockCaches::For(InstanceIndex instance, std::uint64_t registration) {
  if (slots_.size() <= instance) slots_.resize(instance + 1, Slot{0, BlockCache(capacity_)});
  Slot& slot = slots_[instance];
  if (slot.registration != registration) slot = Slot{registration, BlockCache(capacity_)};
  return slot.cache;
}

std::size_t InstanceBlockCaches::CachedBlocks(InstanceIndex instance,
                                              std::uint64_t registration) const {
  if (instance >= slots_.size() || slots_[instance].registration != registration) return 0;
  return slots_[instance].cache.size();
}

}  // namespace lbsim
