#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// The per-Instance KV-cache capacity, in blocks, when none is given.
inline constexpr std::size_t kDefaultCacheBlocks = 4096;

// One Instance's KV cache as a least-recently-used set of block ids with a
// fixed capacity. Nothing is allocated per block: the blocks are the nodes
// of one array, linked in recency order, found through an open-addressing
// table of their positions; both grow with the blocks cached, up to the
// capacity.
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

  std::size_t size() const { return nodes_.size(); }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  // A cached block, linked to the blocks used just before and after it.
  struct Node {
    std::uint64_t block;
    std::uint32_t newer, older;
  };

  // The table slot where `block` (of hash `hash`, see Hash) is, or the
  // empty one where it would go.
  std::size_t SlotOf(std::uint64_t block, std::uint32_t hash) const;
  // Links node `n` in as the most recently used.
  void LinkNewest(std::uint32_t n);
  // Takes node `n` out of the recency order.
  void Unlink(std::uint32_t n);
  // Empties table slot `slot`, moving the entries after it that probed
  // past it back (linear probing's deletion, which leaves no tombstone).
  void EraseSlot(std::size_t slot);
  // Rebuilds the table at `size` slots (a power of two) from the nodes.
  void Rehash(std::size_t size);

  std::size_t capacity_;
  std::vector<Node> nodes_;
  std::uint32_t newest_ = kNone, oldest_ = kNone;
  // A table slot: node index + 1 (0: empty) and the top 32 bits of its
  // block's hash, which say where it belongs without reading the node.
  struct Entry {
    std::uint32_t node = 0;
    std::uint32_t hash = 0;
  };
  // At most half full.
  std::vector<Entry> table_;
  int shift_ = 32;  // 32 - log2(table_.size()): a hash's top bits are its home
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
