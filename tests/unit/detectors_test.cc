// What the detectors rest on: the rare long runs and alternating stretches
// RunMetrics records, and the expected shares they are judged against.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "sim/replay/run_metrics.h"
#include "sim/report/expected_share.h"
#include "sim/report/warning.h"
#include "base/errors.h"

namespace lbsim {
namespace {

// Records picks of `chosen` (candidate indices, one per decision) among
// `n` candidates 0..n-1.
RunMetrics Picks(const std::vector<InstanceIndex>& chosen, std::size_t n) {
  std::vector<std::string_view> reasons = {"least"};
  RunMetrics m(reasons);
  std::vector<Candidate> candidates;
  for (InstanceIndex i = 0; i < n; ++i) {
    candidates.push_back(Candidate{i, "x", 1.0, 0, std::nullopt});
    m.CandidateJoined(i, true);
  }
  std::uint64_t seq = 0;
  for (InstanceIndex c : chosen) m.RecordDecision(++seq, candidates, Hint{}, Choice{c, "least"});
  m.Finish();
  return m;
}

TEST_CASE("RunMetrics keeps the runs longer than their candidates, by length") {
  // 0 x4, 1, 0 x4, 2 x2 among 3 candidates: two runs of 4 (> 3).
  RunMetrics m = Picks({0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 2}, 3);
  CHECK(m.herded_decisions() == 8);
  REQUIRE(m.long_runs().size() == 1);
  const auto& [key, runs] = *m.long_runs().begin();
  CHECK(key == RunMetrics::LongRunKey{0, 3, 4});
  CHECK(runs.count == 2);
  CHECK(runs.first_seq == 1);
  // Runs as long as the candidates are not kept.
  CHECK(Picks({0, 0, 0, 1, 1, 1}, 3).long_runs().empty());
}

TEST_CASE("RunMetrics keeps stretches alternating between two Instances") {
  std::vector<InstanceIndex> picks;
  picks.push_back(5);
  for (int k = 0; k < 10; ++k) {
    picks.push_back(1);
    picks.push_back(3);
  }
  picks.push_back(4);
  // Among 6 candidates: a stretch of 21 in {5,1}? No: 5,1 then 3 closes it;
  // {1,3} holds from the second pick to the last but one: 20 picks, 19
  // switches.
  RunMetrics m = Picks(picks, 6);
  REQUIRE(m.alternations().size() == 1);
  const auto& [key, stretches] = *m.alternations().begin();
  CHECK(key == RunMetrics::AlternationKey{1, 3, 6, 20});
  CHECK(stretches.first_seq == 2);
  CHECK(m.long_runs().empty());
  // Not with fewer than 4 candidates (two of three is most of the pool),
  // nor within twice the candidates.
  std::vector<InstanceIndex> two_of_three;
  for (int k = 0; k < 20; ++k) two_of_three.push_back(k % 2);
  CHECK(Picks(two_of_three, 3).alternations().empty());
  CHECK(Picks(two_of_three, 4).alternations().size() == 1);
  CHECK(Picks(std::vector<InstanceIndex>(picks.begin(), picks.begin() + 12), 6).alternations().empty());
}

TEST_CASE("RunMetrics: a pair stretch that is mostly one run is not alternation") {
  // 1 then 3 x19: one switch in 20 picks.
  std::vector<InstanceIndex> picks = {1};
  for (int k = 0; k < 19; ++k) picks.push_back(3);
  picks.push_back(0);
  RunMetrics m = Picks(picks, 6);
  CHECK(m.alternations().empty());
  CHECK(m.long_runs().size() == 1);
}

TEST_CASE("expected shares follow weights, or speeds under the service model") {
  // Weights 5, 1, 1, each a candidate in all 70 decisions.
  ExpectedShares w({70, 70, 70}, {5, 1, 1}, {});
  CHECK(w.OfRun(0) == doctest::Approx(5.0 / 7));
  CHECK(w.OfRun(1) == doctest::Approx(1.0 / 7));
  // Speeds 1, 1, 1, 3 with equal weights: the larger of the two justifies.
  ExpectedShares s({10, 10, 10, 10}, {1, 1, 1, 1}, {1, 1, 1, 3});
  CHECK(s.OfRun(3) == doctest::Approx(0.5));
  CHECK(s.OfRun(0) == doctest::Approx(0.25));
  CHECK(s.AmongCandidates({3}, 4) == doctest::Approx(0.5));
  CHECK(s.AmongCandidates({0}, 4) == doctest::Approx(0.25));
  // A pair: its speeds (1 + 3) over theirs plus two of the others' mean (1).
  CHECK(s.AmongCandidates({0, 3}, 4) == doctest::Approx(4.0 / 6));
  // An Instance a candidate half as often expects about half as much.
  ExpectedShares half({10, 10, 5}, {1, 1, 1}, {});
  CHECK(half.OfRun(2) == doctest::Approx(0.2));
  CHECK(half.OfRun(0) == doctest::Approx(0.4));
  // Never a candidate: nothing expected. Equal pools: exactly 1/n.
  CHECK(ExpectedShares({10, 0}, {1, 1}, {}).OfRun(1) == 0.0);
  CHECK(ExpectedShares({5, 5, 5}, {1, 1, 1}, {}).AmongCandidates({1}, 3) == 1.0 / 3);
}

TEST_CASE("--fail-on takes warning or warning names, comma-separated") {
  CHECK(ParseFailOn({"herding,overload", "warning", "herding"}, "--fail-on") ==
        std::vector<std::string>{"herding", "overload", "warning"});
  CHECK_THROWS_AS(ParseFailOn({"herd"}, "--fail-on"), UsageError);
  CHECK_THROWS_AS(ParseFailOn({"herding,"}, "--fail-on"), UsageError);
  for (std::string_view name : kWarningNames) CHECK(IsWarningName(name));
  CHECK_FALSE(IsWarningName("warning"));
}

}  // namespace
}  // namespace lbsim
