// DrainQueue must hand out, on each drain, exactly the items whose time is
// <= the bound (as doubles compare), each once, for every sequence of
// pushes that respects its one precondition (no time below the last bound),
// and refuse the pushes that do not.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "drain_check.h"
#include "sim/replay/drain_queue.h"

namespace lbsim {
namespace {

using testing::CheckRandomDrains;

TEST_CASE("drain queue: drains what a scan finds due on random schedules") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    CheckRandomDrains<DrainQueue<std::uint32_t>>(
        seed, 3000, seed % 3 == 0 ? 0.0 : seed % 3 == 1 ? 1e6 : -5000.0);
  }
  CheckRandomDrains<DrainQueue<std::uint32_t>>(77, 3000, -std::numeric_limits<double>::max());
  CheckRandomDrains<DrainQueue<std::uint32_t>>(78, 3000, std::numeric_limits<double>::denorm_min());
}

TEST_CASE("drain queue: the bound itself is due, the next time is not") {
  DrainQueue<int> q;
  q.Push(2.0, 1);
  q.Push(std::nextafter(2.0, 3.0), 2);
  q.Push(1.5, 3);
  q.Push(-0.0, 4);
  q.Push(0.0, 5);
  std::vector<int> got;
  auto take = [&](int i) { got.push_back(i); };
  q.Drain(-1.0, take);
  CHECK(got.empty());
  q.Drain(-0.0, take);  // -0.0 equals 0.0: both are due
  std::sort(got.begin(), got.end());
  CHECK(got == std::vector<int>{4, 5});
  got.clear();
  q.Drain(0.0, take);  // the same bound again: nothing new
  CHECK(got.empty());
  q.Drain(2.0, take);
  std::sort(got.begin(), got.end());
  CHECK(got == std::vector<int>{1, 3});
  CHECK(q.size() == 1);
  got.clear();
  q.Drain(1.0, take);  // below the last bound: nothing
  CHECK(got.empty());
  q.Drain(std::numeric_limits<double>::infinity(), take);
  CHECK(got == std::vector<int>{2});
  CHECK(q.empty());
}

TEST_CASE("drain queue: drains of an empty queue, and at infinity") {
  DrainQueue<int> q;
  std::vector<int> got;
  auto take = [&](int i) { got.push_back(i); };
  q.Drain(5.0, take);
  q.Drain(5.0, take);
  q.DrainAll(take);
  CHECK(got.empty());
  q.Push(std::numeric_limits<double>::infinity(), 1);
  q.Push(std::numeric_limits<double>::max(), 2);
  q.Drain(std::numeric_limits<double>::max(), take);
  CHECK(got == std::vector<int>{2});
  q.Drain(std::numeric_limits<double>::infinity(), take);
  CHECK(got == std::vector<int>{2, 1});
  CHECK(q.empty());
}

TEST_CASE("drain queue: a time below the last bound is refused") {
  DrainQueue<int> q;
  q.Push(5.0, 1);
  q.Drain(5.0, [](int) {});
  CHECK_THROWS_AS(q.Push(4.0, 2), std::logic_error);
  CHECK_THROWS_AS(q.Push(std::nextafter(5.0, 0.0), 2), std::logic_error);
  CHECK_NOTHROW(q.Push(5.0, 3));
  std::vector<int> got;
  q.Drain(5.0, [&](int i) { got.push_back(i); });
  CHECK(got == std::vector<int>{3});
}

}  // namespace
}  // namespace lbsim
