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

// Checks every k-th member and the counts below some probes of `slots`
// against `reference`.
void CheckAgainst(const SlotSet& slots, const std::set<std::uint32_t>& reference,
                  std::mt19937_64& rng, std::uint32_t probe_range) {
  REQUIRE(slots.size() == reference.size());
  if (reference.empty()) return;
  for (int probe = 0; probe < 4; ++probe) {
    const std::size_t k = rng() % reference.size();
    CHECK(slots.Nth(k) == *std::next(reference.begin(), static_cast<long>(k)));
    const auto slot = static_cast<std::uint32_t>(rng() % probe_range);
    CHECK(slots.CountBelow(slot) ==
          static_cast<std::size_t>(std::distance(reference.begin(), reference.lower_bound(slot))));
  }
  CHECK(slots.Nth(0) == *reference.begin());
  CHECK(slots.Nth(reference.size() - 1) == *reference.rbegin());
}

// Toggles a random slot below `range`: inserts it when absent (with
// probability `fill` / 256), erases it when present.
void Toggle(SlotSet& slots, std::set<std::uint32_t>& reference, std::mt19937_64& rng,
            std::uint32_t range, unsigned fill) {
  const auto slot = static_cast<std::uint32_t>(rng() % range);
  if (reference.count(slot)) {
    slots.Erase(slot);
    reference.erase(slot);
  } else if (rng() % 256 < fill) {
    slots.Insert(slot);
    reference.insert(slot);
  }
}

TEST_CASE("SlotSet: a large set turns dense, and sparse again as it empties") {
  std::mt19937_64 rng(11);
  SlotSet slots;
  std::set<std::uint32_t> reference;
  constexpr std::uint32_t kPool = 10000;
  // Filling a pool of 10,000 slots to about half: dense.
  for (int step = 0; step < 30000; ++step) {
    Toggle(slots, reference, rng, kPool, 200);
    if (step % 16 == 0) CheckAgainst(slots, reference, rng, kPool + 100);
  }
  CHECK(slots.dense());
  CheckAgainst(slots, reference, rng, kPool + 100);
  // Emptying it (fewer members than a sixteenth of its 157 words): sparse.
  for (int step = 0; step < 100000; ++step) {
    Toggle(slots, reference, rng, kPool, 0);
    if (step % 16 == 0) CheckAgainst(slots, reference, rng, kPool + 100);
  }
  CHECK_FALSE(slots.dense());
  CHECK(reference.size() * 16 < kPool / 64);
  CheckAgainst(slots, reference, rng, kPool + 100);
  // And back.
  for (int step = 0; step < 30000; ++step) Toggle(slots, reference, rng, kPool, 200);
  CHECK(slots.dense());
  CheckAgainst(slots, reference, rng, kPool + 100);
}

TEST_CASE("SlotSet: a dense set takes a slot far beyond its range sparse") {
  std::mt19937_64 rng(5);
  SlotSet slots;
  std::set<std::uint32_t> reference;
  for (std::uint32_t s = 0; s < 2048; s += 3) {
    slots.Insert(s);
    reference.insert(s);
  }
  REQUIRE(slots.dense());
  // Within 16 words per member: the dense form grows.
  slots.Insert(20000);
  reference.insert(20000);
  CHECK(slots.dense());
  CheckAgainst(slots, reference, rng, 30000);
  // Beyond it: sparse, without a pool-sized form.
  slots.Insert(5'000'000);
  reference.insert(5'000'000);
  CHECK_FALSE(slots.dense());
  CheckAgainst(slots, reference, rng, 6'000'000);
  CHECK(slots.Nth(reference.size() - 1) == 5'000'000);
  CHECK(slots.CountBelow(5'000'000) == reference.size() - 1);
  CHECK(slots.CountBelow(5'000'001) == reference.size());
}

TEST_CASE("SlotSet: full words in the dense form, from either end") {
  SlotSet slots;
  for (std::uint32_t s = 0; s < 64 * 40; ++s) slots.Insert(s);
  REQUIRE(slots.dense());
  for (std::uint32_t s = 0; s < 64 * 40; s += 97) {
    CHECK(slots.Nth(s) == s);
    CHECK(slots.CountBelow(s) == s);
  }
  slots.Erase(64 * 20);
  CHECK(slots.Nth(64 * 20) == 64 * 20 + 1);
  CHECK(slots.Nth(64 * 40 - 2) == 64 * 40 - 1);
  CHECK(slots.CountBelow(64 * 40 + 5) == 64 * 40 - 1);
}

}  // namespace
}  // namespace lbsim
