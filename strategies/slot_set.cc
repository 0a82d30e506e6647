#include "strategies/slot_set.h"

#include <algorithm>
#include <bit>

namespace lbsim {
namespace {

// The position of the k-th set bit of `bits` (k < popcount).
int NthBit(std::uint64_t bits, std::size_t k) {
  if (bits == ~std::uint64_t{0}) return static_cast<int>(k);
  for (; k > 0; --k) bits &= bits - 1;
  return std::countr_zero(bits);
}

// The first word of `words` (sorted by index) whose index is not below
// `index`.
template <class Words>
auto FindWord(Words& words, std::uint32_t index) {
  return std::lower_bound(words.begin(), words.end(), index,
                          [](const auto& w, std::uint32_t i) { return w.index < i; });
}

// How many slots `bits` holds. Large sets are mostly full words, which
// skip the count (a library call on CPUs targeted without POPCNT).
std::size_t Members(std::uint64_t bits) {
  return bits == ~std::uint64_t{0} ? 64 : static_cast<std::size_t>(std::popcount(bits));
}

}  // namespace

void SlotSet::Insert(std::uint32_t slot) {
  const std::uint32_t index = slot / 64;
  const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
  auto it = FindWord(words_, index);
  if (it == words_.end() || it->index != index) it = words_.insert(it, Word{index, 0});
  it->bits |= bit;
  ++size_;
}

void SlotSet::Erase(std::uint32_t slot) {
  auto it = FindWord(words_, slot / 64);
  it->bits &= ~(std::uint64_t{1} << (slot % 64));
  if (it->bits == 0) words_.erase(it);
  --size_;
}

std::uint32_t SlotSet::Nth(std::size_t k) const {
  if (k < size_ / 2) {
    for (const Word& w : words_) {
      const std::size_t n = Members(w.bits);
      if (k < n) return w.index * 64 + static_cast<std::uint32_t>(NthBit(w.bits, k));
      k -= n;
    }
  } else {
    std::size_t above = size_ - 1 - k;  // members after the one sought
    for (auto it = words_.rbegin(); it != words_.rend(); ++it) {
      const std::size_t n = Members(it->bits);
      if (above < n)
        return it->index * 64 + static_cast<std::uint32_t>(NthBit(it->bits, n - 1 - above));
      above -= n;
    }
  }
  return 0;  // unreachable for k < size()
}

std::size_t SlotSet::CountBelow(std::uint32_t slot) const {
  const std::uint32_t index = slot / 64;
  auto it = FindWord(words_, index);
  std::size_t in_word = 0;
  if (it != words_.end() && it->index == index)
    in_word = static_cast<std::size_t>(
        std::popcount(it->bits & ((std::uint64_t{1} << (slot % 64)) - 1)));
  // Walk the shorter side.
  const auto before = static_cast<std::size_t>(it - words_.begin());
  if (before <= words_.size() / 2) {
    std::size_t count = in_word;
    for (auto w = words_.begin(); w != it; ++w) count += Members(w->bits);
    return count;
  }
  std::size_t after = 0;  // members at or after `it`'s word
  for (auto w = it; w != words_.end(); ++w) after += Members(w->bits);
  return size_ - after + in_word;
}

}  // namespace lbsim
