#include "strategies/block_lru.h"

#include <algorithm>
#include <bit>

namespace lbsim {
namespace {

// Block ids are a trace's to choose (counters, hashes, multiples of a
// stride): mixed before they pick a slot (MurmurHash3's finalizer), so
// that no pattern among them crowds the table. Its top 32 bits.
std::uint32_t Hash(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x >> 32);
}

}  // namespace

std::size_t BlockLru::SlotOf(std::uint64_t block, std::uint32_t hash) const {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = hash >> shift_;; slot = (slot + 1) & mask) {
    const Entry& e = table_[slot];
    if (e.node == 0 || (e.hash == hash && nodes_[e.node - 1].block == block)) return slot;
  }
}

std::size_t BlockLru::MatchPrefix(std::span<const std::uint64_t> blocks) const {
  if (nodes_.empty()) return 0;
  std::size_t n = 0;
  while (n < blocks.size() && table_[SlotOf(blocks[n], Hash(blocks[n]))].node != 0) ++n;
  return n;
}

void BlockLru::LinkNewest(std::uint32_t n) {
  nodes_[n].newer = kNone;
  nodes_[n].older = newest_;
  if (newest_ != kNone) nodes_[newest_].newer = n;
  newest_ = n;
  if (oldest_ == kNone) oldest_ = n;
}

void BlockLru::Unlink(std::uint32_t n) {
  const Node& node = nodes_[n];
  (node.newer != kNone ? nodes_[node.newer].older : newest_) = node.older;
  (node.older != kNone ? nodes_[node.older].newer : oldest_) = node.newer;
}

void BlockLru::EraseSlot(std::size_t slot) {
  const std::size_t mask = table_.size() - 1;
  table_[slot] = {};
  for (std::size_t next = (slot + 1) & mask; table_[next].node != 0; next = (next + 1) & mask) {
    const std::size_t home = table_[next].hash >> shift_;
    // The entry at `next` may move back to `slot` unless its home lies
    // cyclically in (slot, next].
    if (((next - home) & mask) >= ((next - slot) & mask)) {
      table_[slot] = table_[next];
      table_[next] = {};
      slot = next;
    }
  }
}

void BlockLru::Rehash(std::size_t size) {
  table_.assign(size, Entry{});
  shift_ = 32 - std::countr_zero(size);
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    const std::uint32_t hash = Hash(nodes_[n].block);
    table_[SlotOf(nodes_[n].block, hash)] = {n + 1, hash};
  }
}

void BlockLru::Insert(std::span<const std::uint64_t> blocks) {
  // Node indices and hashes are 32 bits, and the table twice the nodes: at
  // most 2^31 blocks (32 GiB of nodes; more would not fit in memory).
  const std::size_t capacity = std::min<std::size_t>(capacity_, std::size_t{1} << 31);
  if (capacity == 0) return;
  if (table_.empty()) Rehash(16);
  std::uint32_t next_hash = blocks.empty() ? 0 : Hash(blocks.back());
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    const std::uint32_t hash = next_hash;
    // The next block's home slot is fetched while this one is handled.
    if (it + 1 != blocks.rend()) {
      next_hash = Hash(*(it + 1));
      __builtin_prefetch(&table_[next_hash >> shift_]);
    }
    std::size_t slot = SlotOf(*it, hash);
    if (table_[slot].node != 0) {
      const std::uint32_t n = table_[slot].node - 1;
      if (n != newest_) {
        Unlink(n);
        LinkNewest(n);
      }
      continue;
    }
    std::uint32_t n;
    if (nodes_.size() == capacity) {
      // The least recently used block gives its node to this one.
      n = oldest_;
      Unlink(n);
      EraseSlot(SlotOf(nodes_[n].block, Hash(nodes_[n].block)));
      nodes_[n].block = *it;
      slot = SlotOf(*it, hash);
    } else {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back({*it, kNone, kNone});
      if (2 * nodes_.size() > table_.size()) {
        Rehash(2 * table_.size());
        slot = SlotOf(*it, hash);
      }
    }
    table_[slot] = {n + 1, hash};
    LinkNewest(n);
  }
}

}  // namespace lbsim
