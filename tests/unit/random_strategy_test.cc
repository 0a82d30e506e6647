// random: uniform, seeded, reproducible; --seed reaches it as a run-wide
// parameter.

#include <doctest/doctest.h>

#include <random>

#include "strategies/registry.h"
#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::Counts;
using testing::IdlePool;
using testing::Make;
using testing::PicksOf;
using testing::Request;
using testing::RunWideRequest;

TEST_CASE("random: each pick is one mt19937_64 draw mapped to an index") {
  // Independent computation: with 5 candidates 2^64 mod 5 = 1, so a draw
  // maps to draw % 5 unless it is 0 (redrawn), which seed 1 never gives here.
  std::mt19937_64 reference(1);
  std::vector<std::size_t> expected;
  for (int i = 0; i < 20; ++i) expected.push_back(reference() % 5);
  auto s = Make("random");
  CHECK(PicksOf(*s, IdlePool(5), 20) == expected);
}

TEST_CASE("random: reason word, name and every alias") {
  auto s = Make(" RAND ");
  CHECK(s->Name() == "random");
  CHECK(s->Select(IdlePool(3), {}).reason == "random");
  CHECK(Request("random").info == Request("rand").info);
}

TEST_CASE("random: deterministic per seed") {
  auto a = Make("random:seed=9"), b = Make("random:seed=9"), c = Make("random:seed=10");
  auto pool = IdlePool(6);
  std::vector<std::size_t> pa = PicksOf(*a, pool, 100);
  CHECK(pa == PicksOf(*b, pool, 100));
  CHECK(pa != PicksOf(*c, pool, 100));
}

TEST_CASE("random: uniform, each of 5 within 2% of 20% over 50000 picks") {
  auto s = Make("random");
  for (std::size_t count : Counts(PicksOf(*s, IdlePool(5), 50000), 5)) {
    CHECK(count >= 9800);
    CHECK(count <= 10200);
  }
}

TEST_CASE("random: ignores load") {
  auto s = Make("random");
  auto pool = testing::Candidates({0, 1000, std::nullopt});
  for (std::size_t count : Counts(PicksOf(*s, pool, 3000), 3)) CHECK(count > 900);
}

TEST_CASE("a run-wide seed reaches every strategy that declares one, and only those") {
  const std::vector<RunWideParam> seed = {{"seed", "77"}};
  CHECK(RunWideRequest("random", seed).params.Number("seed") == 77);
  CHECK(RunWideRequest("p2c", seed).params.Number("seed") == 77);
  CHECK(RunWideRequest("rr", seed).params.All().empty());
  // A per-strategy value wins over the run-wide one.
  CHECK(RunWideRequest("random:seed=5", seed).params.Number("seed") == 5);
  CHECK(ParseStrategyRequest(StrategyRegistry::Builtin(), "rand", {"rand.seed=6"}, seed)
            .params.Number("seed") == 6);
  // The seeded strategy picks as if built with that seed.
  auto a = Make("random", seed), b = Make("random:seed=77");
  CHECK(PicksOf(*a, IdlePool(4), 30) == PicksOf(*b, IdlePool(4), 30));
}

TEST_CASE("random: seed must be an integer from 0 to 2^53") {
  CHECK_THROWS_WITH(Request("random:seed=-1"),
                    "strategy random: parameter seed: expected an integer >= 0 and <= "
                    "9007199254740992, got '-1'");
  CHECK_THROWS(Request("random:seed=0.5"));
  CHECK_THROWS(Request("random:seed=9007199254740993"));
  CHECK(Request("random:seed=9007199254740992").params.Text("seed") == "9007199254740992");
}

}  // namespace
}  // namespace lbsim
