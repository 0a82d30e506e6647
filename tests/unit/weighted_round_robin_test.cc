// weighted_round_robin: smooth weighted round robin over Instance weights,
// exact shares over every window of sum(weights) decisions, and a fresh
// cycle whenever the candidate set changes.

#include <doctest/doctest.h>

#include <vector>

#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::IdlePool;
using testing::Make;
using testing::PicksOf;

std::vector<Candidate> Weighted(const std::vector<double>& weights) {
  std::vector<Candidate> pool = IdlePool(weights.size());
  for (std::size_t k = 0; k < weights.size(); ++k) pool[k].weight = weights[k];
  return pool;
}

TEST_CASE("weighted_round_robin: aliases, reason word, no parameters") {
  auto s = Make("wrr");
  CHECK(s->Name() == "weighted_round_robin");
  CHECK(testing::Request("weighted-round-robin").info ==
        testing::Request("weighted_round_robin").info);
  CHECK(testing::Request("wrr").params.All().empty());
  CHECK(s->Select(Weighted({1, 1}), {}).reason == "weighted_round_robin");
}

TEST_CASE("weighted_round_robin: weights 5,1,1 give a a b a c a a (spread, not bursts)") {
  auto s = Make("wrr");
  CHECK(PicksOf(*s, Weighted({5, 1, 1}), 14) ==
        std::vector<std::size_t>{0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0, 0});
}

TEST_CASE("weighted_round_robin: equal weights are round robin in pool order") {
  auto s = Make("wrr");
  CHECK(PicksOf(*s, Weighted({3, 3, 3}), 6) == std::vector<std::size_t>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("weighted_round_robin: every window of sum(weights) decisions has exact shares") {
  // Every weight set of 1 to 4 Instances with integer weights 1..5, over
  // three periods: each window of S consecutive picks holds each Instance
  // exactly `weight` times.
  std::vector<std::vector<double>> sets = {{}};
  for (int n = 1; n <= 4; ++n) {
    std::vector<std::vector<double>> longer;
    for (const auto& set : sets)
      if (static_cast<int>(set.size()) == n - 1)
        for (double w = 1; w <= 5; ++w) {
          longer.push_back(set);
          longer.back().push_back(w);
        }
    sets.insert(sets.end(), longer.begin(), longer.end());
  }
  int checked = 0;
  for (const auto& weights : sets) {
    if (weights.empty()) continue;
    std::size_t total = 0;
    for (double w : weights) total += static_cast<std::size_t>(w);
    auto s = Make("wrr");
    std::vector<std::size_t> picks = PicksOf(*s, Weighted(weights), 3 * total);
    for (std::size_t start = 0; start + total <= picks.size(); ++start) {
      std::vector<std::size_t> counts(weights.size(), 0);
      for (std::size_t k = start; k < start + total; ++k) ++counts[picks[k]];
      for (std::size_t i = 0; i < weights.size(); ++i)
        REQUIRE(counts[i] == static_cast<std::size_t>(weights[i]));
    }
    ++checked;
  }
  CHECK(checked == 5 + 25 + 125 + 625);
}

TEST_CASE("weighted_round_robin: a stable pool keeps its cycle between decisions") {
  auto once = Make("wrr"), stepwise = Make("wrr");
  std::vector<std::size_t> expected = PicksOf(*once, Weighted({3, 2}), 10);
  std::vector<std::size_t> got;
  for (int k = 0; k < 10; ++k) got.push_back(stepwise->Select(Weighted({3, 2}), {}).index);
  CHECK(got == expected);
}

TEST_CASE("weighted_round_robin: a changed candidate set starts a fresh cycle") {
  auto s = Make("wrr");
  auto fresh = [](const std::vector<Candidate>& pool, std::size_t n) {
    auto t = Make("wrr");
    return PicksOf(*t, pool, n);
  };
  std::vector<Candidate> abc = Weighted({2, 1, 1});
  std::vector<Candidate> ac = {abc[0], abc[2]};  // b went down
  PicksOf(*s, abc, 3);  // mid-cycle: a b a, c due next
  // Without b the state restarts: the picks are a fresh cycle of {a:2, c:1}
  // (candidate indices into the new list).
  CHECK(PicksOf(*s, ac, 3) == fresh(ac, 3));
  // b back: again a fresh cycle of the full pool, c no longer "due".
  CHECK(PicksOf(*s, abc, 4) == fresh(abc, 4));
}

TEST_CASE("weighted_round_robin: a changed weight or pool order restarts the cycle") {
  auto s = Make("wrr");
  std::vector<Candidate> pool = Weighted({1, 1});
  CHECK(PicksOf(*s, pool, 1) == std::vector<std::size_t>{0});
  pool[1].weight = 3;  // an `up` event set a new weight
  CHECK(PicksOf(*s, pool, 4) == std::vector<std::size_t>{1, 0, 1, 1});
  std::vector<Candidate> swapped = {pool[1], pool[0]};  // removed and re-added
  CHECK(PicksOf(*s, swapped, 4) == std::vector<std::size_t>{0, 0, 1, 0});
}

}  // namespace
}  // namespace lbsim
