#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/replay/fifo.h"

namespace lbsim {

// A min-priority queue of events (least by `operator>` first, as
// std::priority_queue with std::greater) with `Lanes` first-in first-out
// lanes beside a binary heap. A push may name a lane: an event that runs
// after the lane's last one is appended there; any other goes to the heap.
// Events scheduled a fixed delay after a forward-moving clock (a poll every
// 5 ms, a step at an arrival's own instant) come in order and never touch
// the heap. Pops exactly the heap's order whatever lanes are named; events
// must be distinct under `>`.
template <typename Event, std::size_t Lanes>
class LanedHeap {
 public:
  bool empty() const { return top_ == kNone; }

  // Queues `e` in `lane` when it runs after the lane's last event, else
  // in the heap.
  void Push(const Event& e, std::size_t lane) {
    Fifo<Event>& fifo = lanes_[lane];
    if (!fifo.empty() && !(e > last_[lane])) return Push(e);
    fifo.push_back(e);
    last_[lane] = e;
    if (top_ == kNone || Top() > e) top_ = lane;
  }

  // Queues `e` in the heap (events that seldom come in order).
  void Push(const Event& e) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    if (top_ == kNone || Top() > e) top_ = kHeap;
  }

  // The event that runs first; not when empty().
  const Event& Top() const { return top_ == kHeap ? heap_.front() : lanes_[top_].front(); }

  // Removes and returns the event that runs first; not when empty().
  Event Pop() {
    const Event e = Top();
    if (top_ == kHeap) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    } else {
      lanes_[top_].pop_front();
    }
    top_ = heap_.empty() ? kNone : kHeap;
    for (std::size_t lane = 0; lane < Lanes; ++lane)
      if (!lanes_[lane].empty() && (top_ == kNone || Top() > lanes_[lane].front())) top_ = lane;
    return e;
  }

 private:
  static constexpr std::size_t kHeap = Lanes;     // top_: the heap's front
  static constexpr std::size_t kNone = Lanes + 1;  // top_: empty

  std::vector<Event> heap_;
  std::array<Fifo<Event>, Lanes> lanes_;
  std::array<Event, Lanes> last_{};  // each lane's last event pushed
  std::size_t top_ = kNone;          // where the first event is
};

}  // namespace lbsim
