// round_robin (strategies.md "round_robin"): candidates[c mod n], then
// c += 1, with one counter for the whole run.

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "candidates.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

using testing::Candidates;
using testing::Request;

// The indices `strategy` picks over `candidates`, `n` times.
std::vector<std::size_t> PickIndices(Strategy& strategy,
                                     const std::vector<Candidate>& candidates, int n) {
  std::vector<std::size_t> out;
  for (int k = 0; k < n; ++k) out.push_back(strategy.Select(candidates, Hint{}).index);
  return out;
}

TEST_CASE("round_robin picks candidates[c mod n] with c starting at 0") {
  std::unique_ptr<Strategy> rr = Request("rr").Make();
  CHECK(rr->Name() == "round_robin");
  auto pool = Candidates({0, 0, 0});
  CHECK(PickIndices(*rr, pool, 7) == std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0});
}

TEST_CASE("round_robin gives the reason round_robin and never reports passing over unknowns") {
  std::unique_ptr<Strategy> rr = Request("round_robin").Make();
  auto pool = Candidates({std::nullopt, 4});
  for (int k = 0; k < 3; ++k) {
    Choice c = rr->Select(pool, Hint{});
    CHECK(c.reason == "round_robin");
    CHECK_FALSE(c.passed_over_unknown);
  }
}

TEST_CASE("round_robin keeps one global counter, so a change of the pool shifts the mapping") {
  std::unique_ptr<Strategy> rr = Request("rr").Make();
  auto three = Candidates({0, 0, 0});
  auto two = Candidates({0, 0});
  auto one = Candidates({0});
  CHECK(rr->Select(three, Hint{}).index == 0);  // c = 0
  CHECK(rr->Select(two, Hint{}).index == 1);    // c = 1
  CHECK(rr->Select(two, Hint{}).index == 0);    // c = 2
  CHECK(rr->Select(one, Hint{}).index == 0);    // c = 3
  CHECK(rr->Select(three, Hint{}).index == 1);  // c = 4: 4 mod 3
}

TEST_CASE("round_robin ignores loads, hints and weights") {
  std::unique_ptr<Strategy> rr = Request("rr").Make();
  auto pool = Candidates({100, 0, std::nullopt});
  pool[0].weight = 50.0;
  pool[1].qps_1m = 0.0;
  Hint hint;
  hint.queues.push_back({2, testing::Queue({{"queue_depth", 0}})});
  std::vector<std::size_t> picks;
  for (int k = 0; k < 6; ++k) picks.push_back(rr->Select(pool, hint).index);
  CHECK(picks == std::vector<std::size_t>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("each round_robin instance has its own counter") {
  std::unique_ptr<Strategy> first = Request("rr").Make();
  std::unique_ptr<Strategy> second = Request("rr").Make();
  auto pool = Candidates({0, 0, 0});
  CHECK(first->Select(pool, Hint{}).index == 0);
  CHECK(first->Select(pool, Hint{}).index == 1);
  CHECK(second->Select(pool, Hint{}).index == 0);
}

}  // namespace
}  // namespace lbsim
