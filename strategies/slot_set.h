#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lbsim {

// A set of candidate slots (positions in pool order) that names its k-th
// smallest member and counts the members below a slot. It is a bitmap, one
// 64-bit word per 64 slots, in one of two forms:
// - sparse (small or thinly spread sets): only the words that hold a
//   member, sorted by position, so a set costs at most one word per member
//   and each query walks its words;
// - dense (large sets, such as the many Instances tied at the lowest load
//   of a large pool): every word from slot 0 on, with member counts per
//   block of kBlockWords words, so inserting and erasing cost no search and
//   a query walks the blocks, then one block's words.
// A set turns dense when at least a quarter of the words in its range hold
// a member, and sparse again when it has fewer members than a sixteenth of
// its dense words: a dense set never takes more than 16 words per member,
// nor a sparse one more than one.
class SlotSet {
 public:
  // Adds `slot`, which is not a member.
  void Insert(std::uint32_t slot);
  // Removes `slot`, which is a member.
  void Erase(std::uint32_t slot);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The k-th smallest member, counting from 0; k < size().
  std::uint32_t Nth(std::size_t k) const;
  // How many members are smaller than `slot`.
  std::size_t CountBelow(std::uint32_t slot) const;

  // Whether the set is in its dense form.
  bool dense() const { return !dense_.empty(); }

  // Words a dense block counts together.
  static constexpr std::size_t kBlockWords = 8;

 private:
  struct Word {
    std::uint32_t index;  // slot / 64
    std::uint64_t bits;   // bit b: slot index * 64 + b is a member
  };

  // Moves the members to the other form.
  void MakeDense();
  void MakeSparse();
  std::uint32_t SparseNth(std::size_t k) const;
  std::uint32_t DenseNth(std::size_t k) const;
  std::size_t SparseCountBelow(std::uint32_t slot) const;
  std::size_t DenseCountBelow(std::uint32_t slot) const;

  std::vector<Word> words_;  // sparse: the words holding a member, by index
  // Dense: word i holds slots i * 64 on; blocks_[b] counts the members of
  // words [b * kBlockWords, (b + 1) * kBlockWords). Both empty when sparse.
  std::vector<std::uint64_t> dense_;
  std::vector<std::uint32_t> blocks_;
  std::size_t size_ = 0;
};

}  // namespace lbsim
