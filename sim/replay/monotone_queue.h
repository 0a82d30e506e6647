#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/replay/event_queue.h"

namespace lbsim {

// A min-priority queue of payloads ordered by EventKey, for keys that never
// run before the last key popped (a simulation's own future events: a
// completion is scheduled at or after the time it is scheduled at). Pops
// in exactly EventQueue's order.
//
// It is a radix heap with 4-bit digits: each key, packed into 128 bits
// whose order is the key's, sits in the bucket of the highest digit where
// it differs from the last key popped and of its value there. Every key of
// a lower bucket runs before every key of a higher one, so the first key
// is the least of the lowest non-empty bucket; popping it spreads the rest
// of that bucket into lower buckets. A key moves down a few times at most,
// by appends, instead of sifting through a heap's levels with comparisons
// that depend on each other; splitting each level by digit keeps the
// buckets small, so fewer keys move per pop than with one bucket per bit.
// Sequence numbers must stay below 2^62; keys must be unique.
template <typename Payload>
class MonotoneQueue {
 public:
  // Throws std::logic_error when `key` runs before the last key popped.
  void Push(EventKey key, Payload payload) {
    const Packed packed = Packed::Of(key);
    if (packed.Before(last_))
      throw std::logic_error("MonotoneQueue: a key runs before the last one popped");
    const std::size_t b = BucketOf(packed);
    buckets_[b].push_back({packed, key.time, std::move(payload)});
    Occupy(b);
    ++size_;
    if (b < first_bucket_) {
      first_bucket_ = b;
      first_index_ = buckets_[b].size() - 1;
    } else if (b == first_bucket_ && packed.Before(buckets_[b][first_index_].packed)) {
      first_index_ = buckets_[b].size() - 1;
    }
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // The key and payload of the item that runs first; not when empty().
  EventKey TopKey() const { return First().packed.Key(First().time); }
  const Payload& TopPayload() const { return First().payload; }

  // Removes that item; not when empty().
  void Pop() {
    std::vector<Item>& bucket = buckets_[first_bucket_];
    last_ = bucket[first_index_].packed;
    bucket[first_index_] = std::move(bucket.back());
    bucket.pop_back();
    --size_;
    const std::size_t word = first_bucket_ / 64;
    occupied_[word] &= ~(std::uint64_t{1} << (first_bucket_ % 64));
    if (occupied_[word] == 0) words_ &= ~(std::uint32_t{1} << word);
    // Every other key of the bucket now differs from last_ lower down.
    for (Item& item : bucket) {
      const std::size_t b = BucketOf(item.packed);
      buckets_[b].push_back(std::move(item));
      Occupy(b);
    }
    bucket.clear();
    FindFirst();
  }

 private:
  // 0 (equal), then per digit position (32, low word first) one bucket per
  // digit value (16; value 0 stays empty: a key there exceeds last_'s digit).
  static constexpr std::size_t kBuckets = 1 + 32 * 16;
  static constexpr std::size_t kWords = (kBuckets + 63) / 64;
  static constexpr std::size_t kNone = kBuckets;

  // An EventKey as two integers in the key's order.
  struct Packed {
    std::uint64_t high = 0;  // the time's bits, made monotone
    std::uint64_t low = 0;   // the class in the top two bits, then the sequence

    static Packed Of(const EventKey& key) {
      // + 0.0 turns -0.0 into 0.0: they compare equal as times.
      const auto bits = std::bit_cast<std::uint64_t>(key.time + 0.0);
      const std::uint64_t high = bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
      return {high, std::uint64_t{static_cast<std::uint8_t>(key.cls)} << 62 | key.seq};
    }
    // The key again, with its time as pushed (a -0.0 stays -0.0).
    EventKey Key(double time) const {
      return {time, static_cast<EventClass>(low >> 62), low & ((std::uint64_t{1} << 62) - 1)};
    }
    bool Before(const Packed& o) const {
      return high < o.high || (high == o.high && low < o.low);
    }
  };
  struct Item {
    Packed packed;
    double time = 0.0;
    Payload payload{};
  };

  // 0 for last_ itself; else 1 + 16 * the position of the highest
  // differing digit + the key's digit there.
  std::size_t BucketOf(const Packed& p) const {
    if (const std::uint64_t d = p.high ^ last_.high) {
      const int shift = (std::bit_width(d) - 1) & ~3;
      return 1 + 16 * 16 + 4 * static_cast<std::size_t>(shift) + ((p.high >> shift) & 15);
    }
    if (const std::uint64_t d = p.low ^ last_.low) {
      const int shift = (std::bit_width(d) - 1) & ~3;
      return 1 + 4 * static_cast<std::size_t>(shift) + ((p.low >> shift) & 15);
    }
    return 0;
  }
  // Marks buckets_[b] not empty.
  void Occupy(std::size_t b) {
    occupied_[b / 64] |= std::uint64_t{1} << (b % 64);
    words_ |= std::uint32_t{1} << (b / 64);
  }

  const Item& First() const { return buckets_[first_bucket_][first_index_]; }

  // Points first_bucket_ and first_index_ at the least key.
  void FindFirst() {
    if (words_ == 0) {
      first_bucket_ = kNone;
      return;
    }
    const int word = std::countr_zero(words_);
    first_bucket_ = 64 * static_cast<std::size_t>(word) + std::countr_zero(occupied_[word]);
    const std::vector<Item>& bucket = buckets_[first_bucket_];
    first_index_ = 0;
    for (std::size_t i = 1; i < bucket.size(); ++i)
      if (bucket[i].packed.Before(bucket[first_index_].packed)) first_index_ = i;
  }

  std::array<std::vector<Item>, kBuckets> buckets_;
  std::array<std::uint64_t, kWords> occupied_{};  // bit b: buckets_[b] is not empty
  std::uint32_t words_ = 0;                        // bit w: occupied_[w] is not 0
  Packed last_;                              // the last key popped
  std::size_t size_ = 0;
  std::size_t first_bucket_ = kNone;
  std::size_t first_index_ = 0;
};

}  // namespace lbsim
