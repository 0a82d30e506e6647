// LanedHeap must pop in exactly a binary heap's order, whatever lane each
// push names: lanes fed in order (a fixed delay from a forward-moving
// clock), lanes fed at random, and equal times broken by the events' own
// order.

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include <doctest/doctest.h>

#include "sim/replay/laned_heap.h"
#include "seeded_numbers.h"

namespace lbsim {
namespace {

// An event ordered by (time, first, seq), as the Proxy queue's are.
struct TestEvent {
  double time = 0.0;
  bool first = false;  // runs before every other event at its time
  std::uint64_t seq = 0;
  bool operator>(const TestEvent& o) const {
    if (time != o.time) return time > o.time;
    if (first != o.first) return o.first;
    return seq > o.seq;
  }
};

// A schedule like a simulation's: the clock moves to each popped event;
// pushes land at the clock plus a lane's fixed delay (in order), or plus a
// random one (out of order), often at the clock itself.
void CheckSameOrder(std::uint64_t seed, std::size_t pushes) {
  testing::SeededNumbers n(seed);
  std::priority_queue<TestEvent, std::vector<TestEvent>, std::greater<>> heap;
  LanedHeap<TestEvent, 3> laned;
  const double fixed[] = {0.0, 0.005};  // lanes 0 and 1; lane 2 takes any delay
  double now = 0.0;
  std::uint64_t seq = 0, popped = 0;
  auto push = [&](std::size_t lane) {
    double delay = lane < 2 ? fixed[lane] : static_cast<double>(n.Below(8)) * 0.0025;
    if (lane == 2 && n.Below(3) == 0) delay = 0.0;
    const TestEvent e{now + delay, n.Below(4) == 0, seq++};
    heap.push(e);
    laned.Push(e, lane);
  };
  for (std::size_t k = 0; k < pushes; ++k) {
    push(n.Below(3));
    if (n.Below(3) != 0) continue;
    // Pop a few: both must agree event by event.
    for (std::uint64_t m = 1 + n.Below(3); m > 0 && !heap.empty(); --m) {
      REQUIRE(!laned.empty());
      const TestEvent expected = heap.top();
      CHECK(laned.Top().seq == expected.seq);
      const TestEvent got = laned.Pop();
      heap.pop();
      CHECK(got.seq == expected.seq);
      now = got.time;
      ++popped;
    }
  }
  while (!heap.empty()) {
    REQUIRE(!laned.empty());
    CHECK(laned.Pop().seq == heap.top().seq);
    heap.pop();
    ++popped;
  }
  CHECK(laned.empty());
  CHECK(popped == seq);
}

TEST_CASE("laned heap: pops in a heap's order on random schedules") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    CheckSameOrder(seed, 4000);
  }
}

TEST_CASE("laned heap: an event that runs before its lane's last goes to the heap") {
  LanedHeap<TestEvent, 1> q;
  q.Push(TestEvent{2.0, false, 0}, 0);
  q.Push(TestEvent{1.0, false, 1}, 0);  // earlier than the lane's last
  q.Push(TestEvent{2.0, true, 2}, 0);   // same time, runs first: earlier too
  q.Push(TestEvent{3.0, false, 3}, 0);
  CHECK(q.Pop().seq == 1);
  CHECK(q.Pop().seq == 2);
  CHECK(q.Pop().seq == 0);
  CHECK(q.Top().seq == 3);
  CHECK(q.Pop().seq == 3);
  CHECK(q.empty());
}

}  // namespace
}  // namespace lbsim
