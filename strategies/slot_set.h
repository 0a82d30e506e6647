#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lbsim {

// A set of candidate slots (positions in pool order) that names its k-th
// smallest member and counts the members below a slot. It is a sparse
// bitmap: one 64-bit word per 64 slots that holds a member, words sorted
// by position, so a set of any size costs at most pool size / 64 words and
// each query walks at most that many.
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

 private:
  struct Word {
    std::uint32_t index;  // slot / 64
    std::uint64_t bits;   // bit b: slot index * 64 + b is a member
  };

  std::vector<Word> words_;
  std::size_t size_ = 0;
};

}  // namespace lbsim
