#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace lbsim {

// The request ids of arrivals that carry none: "r<N>" for arrival number N
// (counting every arrival, 1-based). Kept as text and incremented in place:
// formatting a number for every arrival cost more than a least_load
// decision's scan.
class AutoRequestIds {
 public:
  // Moves on to the next arrival and returns its id ("r1" first). The view
  // is valid until the next call.
  std::string_view Next() {
    std::size_t digit = size_;
    while (digit > 1 && text_[digit - 1] == '9') text_[--digit] = '0';
    if (digit > 1) {
      ++text_[digit - 1];
    } else {  // all nines: one digit more, "1" then the zeros
      text_[1] = '1';
      text_[size_++] = '0';
    }
    return std::string_view(text_.data(), size_);
  }

 private:
  std::array<char, 24> text_{'r', '0'};  // "r" and up to 20 digits
  std::size_t size_ = 2;
};

}  // namespace lbsim
