#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lbsim {

// A least-recently-used set of block ids with a fixed capacity, kept as
// runs of consecutive ids: BlockCache's contract, at a cost per run rather
// than per block. A prompt whose ids count up (as Mooncake's hash_ids and
// `lbsim gen --prefixes` number a prompt's blocks) is touched from its last
// block to its first, so its blocks end up in recency order lowest id
// newest: one run [lo, hi], found by its lowest id in a sorted array.
// Ids that do not count up make a run each, which this class still serves
// exactly but slowly; BlockCache moves such a cache to a BlockLru.
class BlockRuns {
 public:
  // How many more vacant key slots than runs an insertion leaves at most.
  static constexpr std::size_t kVacantSlack = 16;

  explicit BlockRuns(std::size_t capacity) : capacity_(capacity) {}

  // As BlockCache's.
  std::size_t MatchPrefix(std::span<const std::uint64_t> blocks) const;
  void Insert(std::span<const std::uint64_t> blocks) { InsertUntil(blocks, kAnyRuns); }
  // Insert, stopped once more than `max_runs` runs hold the blocks: how
  // many leading blocks of `blocks` are left to insert (0: none).
  std::size_t InsertUntil(std::span<const std::uint64_t> blocks, std::size_t max_runs);

  std::size_t size() const { return size_; }
  // How many runs hold the blocks.
  std::size_t runs() const { return keys_.size() - vacant_keys_; }
  // How many key slots there are, vacant ones included: after each
  // insertion, at most twice runs() and kVacantSlack more.
  std::size_t key_slots() const { return keys_.size(); }
  // Appends the cached blocks to `out`, most recently used first.
  void AppendNewestFirst(std::vector<std::uint64_t>& out) const;

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::size_t kAnyRuns = ~std::size_t{0};

  // Blocks lo..hi, lo the most recently used of them and hi the least,
  // linked to the runs used just before and after it.
  struct Run {
    std::uint64_t lo, hi;
    std::uint32_t newer, older;
  };

  // Caches lo..hi as the newest run (lo newest), taking them out of the
  // runs that hold any of them.
  void Touch(std::uint64_t lo, std::uint64_t hi);
  // Evicts the least recently used blocks beyond the capacity.
  void Evict();
  // The position in keys_ of the run holding `block`, or else the number
  // of keys up to `block` (the first key above it, which may be vacant).
  std::size_t KeyAtOrAfter(std::uint64_t block) const;
  // A run record for lo..hi, linked nowhere yet.
  std::uint32_t NewRun(std::uint64_t lo, std::uint64_t hi);
  // Drops run `r`, freeing its key at keys_[k] (the key stays, as a bound).
  void DropRun(std::uint32_t r, std::size_t k);
  // Puts key `lo` of run `r` before keys_[k] (k: keys_.size() for after
  // the last), in the vacant slot just before it if there is one, else
  // moving the keys up to the next vacant slot, else the keys above;
  // returns its position.
  std::size_t InsertKey(std::size_t k, std::uint64_t lo, std::uint32_t r);
  bool Vacant(std::size_t k) const { return key_runs_[k] == kNone; }
  // Drops every vacant slot (Evict calls it once they outnumber the runs
  // by more than kVacantSlack).
  void Compact();
  void LinkNewest(std::uint32_t r);
  // Links `r` just older than `at`.
  void LinkOlderThan(std::uint32_t at, std::uint32_t r);
  void Unlink(std::uint32_t r);

  std::size_t capacity_;
  std::size_t size_ = 0;  // blocks cached
  std::vector<Run> runs_;  // records; free ones listed in free_
  std::vector<std::uint32_t> free_;
  std::uint32_t newest_ = kNone, oldest_ = kNone;
  // The runs' lowest ids, ascending, and their records (runs never
  // overlap). A dropped run leaves its slot vacant (record kNone) until a key
  // is put there or Compact drops it, so that dropping moves no keys; a
  // vacant slot's key is a bound that keeps keys_ non-decreasing.
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> key_runs_;
  std::size_t vacant_keys_ = 0;
};

}  // namespace lbsim
