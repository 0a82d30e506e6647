// SlotSet, the ordered set of candidate slots least_load's index keeps per
// score: its k-th member and its counts below a slot, against std::set.

#include <doctest/doctest.h>

#include <iterator>
#include <random>
#include <set>

#include "strategies/slot_set.h"

namespace lbsim {
namespace {

TEST_CASE("SlotSet: Nth and CountBelow agree with an ordered set") {
  std::mt19937_64 rng(7);
  SlotSet slots;
  std::set<std::uint32_t> reference;
  for (int step = 0; step < 20000; ++step) {
    const auto slot = static_cast<std::uint32_t>(rng() % 700);
    if (reference.count(slot)) {
      slots.Erase(slot);
      reference.erase(slot);
    } else {
      slots.Insert(slot);
      reference.insert(slot);
    }
    REQUIRE(slots.size() == reference.size());
    if (reference.empty()) continue;
    const std::size_t k = rng() % reference.size();
    CHECK(slots.Nth(k) == *std::next(reference.begin(), static_cast<long>(k)));
    const auto probe = static_cast<std::uint32_t>(rng() % 800);
    CHECK(slots.CountBelow(probe) ==
          static_cast<std::size_t>(std::distance(reference.begin(), reference.lower_bound(probe))));
  }
}

TEST_CASE("SlotSet: full words and a single word") {
  SlotSet slots;
  for (std::uint32_t s = 0; s < 256; ++s) slots.Insert(s);
  slots.Insert(1000);
  CHECK(slots.Nth(0) == 0);
  CHECK(slots.Nth(200) == 200);
  CHECK(slots.Nth(256) == 1000);
  CHECK(slots.CountBelow(1000) == 256);
  CHECK(slots.CountBelow(64) == 64);
  slots.Erase(63);
  CHECK(slots.Nth(63) == 64);
  CHECK(slots.CountBelow(1001) == 256);
}

}  // namespace
}  // namespace lbsim
