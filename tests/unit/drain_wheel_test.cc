// DrainWheel must drain exactly like DrainQueue (every item whose time is
// <= the bound, each once) whatever slot width it settles on: on random
// schedules, when the time scale of the pushes changes (so it chooses a
// width again, finer or coarser), when bounds jump past its ring, when
// drains move through a slot many times while items are pushed into it,
// and at times whose slots leave the range it keeps slots for.

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "drain_check.h"
#include "sim/replay/drain_wheel.h"

namespace lbsim {
namespace {

using testing::CheckRandomDrains;
using testing::DrainCheck;
using testing::SeededNumbers;
using Wheel = DrainWheel<std::uint32_t>;

TEST_CASE("drain wheel: drains what a scan finds due on random schedules") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    CheckRandomDrains<Wheel>(seed, 6000, seed % 3 == 0 ? 0.0 : seed % 3 == 1 ? 1e6 : -5000.0);
  }
  CheckRandomDrains<Wheel>(77, 6000, -std::numeric_limits<double>::max());
  CheckRandomDrains<Wheel>(78, 6000, std::numeric_limits<double>::denorm_min());
}

// Phases of steady traffic: each drains in steps of `step` and pushes a few
// items per step at distances up to `spread`, so the wheel settles on a
// width, then meets a scale it does not fit.
void RunPhase(DrainCheck<Wheel>& check, SeededNumbers& n, double& bound, double step,
              double spread, std::size_t steps) {
  for (std::size_t i = 0; i < steps; ++i) {
    bound += step * static_cast<double>(n.Below(3));
    check.Drain(bound);
    for (std::uint64_t k = n.Below(4); k > 0; --k)
      check.Push(bound + spread * static_cast<double>(n.Below(1000)) / 1000.0);
  }
}

TEST_CASE("drain wheel: drains exactly across changes of time scale") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    SeededNumbers n(seed);
    DrainCheck<Wheel> check;
    double bound = seed % 2 ? 0.0 : -1e5;
    RunPhase(check, n, bound, 1.0, 200.0, 4000);      // settles
    RunPhase(check, n, bound, 1.0, 1500.0, 6000);     // some past the ring
    RunPhase(check, n, bound, 0.001, 0.1, 4000);      // crowds a slot: finer
    RunPhase(check, n, bound, 1.0, 1e7, 6000);        // past the ring: coarser
    RunPhase(check, n, bound, 1e6, 1e9, 3000);        // bounds jump past the ring
    RunPhase(check, n, bound, 1e-9, 1e-6, 4000);      // far finer again
    RunPhase(check, n, bound, 0.0, 0.0, 2000);        // all at one time
    RunPhase(check, n, bound, 1.0, 200.0, 4000);
    // Requests as long as an LLM's: thousands in flight, each due seconds
    // after it is pushed, drained every few milliseconds, so that the
    // bound moves through every slot many times.
    RunPhase(check, n, bound, 0.0015, 20.0, 30000);
    check.Finish();
  }
}

TEST_CASE("drain wheel: many items at one time, drained up to closely") {
  SeededNumbers n(3);
  DrainCheck<Wheel> check;
  double bound = 0.0;
  RunPhase(check, n, bound, 1.0, 200.0, 3000);
  // Slots of 0.5 by now; the bound stays in the items' slot until rebuilt.
  const double at = bound + 50.3;
  for (int i = 0; i < 2000; ++i) check.Push(at);
  bound = at - 0.2;
  for (int i = 0; i < 5000; ++i) {  // in their slot, without pushes
    bound += 1e-5;
    check.Drain(bound);
  }
  check.Drain(at);
  RunPhase(check, n, bound, 1.0, 200.0, 3000);
  check.Finish();
}

TEST_CASE("drain wheel: pushes into the bound's own slot, between its drains") {
  SeededNumbers n(7);
  DrainCheck<Wheel> check;
  double bound = 0.0;
  RunPhase(check, n, bound, 1.0, 200.0, 3000);  // slots of 0.5 by now
  // Each drain moves the bound a little within one slot, taking some of
  // its items, and pushes more into the same slot, before and after the
  // ones it keeps: they must be taken in time as the slot's sorted items.
  for (int round = 0; round < 40; ++round) {
    const double start = std::floor(bound * 2.0 + 1.0) / 2.0;  // the next slot
    for (int i = 0; i < 50; ++i)
      check.Push(start + 0.5 * static_cast<double>(n.Below(1000)) / 1000.0);
    bound = start;
    for (int step = 0; step < 60; ++step) {
      bound += 0.5 / 64.0;
      check.Drain(bound);
      for (std::uint64_t k = n.Below(5); k > 0; --k)
        check.Push(bound + 0.5 * static_cast<double>(n.Below(1000)) / 1000.0);
    }
  }
  RunPhase(check, n, bound, 1.0, 200.0, 2000);
  check.Finish();
}

