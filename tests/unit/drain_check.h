#pragma once

// Test helpers: drives a drain queue (DrainQueue, DrainWheel) and a plain
// list scanned on every drain through the same pushes and drains, checking
// that each drain hands out exactly the items the scan finds due.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "seeded_numbers.h"

namespace lbsim::testing {

// The reference: a plain list scanned on every drain.
class DrainReference {
 public:
  void Push(double time, std::uint32_t id) { items_.push_back({time, id}); }
  std::size_t size() const { return items_.size(); }

  // The ids due at `bound`, sorted, removed. The rest keep their order,
  // moved up in place: a copy of the list each drain is most of a
  // sanitizer build's time.
  std::vector<std::uint32_t> Drain(double bound) {
    std::vector<std::uint32_t> due;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Item item = items_[i];
      if (item.time <= bound) due.push_back(item.id);
      else items_[kept++] = item;
    }
    items_.resize(kept);
    std::sort(due.begin(), due.end());
    return due;
  }

 private:
  struct Item {
    double time;
    std::uint32_t id;
  };
  std::vector<Item> items_;
};

// What `queue` hands out when drained to `bound`, sorted.
template <typename Queue>
std::vector<std::uint32_t> Drained(Queue& queue, double bound) {
  std::vector<std::uint32_t> due;
  queue.Drain(bound, [&](std::uint32_t id) { due.push_back(id); });
  std::sort(due.begin(), due.end());
  return due;
}

// Pushes and drains `queue` and a reference alike, checking each drain.
template <typename Queue>
class DrainCheck {
 public:
  void Push(double time) {
    queue_.Push(time, next_);
    reference_.Push(time, next_);
    ++next_;
  }
  void Drain(double bound) {
    CHECK(Drained(queue_, bound) == reference_.Drain(bound));
    CHECK(queue_.size() == reference_.size());
    CHECK(queue_.empty() == (reference_.size() == 0));
  }
  // Drains everything, then checks that nothing is left.
  void Finish() {
    std::vector<std::uint32_t> rest;
    queue_.DrainAll([&](std::uint32_t id) { rest.push_back(id); });
    std::sort(rest.begin(), rest.end());
    CHECK(rest == reference_.Drain(std::numeric_limits<double>::infinity()));
    CHECK(queue_.empty());
    CHECK(queue_.size() == 0);
  }
  Queue& queue() { return queue_; }

 private:
  Queue queue_;
  DrainReference reference_;
  std::uint32_t next_ = 0;
};

// A random time at or after `now`: often equal (or -0.0 for 0.0), else a
// small, fractional, tiny or huge step.
inline double DrainLater(SeededNumbers& n, double now) {
  switch (n.Below(8)) {
    case 0: return now;
    case 1: return now == 0.0 ? -0.0 : now;
    case 2: return now + std::ldexp(1.0, -static_cast<int>(n.Below(60)));
    case 3: return std::nextafter(now, std::numeric_limits<double>::infinity());
    case 4: return now + static_cast<double>(n.Below(1'000'000)) * 1e12;
    case 5: return now + static_cast<double>(n.Below(400)) / 3.0;
    default: return now + static_cast<double>(n.Below(400));
  }
}

// A simulation-like schedule: the bound moves forward (sometimes not at
// all), due items are drained, new items are pushed at or after the bound;
// at the end a drain to the same bound again, then everything.
template <typename Queue>
void CheckRandomDrains(std::uint64_t seed, std::size_t steps, double start) {
  SeededNumbers n(seed);
  DrainCheck<Queue> check;
  double bound = start;
  for (std::size_t step = 0; step < steps; ++step) {
    if (n.Below(3) != 0) bound = DrainLater(n, bound);
    check.Drain(bound);
    for (std::uint64_t k = n.Below(4); k > 0; --k) check.Push(DrainLater(n, bound));
  }
  check.Drain(bound);
  check.Finish();
}

}  // namespace lbsim::testing
