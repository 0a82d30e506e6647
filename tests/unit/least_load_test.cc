// least_load's selection (strategies.md "least_load", "Selection"): the
// lowest known score wins; ties and the all-unknown fallback share one
// round-robin counter that advances on every decision; unknown is never 0.

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "candidates.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::Candidates;
using testing::Queue;
using testing::Request;

// "INDEX/REASON" of one decision, for compact comparisons, with "+unknown"
// when the pick passed over a candidate of unknown load.
std::string Pick(Strategy& s, const std::vector<Candidate>& pool, const Hint& hint = {}) {
  Choice c = s.Select(pool, hint);
  return std::to_string(c.index) + "/" + std::string(c.reason) +
         (c.passed_over_unknown ? "+unknown" : "");
}

TEST_CASE("least_load: the lower inflight wins, with reason least") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  CHECK(ll->Name() == "least_load");
  auto pool = Candidates({5, 2, 7});
  // A single lowest keeps winning whatever the counter says.
  CHECK(Pick(*ll, pool) == "1/least");
  CHECK(Pick(*ll, pool) == "1/least");
  CHECK(Pick(*ll, pool) == "1/least");
}

TEST_CASE("least_load: ties do not always take the first, they rotate in pool order") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({3, 3, 3});
  CHECK(Pick(*ll, pool) == "0/tie");
  CHECK(Pick(*ll, pool) == "1/tie");
  CHECK(Pick(*ll, pool) == "2/tie");
  CHECK(Pick(*ll, pool) == "0/tie");
}

TEST_CASE("least_load: only the candidates with exactly the lowest score tie") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({3, 1, 2, 1});
  // ties = [1, 3]; counter 0, 1, 2
  CHECK(Pick(*ll, pool) == "1/tie");
  CHECK(Pick(*ll, pool) == "3/tie");
  CHECK(Pick(*ll, pool) == "1/tie");
}

TEST_CASE("least_load: the counter advances on a single-candidate tie (reason least)") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  CHECK(Pick(*ll, Candidates({1, 5})) == "0/least");  // counter 0 -> 1
  // Had `least` not advanced the counter, this tie would pick index 0.
  CHECK(Pick(*ll, Candidates({4, 4})) == "1/tie");    // 1 mod 2
  CHECK(Pick(*ll, Candidates({9, 2, 9})) == "1/least");  // counter 2 -> 3
  CHECK(Pick(*ll, Candidates({4, 4, 4})) == "0/tie");    // 3 mod 3
}

TEST_CASE("least_load: if every score is unknown, round-robin over ALL candidates (fallback)") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  std::vector<std::string> picks;
  for (int k = 0; k < 5; ++k) picks.push_back(Pick(*ll, pool));
  CHECK(picks == std::vector<std::string>{"0/fallback", "1/fallback", "2/fallback",
                                          "3/fallback", "0/fallback"});
}

TEST_CASE("least_load: tie breaking and the fallback share one counter") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto unknown3 = Candidates({std::nullopt, std::nullopt, std::nullopt});
  auto tie2 = Candidates({2, 2});
  // Shared counter r: 0, 1, 2, 3, 4. Separate counters would give
  // fallback 0, tie 0, fallback 1, tie 1, fallback 2.
  CHECK(Pick(*ll, unknown3) == "0/fallback");  // r = 0
  CHECK(Pick(*ll, tie2) == "1/tie");           // r = 1
  CHECK(Pick(*ll, unknown3) == "2/fallback");  // r = 2
  CHECK(Pick(*ll, tie2) == "1/tie");           // r = 3
  CHECK(Pick(*ll, unknown3) == "1/fallback");  // r = 4
}

TEST_CASE("least_load: an unknown score is never 0, any known load beats it") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  CHECK(Pick(*ll, Candidates({std::nullopt, 5})) == "1/least+unknown");
  CHECK(Pick(*ll, Candidates({std::nullopt, 1000000, std::nullopt})) == "1/least+unknown");
}

TEST_CASE("least_load: unknown candidates never join a tie, passing them over is flagged") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({std::nullopt, 0, std::nullopt, 0});
  CHECK(Pick(*ll, pool) == "1/tie+unknown");
  CHECK(Pick(*ll, pool) == "3/tie+unknown");
  // Without unknown candidates nothing is passed over.
  CHECK(Pick(*ll, Candidates({0, 0})) == "0/tie");
}

TEST_CASE("least_load: a known score of 0 is a real load and wins") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  CHECK(Pick(*ll, Candidates({1, 0, std::nullopt})) == "1/least+unknown");
}

TEST_CASE("least_load: qps_1m moves the pick when inflight is equal") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({2, 2, 2});
  pool[0].qps_1m = 100;  // 2 + 1.0
  pool[1].qps_1m = 50;   // 2 + 0.5
  pool[2].qps_1m = 60;   // 2 + 0.6
  CHECK(Pick(*ll, pool) == "1/least");
}

TEST_CASE("least_load: qps_1m alone makes a score known") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({std::nullopt, std::nullopt});
  pool[1].qps_1m = 500;
  CHECK(Pick(*ll, pool) == "1/least+unknown");
}

TEST_CASE("least_load: queue hints apply to the candidate with that Instance index") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({1, 1, 1});
  pool[0].instance = 7;  // hints are keyed by Instance, not by position
  pool[2].instance = 3;
  Hint hint;
  hint.queues.push_back({7, Queue({{"queue_depth", 4}})});   // 1 + 1.0
  hint.queues.push_back({1, Queue({{"active_ready", 2}})});  // 1 + 2.0
  hint.queues.push_back({9, Queue({{"queue_depth", 0}})});   // not a candidate
  CHECK(Pick(*ll, pool, hint) == "2/least");
}

TEST_CASE("least_load: a queue hint alone makes an otherwise unknown score known") {
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  auto pool = Candidates({std::nullopt, std::nullopt, std::nullopt});
  Hint hint;
  hint.queues.push_back({2, Queue({{"predicted_total_backlog_ms", 0}})});
  CHECK(Pick(*ll, pool, hint) == "2/least+unknown");
}

TEST_CASE("least_load: a weight of 0 makes a component not count, even for the fallback") {
  std::unique_ptr<Strategy> ll = Request("ll:inflight=0").Make();
  // Every inflight is known, but with weight 0 no score is known.
  auto pool = Candidates({0, 9, 5});
  CHECK(Pick(*ll, pool) == "0/fallback");
  CHECK(Pick(*ll, pool) == "1/fallback");
  // qps_1m still counts: the only known score wins.
  pool[2].qps_1m = 1000;
  CHECK(Pick(*ll, pool) == "2/least+unknown");
}

TEST_CASE("least_load: qps_1m=0 replays the Proxy version that ignores qps_1m") {
  std::unique_ptr<Strategy> ll = Request("ll:qps_1m=0").Make();
  auto pool = Candidates({2, 2});
  pool[0].qps_1m = 0;
  pool[1].qps_1m = 1000;
  CHECK(Pick(*ll, pool) == "0/tie");
  CHECK(Pick(*ll, pool) == "1/tie");
}

TEST_CASE("least_load: a fresh instance starts its counter at 0") {
  std::unique_ptr<Strategy> first = Request("ll").Make();
  auto tie = Candidates({1, 1});
  CHECK(Pick(*first, tie) == "0/tie");
  std::unique_ptr<Strategy> second = Request("ll").Make();
  CHECK(Pick(*second, tie) == "0/tie");
  CHECK(Pick(*first, tie) == "1/tie");
}

}  // namespace
}  // namespace lbsim
