// Parameter rules the new strategies rely on: integer parameters, upper
// bounds and run-wide values.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "strategies/params.h"
#include "strategies/registry.h"
#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::Request;
using testing::RunWideRequest;

TEST_CASE("integer parameters take whole decimal integers only, shown as digits") {
  CHECK(Request("p2c:choices=3").params.Text("choices") == "3");
  CHECK(Request("p2c:choices=+4").params.Number("choices") == 4);
  CHECK_THROWS_WITH(Request("p2c:choices=2.0"),
                    "strategy power_of_two: parameter choices: expected an integer >= 1 "
                    "and <= 1024, got '2.0'");
  CHECK_THROWS(Request("p2c:choices=1e2"));
  CHECK_THROWS(Request("p2c:choices="));
  CHECK_THROWS(Request("p2c:choices=two"));
  CHECK(Request("kv:cache_blocks=9007199254740992").params.Text("cache_blocks") ==
        "9007199254740992");
  CHECK_THROWS(Request("kv:cache_blocks=9007199254740993"));
}

TEST_CASE("number parameters keep their old message when unbounded above") {
  CHECK_THROWS_WITH(Request("ll:inflight=-1"),
                    "strategy least_load: parameter inflight: expected a finite number "
                    ">= 0, got '-1'");
}

TEST_CASE("run-wide values: only where declared, then --set, then inline") {
  const std::vector<RunWideParam> run_wide = {{"cache_blocks", "64"}, {"seed", "3"}};
  const StrategyRegistry& registry = StrategyRegistry::Builtin();
  CHECK(RunWideRequest("kv", run_wide).params.Number("cache_blocks") == 64);
  CHECK(RunWideRequest("ll", run_wide).params.All().size() == Request("ll").params.All().size());
  StrategyRequest set = ParseStrategyRequest(registry, "kv", {"kv.cache_blocks=32"}, run_wide);
  CHECK(set.params.Number("cache_blocks") == 32);
  StrategyRequest inline_wins =
      ParseStrategyRequest(registry, "kv:cache_blocks=16", {"kv.cache_blocks=32"}, run_wide);
  CHECK(inline_wins.params.Number("cache_blocks") == 16);
}

}  // namespace
}  // namespace lbsim
