#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "strategies/block_lru.h"
#include "strategies/block_runs.h"
#include "strategies/hint.h"

namespace lbsim {

// The per-Instance KV-cache capacity, in blocks, when none is given.
inline constexpr std::size_t kDefaultCacheBlocks = 4096;

// One Instance's KV cache as a least-recently-used set of block ids with a
// fixed capacity. It starts as runs of consecutive ids (BlockRuns), which
// cost per run where a prompt's ids count up; once its runs are many and
// short (ids that mostly do not count up, such as hashes), or too many
// whatever they hold, it moves, for good and with the same blocks in the
// same order, to one node per block (BlockLru), whose cost does not depend
// on the ids.
class BlockCache {
 public:
  // A cache holding more than kRunsMax runs moves when they hold fewer
  // than kMinRunBlocks blocks each on average, and past kRunsLimit runs in
  // any case: a run's key is inserted into a sorted array, so an insertion
  // moves up to that many keys.
  static constexpr std::size_t kRunsMax = 512;
  static constexpr std::size_t kMinRunBlocks = 4;
  static constexpr std::size_t kRunsLimit = 1024;

  explicit BlockCache(std::size_t capacity) : runs_(capacity), blocks_(capacity) {}

  // How many leading blocks of `blocks` are cached: the count up to, not
  // including, the first block that is not.
  std::size_t MatchPrefix(std::span<const std::uint64_t> blocks) const {
    return by_block_ ? blocks_.MatchPrefix(blocks) : runs_.MatchPrefix(blocks);
  }

  // Caches every block of `blocks`, touching them from the last to the
  // first, so the leading blocks (the most shared part of a prompt) end up
  // most recently used and the tail is evicted first. Evicts least
  // recently used blocks beyond the capacity.
  void Insert(std::span<const std::uint64_t> blocks);

  std::size_t size() const { return by_block_ ? blocks_.size() : runs_.size(); }
  // The blocks are kept one node per block (BlockLru), not as runs.
  bool by_block() const { return by_block_; }

 private:
  BlockRuns runs_;   // until by_block_
  BlockLru blocks_;  // once by_block_
  bool by_block_ = false;
};

// The KV caches of every Instance, each belonging to one registration: an
// Instance removed and registered again starts with an empty cache, one
// that only went down and came back keeps its cache.
class InstanceBlockCaches {
 public:
  explicit InstanceBlockCaches(std::size_t capacity) : capacity_(capacity) {}

  // The cache of `instance` as registration `registration` (empty when
  // that registration has none yet).
  BlockCache& For(InstanceIndex instance, std::uint64_t registration);

  // Blocks cached by `instance` as registration `registration`.
  std::size_t CachedBlocks(InstanceIndex instance, std::uint64_t registration) const;

  std::size_t capacity() const { return capacity_; }
  // One more than the highest Instance index that ever had a cache.
  std::size_t instances() const { return slots_.size(); }

 private:
  struct Slot {
    std::uint64_t registration = 0;
    BlockCache cache;
  };
  std::size_t capacity_;
  std::vector<Slot> slots_;  // indexed by InstanceIndex
};

}  // namespace lbsim
