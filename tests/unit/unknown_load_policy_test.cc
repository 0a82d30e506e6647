// The `unknown` parameter of least_load (and the shared helpers): exclude
// is the spec's rule and the default; zero and max replace an unknown score.

#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "strategies/unknown_load.h"
#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::Make;
using testing::Candidates;
using testing::Request;

TEST_CASE("unknown: default exclude, reported only when changed") {
  StrategyRequest ll = Request("ll");
  CHECK(ll.params.Text("unknown") == "exclude");
  std::vector<ParamValues::Value> echoed = ll.params.Echoed();
  CHECK(echoed.size() == ll.params.All().size() - 1);
  for (const ParamValues::Value& v : echoed) CHECK(v.name != "unknown");

  std::vector<ParamValues::Value> zero = Request("ll:unknown=zero").params.Echoed();
  REQUIRE(zero.size() == ll.params.All().size());
  CHECK(zero.back().name == "unknown");
  CHECK(zero.back().text == "zero");
  // Set explicitly to the default, it is the default: not echoed.
  CHECK(Request("ll:unknown=exclude").params.Echoed().size() == echoed.size());
  CHECK_THROWS_WITH(Request("ll:unknown=ignore"),
                    "strategy least_load: parameter unknown: expected one of exclude, "
                    "zero, max, got 'ignore'");
}

TEST_CASE("ScoreUnder and HighestKnown") {
  const std::optional<double> none;
  CHECK(ScoreUnder(UnknownLoad::kExclude, 4.0, 9.0) == 4.0);
  CHECK(ScoreUnder(UnknownLoad::kZero, 4.0, 9.0) == 4.0);
  CHECK(ScoreUnder(UnknownLoad::kMax, 4.0, 9.0) == 4.0);
  CHECK(ScoreUnder(UnknownLoad::kExclude, none, 9.0) == none);
  CHECK(ScoreUnder(UnknownLoad::kZero, none, none) == 0.0);
  CHECK(ScoreUnder(UnknownLoad::kMax, none, 9.0) == 9.0);
  CHECK(ScoreUnder(UnknownLoad::kMax, none, none) == none);
  std::vector<std::optional<double>> scores = {none, 3.0, 7.5, none, -1.0};
  CHECK(HighestKnown(scores) == 7.5);
  CHECK(HighestKnown(std::vector<std::optional<double>>{none, none}) == none);
}

TEST_CASE("least_load unknown=exclude: today's rule, unknown passed over") {
  auto s = Make("ll");
  Choice c = s->Select(Candidates({std::nullopt, 3}), {});
  CHECK(c.index == 1);
  CHECK(c.reason == "least");
  CHECK(c.passed_over_unknown);
  CHECK(s->Select(Candidates({std::nullopt, std::nullopt}), {}).reason == "fallback");
}

TEST_CASE("least_load unknown=zero: an unknown load counts as 0") {
  auto s = Make("ll:unknown=zero");
  Choice c = s->Select(Candidates({std::nullopt, 3}), {});
  CHECK(c.index == 0);
  CHECK(c.reason == "least");
  CHECK_FALSE(c.passed_over_unknown);
  // A known 0 ties with an unknown one.
  CHECK(s->Select(Candidates({0, std::nullopt}), {}).reason == "tie");
  // Nothing known: every candidate is 0, a tie (no fallback), by the counter.
  auto t = Make("ll:unknown=zero");
  auto unknown = Candidates({std::nullopt, std::nullopt, std::nullopt});
  for (std::size_t k = 0; k < 6; ++k) {
    Choice d = t->Select(unknown, {});
    CHECK(d.reason == "tie");
    CHECK(d.index == k % 3);
  }
}

TEST_CASE("least_load unknown=max: an unknown load counts as the highest known") {
  auto s = Make("ll:unknown=max");
  // Unknown counts 5: candidate 1 (3) is lowest.
  Choice c = s->Select(Candidates({std::nullopt, 3, 5}), {});
  CHECK(c.index == 1);
  CHECK(c.reason == "least");
  CHECK_FALSE(c.passed_over_unknown);
  // Unknown counts 5 and ties with the two known 5s, in pool order.
  auto t = Make("ll:unknown=max");
  auto pool = Candidates({5, std::nullopt, 5});
  std::vector<std::size_t> picks;
  for (int k = 0; k < 3; ++k) {
    Choice d = t->Select(pool, {});
    CHECK(d.reason == "tie");
    picks.push_back(d.index);
  }
  CHECK(picks == std::vector<std::size_t>{0, 1, 2});
  // Nothing known: the fallback, as under exclude.
  CHECK(t->Select(Candidates({std::nullopt, std::nullopt}), {}).reason == "fallback");
}

}  // namespace
}  // namespace lbsim
