// MonotoneQueue must pop in exactly EventQueue's order for every sequence
// of pushes that respects its one precondition (no key before the last one
// popped), and refuse the pushes that do not.

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "sim/replay/event_queue.h"
#include "sim/replay/monotone_queue.h"
#include "seeded_numbers.h"

namespace lbsim {
namespace {

// Runs the same simulation-like schedule through both queues: the clock
// moves forward, items due before it are popped from both and compared,
// and new items are pushed at the clock plus a random delay (often 0, so
// equal times are common, and sometimes fractional or huge).
void CheckSameOrder(std::uint64_t seed, std::size_t steps, double start) {
  testing::SeededNumbers n(seed);
  EventQueue<std::uint32_t> heap;
  MonotoneQueue<std::uint32_t> radix;
  double now = start;
  std::uint64_t seq = 0;
  std::uint32_t id = 0;
  std::size_t popped = 0;
  // Pops from both, comparing, every item that runs before `bound`.
  auto pop_before = [&](const EventKey& bound) {
    while (!heap.empty() && heap.top().key < bound) {
      REQUIRE(!radix.empty());
      CHECK(radix.TopKey() == heap.top().key);
      CHECK(radix.TopPayload() == heap.top().payload);
      heap.Pop();
      radix.Pop();
      ++popped;
    }
  };
  for (std::size_t step = 0; step < steps; ++step) {
    now += static_cast<double>(n.Below(3)) * (n.Below(2) ? 1.0 : 0.25);
    pop_before(EventKey{now, EventClass::kTrace, 0});
    CHECK(radix.size() == heap.size());
    for (std::uint64_t k = n.Below(3); k > 0; --k) {
      double delay = static_cast<double>(n.Below(400));
      if (n.Below(4) == 0) delay = 0.0;
      if (n.Below(50) == 0) delay = 1e12 + static_cast<double>(n.Below(7));
      if (n.Below(10) == 0) delay /= 3.0;
      const EventKey key{now + delay, EventClass::kCompletion, seq++};
      heap.Push(key, id);
      radix.Push(key, id);
      ++id;
    }
  }
  pop_before(EventKey{std::numeric_limits<double>::infinity(), EventClass::kTrace, 0});
  CHECK(heap.empty());
  CHECK(radix.empty());
  CHECK(popped == id);
}

TEST_CASE("monotone queue: pops in EventQueue's order on random schedules") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    CheckSameOrder(seed, 3000, seed % 2 ? 0.0 : 1e6);
  }
  CheckSameOrder(99, 3000, -5000.0);  // negative times order as numbers too
}

TEST_CASE("monotone queue: equal times pop by class, then sequence") {
  MonotoneQueue<int> q;
  q.Push({2.0, EventClass::kCompletion, 7}, 1);
  q.Push({2.0, EventClass::kMetric, 3}, 2);
  q.Push({2.0, EventClass::kCompletion, 2}, 3);
  q.Push({-0.0, EventClass::kCompletion, 9}, 4);
  q.Push({0.0, EventClass::kCompletion, 8}, 5);
  std::vector<int> order;
  std::vector<EventKey> keys;
  while (!q.empty()) {
    order.push_back(q.TopPayload());
    keys.push_back(q.TopKey());
    q.Pop();
  }
  // -0.0 and 0.0 are one time: sequence 8 runs before 9.
  CHECK(order == std::vector<int>{5, 4, 3, 1, 2});
  CHECK(std::signbit(keys[1].time));  // the time comes back as pushed
  CHECK(keys[4] == EventKey{2.0, EventClass::kMetric, 3});
}

TEST_CASE("monotone queue: a key before the last one popped is refused") {
  MonotoneQueue<int> q;
  q.Push({5.0, EventClass::kCompletion, 1}, 1);
  q.Pop();
  CHECK_THROWS_AS(q.Push({4.0, EventClass::kCompletion, 2}, 2), std::logic_error);
  CHECK_THROWS_AS(q.Push({5.0, EventClass::kCompletion, 0}, 2), std::logic_error);
  CHECK_NOTHROW(q.Push({5.0, EventClass::kCompletion, 3}, 3));
  CHECK(q.TopPayload() == 3);
}

}  // namespace
}  // namespace lbsim
