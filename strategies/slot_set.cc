#include "strategies/slot_set.h"

#include <algorithm>

#include "base/bit_count.h"

namespace lbsim {
namespace {

// A sparse set turns dense from this many words, when at least one word
// in kDenseSpread of its range holds a member; a dense set turns sparse
// with fewer members than one per kSparseSpread of its words.
constexpr std::size_t kDenseMinWords = 16;
constexpr std::size_t kDenseSpread = 4;
constexpr std::size_t kSparseSpread = 16;

// The position of the k-th set bit of `bits` (k < its count). Large sets
// are mostly full words, whose k-th bit is bit k.
int NthBit(std::uint64_t bits, std::size_t k) {
  return bits == ~std::uint64_t{0} ? static_cast<int>(k) : NthSetBit(bits, k);
}

// The first word of `words` (sorted by index) whose index is not below
// `index`.
template <class Words>
auto FindWord(Words& words, std::uint32_t index) {
  return std::lower_bound(words.begin(), words.end(), index,
                          [](const auto& w, std::uint32_t i) { return w.index < i; });
}

// How many slots `bits` holds. Large sets are mostly full or empty words,
// which skip the count.
std::size_t Members(std::uint64_t bits) {
  return bits == ~std::uint64_t{0} ? 64 : CountBits(bits);
}

std::uint64_t BitOf(std::uint32_t slot) { return std::uint64_t{1} << (slot % 64); }

// The dense blocks that count `words` words.
std::size_t BlocksFor(std::size_t words) {
  return (words + SlotSet::kBlockWords - 1) / SlotSet::kBlockWords;
}

}  // namespace

void SlotSet::Insert(std::uint32_t slot) {
  const std::uint32_t index = slot / 64;
  ++size_;
  if (dense()) {
    if (index >= dense_.size()) {
      if (std::size_t{index} + 1 > kSparseSpread * size_) {
        // So far out that the dense form would outgrow its bound.
        --size_;
        MakeSparse();
        Insert(slot);
        return;
      }
      dense_.resize(index + 1, 0);
      blocks_.resize(BlocksFor(dense_.size()), 0);
    }
    dense_[index] |= BitOf(slot);
    ++blocks_[index / kBlockWords];
    return;
  }
  auto it = FindWord(words_, index);
  if (it != words_.end() && it->index == index) {
    it->bits |= BitOf(slot);
    return;
  }
  words_.insert(it, Word{index, BitOf(slot)});
  if (words_.size() >= kDenseMinWords && words_.back().index < kDenseSpread * words_.size())
    MakeDense();
}

void SlotSet::Erase(std::uint32_t slot) {
  const std::uint32_t index = slot / 64;
  --size_;
  if (dense()) {
    dense_[index] &= ~BitOf(slot);
    --blocks_[index / kBlockWords];
    if (size_ * kSparseSpread < dense_.size()) MakeSparse();
    return;
  }
  auto it = FindWord(words_, index);
  it->bits &= ~BitOf(slot);
  if (it->bits == 0) words_.erase(it);
}

void SlotSet::MakeDense() {
  dense_.assign(words_.back().index + 1, 0);
  blocks_.assign(BlocksFor(dense_.size()), 0);
  for (const Word& w : words_) {
    dense_[w.index] = w.bits;
    blocks_[w.index / kBlockWords] += static_cast<std::uint32_t>(Members(w.bits));
  }
  words_ = {};
}

void SlotSet::MakeSparse() {
  words_.clear();
  for (std::size_t i = 0; i < dense_.size(); ++i)
    if (dense_[i] != 0) words_.push_back(Word{static_cast<std::uint32_t>(i), dense_[i]});
  dense_ = {};
  blocks_ = {};
}

std::uint32_t SlotSet::Nth(std::size_t k) const { return dense() ? DenseNth(k) : SparseNth(k); }

std::size_t SlotSet::CountBelow(std::uint32_t slot) const {
  return dense() ? DenseCountBelow(slot) : SparseCountBelow(slot);
}

std::uint32_t SlotSet::SparseNth(std::size_t k) const {
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

std::uint32_t SlotSet::DenseNth(std::size_t k) const {
  // The block first, from the nearer end, then the word in it.
  std::size_t block = 0;
  if (k < size_ / 2) {
    for (; k >= blocks_[block]; ++block) k -= blocks_[block];
  } else {
    std::size_t above = size_ - 1 - k;  // members after the one sought
    block = blocks_.size() - 1;
    for (; above >= blocks_[block]; --block) above -= blocks_[block];
    k = blocks_[block] - 1 - above;
  }
  for (std::size_t i = block * kBlockWords;; ++i) {
    const std::size_t n = Members(dense_[i]);
    if (k < n) return static_cast<std::uint32_t>(i * 64 + NthBit(dense_[i], k));
    k -= n;
  }
}

std::size_t SlotSet::SparseCountBelow(std::uint32_t slot) const {
  const std::uint32_t index = slot / 64;
  auto it = FindWord(words_, index);
  std::size_t in_word = 0;
  if (it != words_.end() && it->index == index)
    in_word = CountBits(it->bits & (BitOf(slot) - 1));
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

std::size_t SlotSet::DenseCountBelow(std::uint32_t slot) const {
  const std::size_t index = slot / 64;
  if (index >= dense_.size()) return size_;
  const std::size_t block = index / kBlockWords;
  std::size_t count = 0;
  // The blocks before `block`, counted from the nearer end.
  if (block <= blocks_.size() / 2) {
    for (std::size_t b = 0; b < block; ++b) count += blocks_[b];
  } else {
    count = size_;
    for (std::size_t b = block; b < blocks_.size(); ++b) count -= blocks_[b];
  }
  for (std::size_t i = block * kBlockWords; i < index; ++i) count += Members(dense_[i]);
  return count + CountBits(dense_[index] & (BitOf(slot) - 1));
}

}  // namespace lbsim
