#pragma once

#include <cstddef>
#include <vector>

namespace lbsim {

// A first-in first-out queue in one vector: taking from the front moves a
// head index, and the taken items are dropped when they are most of the
// vector. Unlike std::deque it allocates nothing until its first item, so
// a model that keeps a few queues per Instance costs little for the many
// Instances that hold nothing.
template <typename T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  void push_back(const T& item) { items_.push_back(item); }
  void pop_front() {
    ++head_;
    if (head_ == items_.size()) {
      clear();
    } else if (head_ >= 32 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }
  // The items, oldest first.
  const T* begin() const { return items_.data() + head_; }
  const T* end() const { return items_.data() + items_.size(); }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace lbsim
