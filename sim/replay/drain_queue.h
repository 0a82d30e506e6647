#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lbsim {

// A bag of payloads keyed by time, for times that never fall before the
// last drain's bound (a simulation's own future events), from which
// Drain(bound) takes every payload whose time is <= bound, in no particular
// order. For the events whose effects commute between two trace events,
// where only the set that is due matters, not the order it runs in.
//
// It is a radix heap over the time alone, with 4-bit digits: each time, as
// 64 bits whose order is the time's, sits in the bucket of the highest
// digit where it differs from last_ (the last bound) and of its value
// there (bucket 0: equal to last_). Buckets run in bound order: say the
// bound sits in bucket B, at digit position p with value v. A key of a
// lower bucket differs from last_ only below p, or at p with a value
// below v, so it is below the bound: every such bucket is due wholesale,
// without comparisons. A key of a higher bucket differs from last_ above p
// (where the bound equals last_), or at p with a value above v, so it
// exceeds the bound; and since the bound equals last_ above p and has v
// at p, the key's highest digit differing from the bound is the one it
// differed from last_ at, with the same value: with last_ moved to the
// bound, the key stays in its bucket. Only bucket B is split: its keys
// <= the bound are due, the rest differ from the bound below p and move
// to lower buckets.
template <typename Payload>
class DrainQueue {
 public:
  // Throws std::logic_error when `time` is below the last drain's bound.
  // `time` is not NaN.
  void Push(double time, Payload payload) {
    const std::uint64_t key = KeyOf(time);
    if (key < last_)
      throw std::logic_error("DrainQueue: a time falls before the last bound drained");
    const std::size_t b = BucketOf(key);
    buckets_[b].push_back({key, std::move(payload)});
    Occupy(b);
    ++size_;
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // Calls `apply(payload)` for, and removes, every item whose time is <=
  // `bound` (compared as doubles: -0.0 equals 0.0). A bound below the last
  // one drains nothing. `apply` must not Push.
  template <typename Apply>
  void Drain(double bound, Apply&& apply) {
    const std::uint64_t key = KeyOf(bound);
    if (key < last_) return;  // every key is >= last_
    const std::size_t split = BucketOf(key);
    // Buckets below the split one, wholesale.
    const std::size_t w = split / 64;
    for (std::uint32_t words = words_ & ((std::uint32_t{2} << w) - 1); words != 0;
         words &= words - 1) {
      const int v = std::countr_zero(words);
      std::uint64_t due = occupied_[v];
      if (static_cast<std::size_t>(v) == w) due &= (std::uint64_t{1} << (split % 64)) - 1;
      occupied_[v] &= ~due;
      if (occupied_[v] == 0) words_ &= ~(std::uint32_t{1} << v);
      for (; due != 0; due &= due - 1) {
        std::vector<Item>& bucket = buckets_[64 * v + std::countr_zero(due)];
        for (Item& item : bucket) apply(item.payload);
        size_ -= bucket.size();
        bucket.clear();
      }
    }
    last_ = key;
    // The split bucket: due items run, the rest move to lower buckets
    // (never to the split one itself; see above).
    const std::uint64_t bit = std::uint64_t{1} << (split % 64);
    if ((occupied_[w] & bit) == 0) return;
    occupied_[w] &= ~bit;
    if (occupied_[w] == 0) words_ &= ~(std::uint32_t{1} << w);
    std::vector<Item>& bucket = buckets_[split];
    for (Item& item : bucket) {
      if (item.key <= key) {
        apply(item.payload);
        --size_;
      } else {
        const std::size_t b = BucketOf(item.key);
        buckets_[b].push_back(std::move(item));
        Occupy(b);
      }
    }
    bucket.clear();
  }

  // Calls `apply(payload)` for, and removes, every item. `apply` must not
  // Push.
  template <typename Apply>
  void DrainAll(Apply&& apply) {
    for (std::size_t w = 0; w < kWords; ++w) {
      for (std::uint64_t due = occupied_[w]; due != 0; due &= due - 1) {
        std::vector<Item>& bucket = buckets_[64 * w + std::countr_zero(due)];
        for (Item& item : bucket) apply(item.payload);
        bucket.clear();
      }
      occupied_[w] = 0;
    }
    words_ = 0;
    size_ = 0;
  }

 private:
  // 0 (equal), then per digit position (16, lowest first) one bucket per
  // digit value (16; value 0 stays empty: a key there exceeds last_'s digit).
  static constexpr std::size_t kBuckets = 1 + 16 * 16;
  static constexpr std::size_t kWords = (kBuckets + 63) / 64;

  struct Item {
    std::uint64_t key;
    Payload payload;
  };

  // The bits of `time`, made monotone: a < b as doubles iff KeyOf(a) <
  // KeyOf(b). + 0.0 turns -0.0 into 0.0: they compare equal as times.
  static std::uint64_t KeyOf(double time) {
    const auto bits = std::bit_cast<std::uint64_t>(time + 0.0);
    return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
  }
  // 0 for last_ itself; else 1 + 16 * the position of the highest
  // differing digit + the key's digit there. `key` >= last_.
  std::size_t BucketOf(std::uint64_t key) const {
    const std::uint64_t d = key ^ last_;
    if (d == 0) return 0;
    const int shift = (std::bit_width(d) - 1) & ~3;
    return 1 + 4 * static_cast<std::size_t>(shift) + ((key >> shift) & 15);
  }
  // Marks buckets_[b] not empty.
  void Occupy(std::size_t b) {
    occupied_[b / 64] |= std::uint64_t{1} << (b % 64);
    words_ |= std::uint32_t{1} << (b / 64);
  }

  std::array<std::vector<Item>, kBuckets> buckets_;
  std::array<std::uint64_t, kWords> occupied_{};  // bit b: buckets_[b] is not empty
  std::uint32_t words_ = 0;                        // bit w: occupied_[w] is not 0
  std::uint64_t last_ = 0;                         // the last bound, as a key
  std::size_t size_ = 0;
};

}  // namespace lbsim
