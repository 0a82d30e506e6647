#pragma once

#include <cstdint>
#include <vector>

namespace lbsim {

// A map from 64-bit ids (any value) to 32-bit slots, for the KV cache's
// resident prefix units: open addressing with linear probing and
// backward-shift deletion, so lookups, inserts and erases touch a cache
// line or two and never allocate once the table has grown to the most ids
// it held at once (at most half full).
class UnitIndex {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  std::size_t size() const { return size_; }
  // The slot of `id`, or kNone.
  std::uint32_t Find(std::uint64_t id) const {
    if (size_ == 0) return kNone;
    for (std::size_t i = Home(id);; i = (i + 1) & mask_) {
      const Entry& e = entries_[i];
      if (e.slot == kNone) return kNone;
      if (e.id == id) return e.slot;
    }
  }
  // Adds `id` (not present) with `slot` (not kNone).
  void Insert(std::uint64_t id, std::uint32_t slot) {
    if (2 * (size_ + 1) > entries_.size()) Grow();
    std::size_t i = Home(id);
    while (entries_[i].slot != kNone) i = (i + 1) & mask_;
    entries_[i] = {id, slot};
    ++size_;
  }
  // Removes `id` (present).
  void Erase(std::uint64_t id) {
    std::size_t i = Home(id);
    while (entries_[i].id != id || entries_[i].slot == kNone) i = (i + 1) & mask_;
    // Shift back the entries after the hole that probed past it.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (entries_[j].slot == kNone) break;
      const std::size_t home = Home(entries_[j].id);
      // entries_[j] may move into the hole at i when its home is not in (i, j].
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        entries_[i] = entries_[j];
        i = j;
      }
    }
    entries_[i].slot = kNone;
    --size_;
  }

 private:
  struct Entry {
    std::uint64_t id = 0;
    std::uint32_t slot = kNone;  // kNone: empty
  };
  std::size_t Home(std::uint64_t id) const {
    id ^= id >> 33;
    id *= 0xFF51AFD7ED558CCDull;
    id ^= id >> 33;
    return static_cast<std::size_t>(id) & mask_;
  }
  void Grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 64 : old.size() * 2, Entry{});
    mask_ = entries_.size() - 1;
    size_ = 0;
    for (const Entry& e : old)
      if (e.slot != kNone) Insert(e.id, e.slot);
  }

  std::vector<Entry> entries_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace lbsim
