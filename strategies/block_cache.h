#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// The per-Instance KV-cache capacity, in blocks, when none is given.
inline constexpr std::size_t kDefaultCacheBlocks = 4096;

// One Instance's KV cache as a least-recently-used set of block ids with a
// fixed capacity.
class BlockCache {
 public:
  explicit BlockCache(std::size_t capacity) : capacity_(capacity) {}

  // How many leading blocks of `blocks` are cached: the count up to, not
  // including, the first block that is not.
  std::size_t MatchPrefix(std::span<const std::uint64_t> blocks) const;

  // Caches every block of `blocks`, touching them from the last to the
  // first, so the leading blocks (the most shared part of a prompt) end up
  // most recently used and the tail is evicted first. Evicts least
  // recently used blocks beyond the capacity.
  void Insert(std::span<const std::uint64_t> blocks);

  std::size_t size() const { return where_.size(); }

 private:
  std::size_t capacity_;
  std::list<std::uint64_t> recency_;  // front: most recently used
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> where_;
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
