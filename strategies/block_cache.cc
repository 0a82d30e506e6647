#include "strategies/block_cache.h"

#include <vector>

namespace lbsim {

void BlockCache::Insert(std::span<const std::uint64_t> blocks) {
  if (by_block_) {
    blocks_.Insert(blocks);
    return;
  }
  // Stopped past kRunsLimit runs, not at the prompt's end: a long prompt
  // of ids that do not count up would otherwise move its keys once a block.
  const std::size_t left = runs_.InsertUntil(blocks, kRunsLimit);
  const std::size_t runs = runs_.runs();
  if (runs <= kRunsMax || (runs <= kRunsLimit && runs_.size() >= kMinRunBlocks * runs)) return;
  // Inserting every block newest first touches them oldest first: the
  // same recency order, and nothing beyond the capacity. Then the blocks
  // left, as Insert would have touched them next.
  std::vector<std::uint64_t> newest_first;
  newest_first.reserve(runs_.size());
  runs_.AppendNewestFirst(newest_first);
  blocks_.Insert(newest_first);
  blocks_.Insert(blocks.first(left));
  runs_ = BlockRuns(0);
  by_block_ = true;
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
