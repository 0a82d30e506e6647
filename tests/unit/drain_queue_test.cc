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

#include "sim/drain_queue.h"

namespace lbsim {
namespace {

// A deterministic stream of pseudo-random numbers.
class Numbers {
 public:
  explicit Numbers(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Below(std::uint64_t n) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return (state_ >> 33) % n;
  }

 private:
  std::uint64_t state_;
};

// The reference: a plain list scanned on every drain.
struct Reference {
  struct Item {
    double time;
    std::uint32_t id;
  };
  std::vector<Item> items;

  std::vector<std::uint32_t> Drain(double bound) {
    std::vector<std::uint32_t> due;
    std::vector<Item> rest;
    for (const Item& item : items) {
      if (item.time <= bound) due.push_back(item.id);
      else rest.push_back(item);
    }
    items = std::move(rest);
    std::sort(due.begin(), due.end());
    return due;
  }
};

std::vector<std::uint32_t> Drained(DrainQueue<std::uint32_t>& q, double bound) {
  std::vector<std::uint32_t> due;
  q.Drain(bound, [&](std::uint32_t id) { due.push_back(id); });
  std::sort(due.begin(), due.end());
  return due;
}

// A random time at or after `now`: often equal (or -0.0 for 0.0), else a
// small, fractional, tiny or huge step.
double Later(Numbers& n, double now) {
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

// Drives both through a simulation-like schedule: the bound moves forward
// (sometimes not at all), due items are drained from both and compared,
// and new items are pushed at or after the bound.
void CheckSameDrains(std::uint64_t seed, std::size_t steps, double start) {
  Numbers n(seed);
  DrainQueue<std::uint32_t> q;
  Reference ref;
  double bound = start;
  std::uint32_t id = 0;
  std::size_t drained = 0;
  for (std::size_t step = 0; step < steps; ++step) {
    if (n.Below(3) != 0) bound = Later(n, bound);
    const std::vector<std::uint32_t> want = ref.Drain(bound);
    CHECK(Drained(q, bound) == want);
    drained += want.size();
    CHECK(q.size() == ref.items.size());
    CHECK(q.empty() == ref.items.empty());
    for (std::uint64_t k = n.Below(4); k > 0; --k) {
      const double time = Later(n, bound);
      q.Push(time, id);
      ref.items.push_back({time, id});
      ++id;
    }
  }
  // Drains again to the same bound, then everything.
  CHECK(Drained(q, bound) == ref.Drain(bound));
  std::vector<std::uint32_t> rest;
  q.DrainAll([&](std::uint32_t i) { rest.push_back(i); });
  std::sort(rest.begin(), rest.end());
  CHECK(rest == ref.Drain(std::numeric_limits<double>::infinity()));
  CHECK(q.empty());
  CHECK(q.size() == 0);
}

TEST_CASE("drain queue: drains what a scan finds due on random schedules") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    CheckSameDrains(seed, 3000, seed % 3 == 0 ? 0.0 : seed % 3 == 1 ? 1e6 : -5000.0);
  }
  CheckSameDrains(77, 3000, -std::numeric_limits<double>::max());
  CheckSameDrains(78, 3000, std::numeric_limits<double>::denorm_min());
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
