#include "traces/instance_table.h"

#include "base/load_word.h"
#include "base/seed_mix.h"
#include "traces/layout_text.h"

namespace lbsim {
namespace {

// A well-mixed 64-bit hash of `id`'s bytes, a word at a time: Instance ids
// are looked up on every load snapshot, where std::hash's byte loop and a
// node per id cost more than the rest of the line. An id shorter than 8
// bytes is one word, its bytes (as a layout reads them) and its length in
// the top byte, through SplitMix64's bijection: no two of them collide.
std::uint64_t HashId(std::string_view id) {
  const char* p = id.data();
  std::size_t n = id.size();
  if (n < 8) return SplitMix64(std::uint64_t{n} << 56 | layout_text::Load8(p, p, p + n));
  std::uint64_t h = SplitMix64(n);
  auto mix = [&h](std::uint64_t word) {
    h = (h ^ word) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
  };
  for (; n > 8; n -= 8, p += 8) mix(LoadWord(p));
  mix(LoadWord(p + n - 8));  // the last 8 bytes, overlapping the word before
  return SplitMix64(h);
}

std::uint32_t TagOf(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

}  // namespace

InstanceIndex InstanceTable::Intern(std::string_view id) {
  if (4 * (ids_.size() + 1) > 3 * slots_.size()) Grow();
  const std::uint64_t hash = HashId(id);
  Slot& slot = slots_[Place(id, hash)];
  if (slot.index != kEmpty) return slot.index;
  slot = Slot{TagOf(hash), static_cast<InstanceIndex>(ids_.size())};
  ids_.emplace_back(id);
  return slot.index;
}

std::optional<InstanceIndex> InstanceTable::Find(std::string_view id) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& slot = slots_[Place(id, HashId(id))];
  if (slot.index == kEmpty) return std::nullopt;
  return slot.index;
}

std::size_t InstanceTable::Place(std::string_view id, std::uint64_t hash) const {
  const std::size_t mask = slots_.size() - 1;
  const std::uint32_t tag = TagOf(hash);
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.index == kEmpty || (slot.tag == tag && ids_[slot.index] == id)) return i;
  }
}

void InstanceTable::Grow() {
  slots_.assign(slots_.empty() ? 16 : 2 * slots_.size(), Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t k = 0; k < ids_.size(); ++k) {
    const std::uint64_t hash = HashId(ids_[k]);
    std::size_t i = hash & mask;
    while (slots_[i].index != kEmpty) i = (i + 1) & mask;
    slots_[i] = Slot{TagOf(hash), static_cast<InstanceIndex>(k)};
  }
}

}  // namespace lbsim
