// kv_aware: longest leading-prefix match, least_load on a miss or when the
// pool is imbalanced, its own LRU caches, and its reason words.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "strategies/block_cache.h"
#include "strategy_fixture.h"

namespace lbsim {
namespace {

using testing::Make;
using testing::Candidates;
using testing::Request;

Hint Prefix(std::vector<std::uint64_t> blocks) {
  Hint hint;
  hint.prefix_blocks = std::move(blocks);
  return hint;
}

// Routes `blocks` to `pool[k]` by offering kv_aware that candidate alone.
void Route(Strategy& s, const std::vector<Candidate>& pool, std::size_t k,
           std::vector<std::uint64_t> blocks) {
  REQUIRE(s.Select(std::vector<Candidate>{pool[k]}, Prefix(std::move(blocks))).index == 0);
}

TEST_CASE("kv_aware: aliases, parameters, defaults and reason words") {
  StrategyRequest r = Request("kv");
  CHECK(r.info->name == "kv_aware");
  CHECK(Request("kv-aware").info == r.info);
  CHECK(r.info->status == StrategyStatus::kExperimental);
  CHECK(r.params.Number("cache_blocks") == static_cast<double>(kDefaultCacheBlocks));
  CHECK(r.params.Number("abs_threshold") == 64);
  CHECK(r.params.Number("rel_threshold") == 1.5);
  CHECK(r.params.Number("inflight") == 1.0);  // least_load's weights
  CHECK(r.info->reasons == std::vector<std::string_view>{"cache_hit", "cache_miss", "imbalance"});
  CHECK_THROWS(Request("kv:cache_blocks=0"));
  CHECK_THROWS(Request("kv:rel_threshold=0.5"));
  CHECK_THROWS(Request("kv:abs_threshold=-1"));
}

TEST_CASE("kv_aware: nothing cached is a cache_miss decided by least_load") {
  auto s = Make("kv");
  Choice c = s->Select(Candidates({3, 1, 2}), Prefix({10, 11}));
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_miss");
}

TEST_CASE("kv_aware: an arrival without prefix_blocks is a cache_miss") {
  auto s = Make("kv");
  Choice c = s->Select(Candidates({3, 1, 2}), Hint{});
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_miss");
}

TEST_CASE("kv_aware: a cached prefix wins over a lower load") {
  auto s = Make("kv");
  auto pool = Candidates({5, 0});
  Route(*s, pool, 0, {1, 2, 3});
  Choice c = s->Select(pool, Prefix({1, 2, 3, 4}));
  CHECK(c.index == 0);
  CHECK(c.reason == "cache_hit");
  // That request's blocks are now cached on candidate 0 too.
  CHECK(s->Select(pool, Prefix({1, 2, 3, 4, 5})).index == 0);
}

TEST_CASE("kv_aware: the longest leading match wins") {
  auto s = Make("kv");
  auto pool = Candidates({0, 0, 0});
  Route(*s, pool, 0, {1, 2});
  Route(*s, pool, 1, {1, 2, 3});
  Route(*s, pool, 2, {2, 3, 4, 5});  // more blocks, but not the leading one
  Choice c = s->Select(pool, Prefix({1, 2, 3, 4, 5}));
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_hit");
}

TEST_CASE("kv_aware: a match must start at the first block") {
  auto s = Make("kv");
  auto pool = Candidates({2, 1});
  Route(*s, pool, 0, {2, 3, 4});
  Choice c = s->Select(pool, Prefix({1, 2, 3, 4}));
  CHECK(c.index == 1);  // least_load
  CHECK(c.reason == "cache_miss");
}

TEST_CASE("kv_aware: among equal longest matches least_load decides, ties by its counter") {
  auto s = Make("kv");
  auto pool = Candidates({4, 2, 0});
  Route(*s, pool, 0, {1, 2});
  Route(*s, pool, 1, {1, 2});
  Choice c = s->Select(pool, Prefix({1, 2}));
  CHECK(c.index == 1);  // candidate 2 is idler but holds nothing
  CHECK(c.reason == "cache_hit");

  auto t = Make("kv");
  auto even = Candidates({1, 1, 0});
  Route(*t, even, 0, {7});
  Route(*t, even, 1, {7});
  // least_load's counter has advanced twice (the two routings), so the tie
  // among candidates 0 and 1 picks 2 mod 2 = 0, then 1.
  CHECK(t->Select(even, Prefix({7})).index == 0);
  CHECK(t->Select(even, Prefix({7})).index == 1);
}

TEST_CASE("kv_aware: an imbalanced pool overrides the cache") {
  // Defaults: imbalanced when max - min > 64 AND max > 1.5 * min.
  auto s = Make("kv");
  auto pool = Candidates({100, 0});
  Route(*s, pool, 0, {1, 2});
  Choice c = s->Select(pool, Prefix({1, 2}));
  CHECK(c.index == 1);
  CHECK(c.reason == "imbalance");
}

TEST_CASE("kv_aware: imbalance needs both the absolute and the relative gap") {
  auto hit = [](std::vector<Candidate> pool) {
    auto s = Make("kv");
    Route(*s, pool, 0, {1});
    return s->Select(pool, Prefix({1})).reason;
  };
  CHECK(hit(Candidates({64, 0})) == "cache_hit");     // gap 64 is not > 64
  CHECK(hit(Candidates({65, 0})) == "imbalance");     // 65 > 64 and 65 > 0
  CHECK(hit(Candidates({280, 200})) == "cache_hit");  // gap 80, but 280 <= 300
  CHECK(hit(Candidates({301, 200})) == "imbalance");  // gap 101 and 301 > 300
  // Unknown loads take no part; one known load cannot be imbalanced.
  CHECK(hit(Candidates({std::nullopt, 500})) == "cache_hit");
  auto s = Make("kv:abs_threshold=0:rel_threshold=1");
  CHECK(s->Select(Candidates({1, 2}), Prefix({1})).reason == "imbalance");
}

TEST_CASE("kv_aware: LRU eviction at cache_blocks forgets the tail first") {
  auto s = Make("kv:cache_blocks=4");
  auto pool = Candidates({5, 0});
  Route(*s, pool, 0, {1, 2, 3, 4});
  Route(*s, pool, 0, {9});  // evicts block 4
  // Match 3 of {1,2,3,4}: still a hit on candidate 0.
  CHECK(s->Select(pool, Prefix({1, 2, 3, 4})).reason == "cache_hit");

  auto t = Make("kv:cache_blocks=2");
  Route(*t, pool, 0, {1});
  Route(*t, pool, 0, {2, 3});  // evicts block 1
  Choice c = t->Select(pool, Prefix({1}));
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_miss");
}

TEST_CASE("kv_aware: a new registration of an Instance starts with an empty cache") {
  auto s = Make("kv");
  auto pool = Candidates({5, 0});
  Route(*s, pool, 0, {1, 2});
  pool[0].registration = 2;  // removed and registered again
  Choice c = s->Select(pool, Prefix({1, 2}));
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_miss");
}

TEST_CASE("kv_aware: arrivals without prefix_blocks leave every cache as it was") {
  auto s = Make("kv");
  auto pool = Candidates({5, 0, 5});
  Route(*s, pool, 0, {1, 2});
  Route(*s, pool, 2, {7});
  pool[2].registration = 2;  // removed and registered again
  for (int i = 0; i < 3; ++i) {
    Choice c = s->Select(pool, Hint{});
    CHECK(c.index == 1);
    CHECK(c.reason == "cache_miss");
  }
  Choice hit = s->Select(pool, Prefix({1, 2}));
  CHECK(hit.index == 0);
  CHECK(hit.reason == "cache_hit");
  // Instance 2's new registration never held block 7.
  Choice miss = s->Select(pool, Prefix({7}));
  CHECK(miss.index == 1);
  CHECK(miss.reason == "cache_miss");
}

TEST_CASE("kv_aware: least_load's unknown rule applies to its least_load picks") {
  auto s = Make("kv");
  Choice c = s->Select(Candidates({std::nullopt, 3}), Prefix({1}));
  CHECK(c.index == 1);
  CHECK(c.reason == "cache_miss");
  CHECK(c.passed_over_unknown);
}

}  // namespace
}  // namespace lbsim
