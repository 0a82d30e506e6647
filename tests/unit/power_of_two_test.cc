// power_of_two: sampling with and without replacement, least_load's score
// among the sampled, ties, unknowns, and the edge values of `choices`.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::Counts;
using testing::Make;
using testing::PicksOf;
using testing::Candidates;
using testing::Request;

// Ten candidates with inflight 0..9: candidate k has the k-th lowest load.
std::vector<Candidate> Ranked() { return Candidates({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}); }

TEST_CASE("power_of_two: parameters, defaults and aliases") {
  StrategyRequest r = Request("p2c");
  CHECK(r.info->name == "power_of_two");
  CHECK(Request("power-of-two").info == r.info);
  CHECK(Request("Power_Of_Two").info == r.info);
  CHECK(r.params.Number("choices") == 2);
  CHECK(r.params.Text("replacement") == "distinct");
  CHECK(r.params.Number("seed") == 1);
  CHECK(r.params.Text("unknown") == "exclude");
  CHECK(r.params.Number("qps_1m") == 0.01);  // least_load's weights
  CHECK_THROWS(Request("p2c:choices=0"));
  CHECK_THROWS(Request("p2c:choices=1025"));
  CHECK_THROWS(Request("p2c:replacement=maybe"));
}

TEST_CASE("power_of_two distinct: the better of two different candidates") {
  // Without replacement the busiest candidate can never win: whatever it is
  // paired with is less loaded. Candidate k wins when it is sampled with
  // a busier one: probability 2 * (9 - k) / 90.
  auto s = Make("p2c");
  std::vector<std::size_t> counts = Counts(PicksOf(*s, Ranked(), 90000), 10);
  CHECK(counts[9] == 0);
  for (std::size_t k = 0; k < 9; ++k) {
    const double expected = 90000.0 * 2.0 * static_cast<double>(9 - k) / 90.0;
    CHECK(static_cast<double>(counts[k]) > expected * 0.95);
    CHECK(static_cast<double>(counts[k]) < expected * 1.05);
  }
}

TEST_CASE("power_of_two with replacement: the busiest wins when drawn twice") {
  // Two independent draws: candidate 9 wins only when both hit it (1/100);
  // candidate k wins with probability ((10-k)^2 - (9-k)^2) / 100.
  auto s = Make("p2c:replacement=with");
  std::vector<std::size_t> counts = Counts(PicksOf(*s, Ranked(), 100000), 10);
  for (std::size_t k = 0; k < 10; ++k) {
    const double a = static_cast<double>(10 - k), b = static_cast<double>(9 - k);
    const double expected = 100000.0 * (a * a - b * b) / 100.0;
    CHECK(static_cast<double>(counts[k]) > expected * 0.9);
    CHECK(static_cast<double>(counts[k]) < expected * 1.1);
  }
}

TEST_CASE("power_of_two: a candidate drawn twice is one candidate, not a tie") {
  auto s = Make("p2c:replacement=with:choices=3");
  auto pool = Candidates({4});
  for (int i = 0; i < 10; ++i) {
    Choice c = s->Select(pool, {});
    CHECK(c.index == 0);
    CHECK(c.reason == "least");
  }
}

TEST_CASE("power_of_two: ties go to the first sampled, so they spread at random") {
  auto s = Make("p2c:choices=3");
  auto pool = Candidates({2, 2, 2});
  std::vector<std::size_t> picks;
  for (int i = 0; i < 3000; ++i) {
    Choice c = s->Select(pool, {});
    CHECK(c.reason == "tie");
    picks.push_back(c.index);
  }
  for (std::size_t count : Counts(picks, 3)) CHECK(count > 900);
}

TEST_CASE("power_of_two: the sample comes from the seeded generator as documented") {
  // Independent computation of the documented draws for two equally loaded
  // candidates (2^64 mod 2 = 0, so an index is a draw mod 2).
  // distinct: a partial Fisher-Yates shuffle draws Index(2) then Index(1);
  // the first sampled is candidate (draw mod 2) and wins the tie.
  std::mt19937_64 reference(1);
  auto distinct = Make("p2c");
  for (int i = 0; i < 40; ++i) {
    const std::size_t first = reference() % 2;
    reference();  // Index(1)
    Choice c = distinct->Select(Candidates({2, 2}), {});
    CHECK(c.index == first);
    CHECK(c.reason == "tie");
  }
  // with: two independent draws; the same candidate twice is no tie.
  std::mt19937_64 draws(1);
  auto with = Make("p2c:replacement=with");
  for (int i = 0; i < 40; ++i) {
    const std::size_t a = draws() % 2, b = draws() % 2;
    Choice c = with->Select(Candidates({2, 2}), {});
    CHECK(c.index == a);
    CHECK(c.reason == (a == b ? "least" : "tie"));
  }
}

