#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lbsim {

// A least-recently-used set of block ids with a fixed capacity, kept block
// by block: BlockCache's contract for any ids. Nothing is allocated per
// block: the blocks are the nodes of one array, linked in recency order,
// found through an open-addressing table of their positions; both grow
// with the blocks cached, up to the capacity.
class BlockLru {
 public:
  explicit BlockLru(std::size_t capacity) : capacity_(capacity) {}

  // As BlockCache's.
  std::size_t MatchPrefix(std::span<const std::uint64_t> blocks) const;
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

}  // namespace lbsim
