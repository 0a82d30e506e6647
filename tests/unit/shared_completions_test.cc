// SharedCompletions hands out each slot once while it is held, gives back
// exactly the slots due by a bound, and reuses the slots it gave back; a
// replay's strategy runs, which share it, each complete only the arrivals
// they routed, as when replayed alone.

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "replay_fixture.h"
#include "sim/replay/shared_completions.h"

namespace lbsim {
namespace {

using testing::Picks;
using testing::PinnedProxy;
using Slots = std::vector<std::uint32_t>;

Slots Sorted(std::span<const std::uint32_t> slots) {
  Slots s(slots.begin(), slots.end());
  std::sort(s.begin(), s.end());
  return s;
}

TEST_CASE("shared completions: slots come back once due or released") {
  SharedCompletions c;
  const std::uint32_t a = c.Take(), b = c.Take(), d = c.Take();
  CHECK(Slots{a, b, d} == Slots{0, 1, 2});
  c.Release(b);
  CHECK(c.Take() == b);  // the released slot, not a fresh one
  c.Schedule(5.0, a);
  c.Schedule(2.0, b);
  c.Schedule(2.0, d);
  CHECK(c.pending() == 3);
  CHECK(c.DueBy(1.0).empty());
  CHECK(Sorted(c.DueBy(2.0)) == Slots{b, d});  // <= the bound
  CHECK(c.pending() == 1);
  CHECK(Sorted(Slots{c.Take(), c.Take()}) == Slots{b, d});
  CHECK(c.Take() == 3);  // none left to reuse
  CHECK(Sorted(c.All()) == Slots{a});
  CHECK(c.pending() == 0);
  CHECK(c.Take() == a);
}

TEST_CASE("shared completions: a slot's records, one per run, start as not routed") {
  SharedCompletions c(3);
  const std::uint32_t a = c.Take(), b = c.Take();
  for (const std::uint32_t slot : {a, b}) {
    REQUIRE(c.Routes(slot).size() == 3);
    for (const RoutedArrival& r : c.Routes(slot))
      CHECK(r.instance == SharedCompletions::kNotRouted);
  }
  c.Routes(a)[0] = RoutedArrival{4, 1};
  c.Routes(a)[2] = RoutedArrival{7, 2};
  c.Routes(b)[1] = RoutedArrival{5, 3};
  // The records of one slot leave those of the others alone.
  CHECK(c.Routes(a)[0].instance == 4);
  CHECK(c.Routes(a)[1].instance == SharedCompletions::kNotRouted);
  CHECK(c.Routes(a)[2].registration == 2);
  CHECK(c.Routes(b)[0].instance == SharedCompletions::kNotRouted);
  CHECK(c.Routes(b)[1].instance == 5);
  c.Schedule(1.0, a);
  CHECK(Sorted(c.DueBy(1.0)) == Slots{a});
  // Taken again, the slot's records are cleared; more slots keep them apart.
  CHECK(c.Take() == a);
  for (const RoutedArrival& r : c.Routes(a)) CHECK(r.instance == SharedCompletions::kNotRouted);
  const std::uint32_t d = c.Take();
  CHECK(d == 2);
  CHECK(c.Routes(b)[1].instance == 5);
  CHECK(c.Routes(d)[1].instance == SharedCompletions::kNotRouted);
}

TEST_CASE("shared completions: random schedules drain as a scan of them does") {
  std::uint64_t state = 99;
  auto next = [&](std::uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  SharedCompletions c;
  std::map<std::uint32_t, double> scheduled;  // slot -> end
  std::set<std::uint32_t> held;               // taken, not yet scheduled or released
  double bound = 0.0;
  for (int step = 0; step < 20000; ++step) {
    switch (next(4)) {
      case 0: {
        const std::uint32_t slot = c.Take();
        REQUIRE(!scheduled.contains(slot));
        REQUIRE(held.insert(slot).second);  // never handed out twice
        break;
      }
      case 1:
        if (!held.empty()) {
          const std::uint32_t slot = *held.begin();
          held.erase(held.begin());
          if (next(5) == 0) {
            c.Release(slot);
          } else {
            const double end = bound + static_cast<double>(next(1000)) / 100.0;
            c.Schedule(end, slot);
            scheduled[slot] = end;
          }
        }
        break;
      default: {
        bound += static_cast<double>(next(50)) / 100.0;
        Slots expected;
        for (auto it = scheduled.begin(); it != scheduled.end();)
          if (it->second <= bound) {
            expected.push_back(it->first);
            it = scheduled.erase(it);
          } else {
            ++it;
          }
        REQUIRE(Sorted(c.DueBy(bound)) == expected);
        REQUIRE(c.pending() == scheduled.size());
      }
    }
  }
  Slots rest;
  for (const auto& [slot, end] : scheduled) rest.push_back(slot);
  CHECK(Sorted(c.All()) == rest);
  CHECK(c.pending() == 0);
}

TEST_CASE("shared completions: each strategy run completes only what it routed") {
  // least_load refuses the arrivals whose hint holds an integer no float
  // can hold (the Proxy's select() raises); round_robin routes them. Their
  // completions, due in the shared queue, must lower round_robin's counters
  // only: least_load's picks depend on its own.
  auto trace = [](bool durations) {
    std::string text =
        R"({"lbsim_trace": 1, "instances": [{"id": "a", "inflight": 0}, {"id": "b", "inflight": 0}, {"id": "c", "inflight": 1}]})"
        "\n";
    const std::string huge(400, '9');
    for (int k = 0; k < 120; ++k) {
      const std::string duration =
          durations ? fmt::format(R"(, "duration": {})", 0.5 + static_cast<double>(k * 7 % 5))
                    : "";
      const std::string hint =
          k % 3 == 1
              ? fmt::format(
                    R"(, "hint": {{"queue_depths": {{"per_instance": {{"b": {{"active_ready": {}}}}}}}}})",
                    huge)
              : "";
      text += fmt::format(R"({{"t": {}, "type": "arrival"{}{}}})" "\n", k, duration, hint);
    }
    return text;
  };
  // The latest Proxy counts requests itself and reads active_ready.
  auto replay = [](const std::string& text, const std::vector<std::string>& specs) {
    return testing::ReplayText(text, specs, "trace.ndjson", PinnedProxy("latest"));
  };
  const std::string text = trace(true);
  const auto ll_alone = Picks(replay(text, {"ll"}));
  const auto rr_alone = Picks(replay(text, {"rr"}), "round_robin");
  CHECK(std::count(ll_alone.begin(), ll_alone.end(), "-/refused") == 40);
  CHECK(std::count(rr_alone.begin(), rr_alone.end(), "-/refused") == 0);
  // Completions matter: without them least_load would pick otherwise.
  CHECK(Picks(replay(trace(false), {"ll"})) != ll_alone);

  auto twice = [](const std::vector<std::string>& picks) {
    std::vector<std::string> both = picks;
    both.insert(both.end(), picks.begin(), picks.end());
    return both;
  };
  for (const std::vector<std::string>& specs : {std::vector<std::string>{"ll", "rr"}, {"rr", "ll"}}) {
    const auto run = replay(text, specs);
    CHECK(Picks(run) == ll_alone);
    CHECK(Picks(run, "round_robin") == rr_alone);
  }
  const auto four = replay(text, {"rr", "ll", "rr", "ll"});
  CHECK(Picks(four) == twice(ll_alone));
  CHECK(Picks(four, "round_robin") == twice(rr_alone));
}

}  // namespace
}  // namespace lbsim