TEST_CASE("power_of_two: choices=1 is a uniform pick that ignores load") {
  auto s = Make("p2c:choices=1");
  std::vector<std::size_t> counts = Counts(PicksOf(*s, Candidates({0, 50, 100}), 30000), 3);
  for (std::size_t count : counts) {
    CHECK(count > 9500);
    CHECK(count < 10500);
  }
  CHECK(s->Select(Candidates({0, 50, 100}), {}).reason == "least");
}

TEST_CASE("power_of_two: choices above the candidates samples every candidate once") {
  // Distinct: all three are compared, so the least loaded always wins.
  auto s = Make("p2c:choices=5");
  for (int i = 0; i < 50; ++i) {
    Choice c = s->Select(Candidates({3, 1, 2}), {});
    CHECK(c.index == 1);
    CHECK(c.reason == "least");
  }
  // With replacement: 3 draws over 2 candidates; the busy one wins only
  // when all three draws hit it (1/8).
  auto w = Make("p2c:choices=3:replacement=with");
  std::vector<std::size_t> counts = Counts(PicksOf(*w, Candidates({0, 5}), 80000), 2);
  CHECK(counts[1] > 9500);
  CHECK(counts[1] < 10500);
}

TEST_CASE("power_of_two unknown=exclude: a sampled unknown loses to a sampled known") {
  auto s = Make("p2c");
  auto pool = Candidates({std::nullopt, 7});
  for (int i = 0; i < 20; ++i) {
    Choice c = s->Select(pool, {});
    CHECK(c.index == 1);
    CHECK(c.reason == "least");
    CHECK(c.passed_over_unknown);
  }
}

TEST_CASE("power_of_two: when every sampled load is unknown, the first sampled wins") {
  auto s = Make("p2c");
  std::vector<std::size_t> picks;
  auto pool = Candidates({std::nullopt, std::nullopt, std::nullopt, 1});
  int fallbacks = 0;
  for (int i = 0; i < 6000; ++i) {
    Choice c = s->Select(pool, {});
    if (c.reason == "fallback") {
      ++fallbacks;
      CHECK_FALSE(c.passed_over_unknown);
      picks.push_back(c.index);
    } else {
      CHECK(c.index == 3);  // the known one was sampled: it wins
    }
  }
  // Both sampled are among the three unknown: 3 of the 6 pairs.
  CHECK(fallbacks > 2800);
  CHECK(fallbacks < 3200);
  std::vector<std::size_t> counts = Counts(picks, 4);
  CHECK(counts[3] == 0);
  for (std::size_t k = 0; k < 3; ++k) CHECK(counts[k] > 850);
}

TEST_CASE("power_of_two unknown=zero: a sampled unknown counts as 0") {
  auto s = Make("p2c:unknown=zero");
  auto pool = Candidates({std::nullopt, 7});
  for (int i = 0; i < 20; ++i) {
    Choice c = s->Select(pool, {});
    CHECK(c.index == 0);
    CHECK(c.reason == "least");
    CHECK_FALSE(c.passed_over_unknown);
  }
  // Two unknowns both count 0: a tie, not a fallback.
  CHECK(Make("p2c:unknown=zero")->Select(Candidates({std::nullopt, std::nullopt}), {}).reason == "tie");
}

TEST_CASE("power_of_two unknown=max: an unknown counts as the highest known of ALL candidates") {
  // Candidate 0 unknown counts as 9 (candidate 2's load, even when 2 is not
  // sampled): it loses to 1 and ties with 2.
  auto s = Make("p2c:unknown=max");
  auto pool = Candidates({std::nullopt, 1, 9});
  int ties = 0;
  for (int i = 0; i < 300; ++i) {
    Choice c = s->Select(pool, {});
    if (c.reason == "least") {
      CHECK(c.index == 1);
    } else {
      CHECK(c.reason == "tie");  // sampled {0, 2}: 9 and 9
      ++ties;
    }
    CHECK_FALSE(c.passed_over_unknown);
  }
  CHECK(ties > 0);
  // No known load anywhere: still the fallback.
  CHECK(Make("p2c:unknown=max")->Select(Candidates({std::nullopt, std::nullopt}), {}).reason ==
        "fallback");
}

TEST_CASE("power_of_two: deterministic per seed") {
  auto a = Make("p2c:seed=5"), b = Make("p2c:seed=5"), c = Make("p2c:seed=6");
  std::vector<std::size_t> pa = PicksOf(*a, Ranked(), 200);
  CHECK(pa == PicksOf(*b, Ranked(), 200));
  CHECK(pa != PicksOf(*c, Ranked(), 200));
}

}  // namespace
}  // namespace lbsim