TEST_CASE("drain wheel: its memory follows the items it holds, as slots fill while others empty") {
  // Steady traffic, as of requests lasting 1 to 20 s, 8 arriving each ms:
  // each drain's slot empties while one 20 s ahead starts to fill, ring
  // cycle after ring cycle, with ~84,000 items pending and ~1/3 of the
  // 1,024 slots holding them at any time. Emptied slots' room must go to
  // the filling ones rather than stay with every slot the ring has passed.
  SeededNumbers n(5);
  Wheel q;
  double bound = 0.0;
  std::size_t drained = 0, pushed = 0, most_room = 0, held_then = 0;
  for (int step = 0; step < 200000; ++step) {
    bound += 1.0;
    q.Drain(bound, [&](std::uint32_t) { ++drained; });
    for (int k = 0; k < 8; ++k) {
      q.Push(bound + 1000.0 + static_cast<double>(n.Below(19000)), 0);
      ++pushed;
    }
    if (step <= 40000 || step % 64 != 0) continue;
    if (const std::size_t room = q.room(); room > most_room) {
      most_room = room;
      held_then = q.size();
    }
  }
  CHECK(drained + q.size() == pushed);
  CHECK(held_then > 70000);
  CHECK(held_then < 100000);
  // A filling slot takes an emptied one's room, up to twice the items a
  // slot ends up with, while those ahead hold fewer items so far (~half on
  // average): about 4x the items held. Room kept by every slot the ring
  // has passed comes to ~12x here.
  CHECK(most_room < 5 * held_then);
}

TEST_CASE("drain wheel: the items due next are pending ones, the earliest last") {
  SeededNumbers n(21);
  Wheel q;
  std::map<std::uint32_t, double> pending;         // id -> time
  std::set<std::pair<double, std::uint32_t>> by_time;
  std::uint32_t next_id = 0;
  double bound = 0.0;
  std::size_t looked_ahead = 0;
  for (int step = 0; step < 20000; ++step) {
    bound += 0.0015 * static_cast<double>(n.Below(3));
    q.Drain(bound, [&](std::uint32_t id) {
      REQUIRE(pending.contains(id));
      by_time.erase({pending.at(id), id});
      pending.erase(id);
    });
    const std::span<const Wheel::Item> next = q.NextDue();
    for (std::size_t k = 0; k < next.size(); ++k) {
      REQUIRE(pending.contains(next[k].payload));
      CHECK(pending.at(next[k].payload) == next[k].time);
      CHECK(next[k].time > bound);
      if (k > 0) CHECK(next[k - 1].time >= next[k].time);
    }
    if (!next.empty()) {
      ++looked_ahead;
      CHECK(next.back().time == by_time.begin()->first);
    }
    for (std::uint64_t k = n.Below(4); k > 0; --k) {
      const double time = bound + 20.0 * static_cast<double>(n.Below(1000)) / 1000.0;
      q.Push(time, next_id);
      pending[next_id] = time;
      by_time.insert({time, next_id++});
    }
  }
  CHECK(looked_ahead > 10000);
}

TEST_CASE("drain wheel: times whose slots leave the kept range") {
  SeededNumbers n(5);
  DrainCheck<Wheel> check;
  double bound = 0.0;
  RunPhase(check, n, bound, 1e-3, 0.2, 3000);  // slots of about 2^-10
  // Up to and past the last slots kept (2^52 of them).
  bound = std::ldexp(1.0, 42) - 0.5;
  check.Drain(bound);
  RunPhase(check, n, bound, 1e-3, 0.2, 1000);
  // Bounds and items far out, where slots exceed 2^52, then back in range
  // of a double's largest values.
  const double big = std::ldexp(1.0, 60);
  bound = big;
  check.Drain(bound);
  RunPhase(check, n, bound, 1e3, 1e5, 3000);
  check.Push(std::numeric_limits<double>::max());
  check.Push(std::numeric_limits<double>::infinity());
  RunPhase(check, n, bound, 1e300, 1e301, 200);
  check.Drain(std::numeric_limits<double>::max());
  check.Drain(std::numeric_limits<double>::infinity());
  check.Finish();
}

TEST_CASE("drain wheel: negative, tiny and signed-zero times") {
  SeededNumbers n(11);
  DrainCheck<Wheel> check;
  double bound = -std::ldexp(1.0, -1030);  // subnormal
  check.Drain(bound);
  for (int i = 0; i < 3000; ++i) {
    check.Push(bound);
    check.Push(-0.0);
    check.Push(0.0);
    check.Push(std::numeric_limits<double>::denorm_min() * static_cast<double>(n.Below(100)));
    if (n.Below(2)) {
      bound = std::nextafter(bound, 1.0);
      check.Drain(bound);
    }
  }
  check.Drain(-0.0);
  check.Drain(0.0);
  check.Finish();
}

TEST_CASE("drain wheel: a time below the last bound is refused") {
  Wheel q;
  q.Push(5.0, 1);
  q.Drain(5.0, [](std::uint32_t) {});
  CHECK_THROWS_AS(q.Push(4.0, 2), std::logic_error);
  CHECK_THROWS_AS(q.Push(std::nextafter(5.0, 0.0), 2), std::logic_error);
  CHECK(q.empty());
  CHECK_NOTHROW(q.Push(5.0, 3));
  CHECK_NOTHROW(q.Push(5.5, 4));
  std::vector<std::uint32_t> got;
  q.Drain(4.5, [&](std::uint32_t i) { got.push_back(i); });  // below: nothing
  CHECK(got.empty());
  CHECK_THROWS_AS(q.Push(4.7, 5), std::logic_error);
  q.Drain(5.0, [&](std::uint32_t i) { got.push_back(i); });
  CHECK(got == std::vector<std::uint32_t>{3});
  CHECK(q.size() == 1);
}

}  // namespace
}  // namespace lbsim
