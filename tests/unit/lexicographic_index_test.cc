// L1 least_load (cacheroute@df8382d, 2f1019a, 55b32e9) decided through its
// LexicographicIndex (Reset, Update, SelectIndexed) against its plain
// Select, which scans the candidates: on random pools, loads and list
// changes every decision must pick the same candidate with the same reason
// and unknown_excluded flag.

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "replay_fixture.h"
#include "strategies/proxy_profile.h"
#include "strategies/registry.h"
#include "strategies/strategy.h"

namespace lbsim {
namespace {

std::unique_ptr<Strategy> LexicographicLeastLoad() {
  const ProxyProfile* l1 = FindProxyProfile("cacheroute@df8382d");
  REQUIRE(l1 != nullptr);
  return BindToProxy(testing::Request("ll"), ProxyRun{l1, PythonVersion::k312}).Make();
}

// Runs `decisions` random decisions over a pool of at most `max_pool`
// Instances; returns the decisions by reason.
std::map<std::string, int> Compare(std::uint64_t seed, std::size_t max_pool, int decisions) {
  std::mt19937_64 rng(seed);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  // Per run, how often a load is known: never, always or sometimes.
  const double known_inflight = chance(0.2) ? 0.0 : chance(0.3) ? 1.0 : 0.6;
  const double known_qps = chance(0.3) ? 0.0 : chance(0.3) ? 1.0 : 0.5;
  // Per run, qps_1m from a few values (many ties) or from a thousand, so
  // that most candidates have one of their own and moves empty groups.
  const bool spread_qps = chance(0.3);
  auto random_load = [&](Candidate& c) {
    c.inflight = std::nullopt;
    c.qps_1m = std::nullopt;
    if (chance(known_inflight)) c.inflight = static_cast<std::int64_t>(rng() % 4);
    static const double qps[] = {0.0, -0.0, 1.0, 2.5, 100.0, 0.3, 1e308};
    if (chance(known_qps))
      c.qps_1m = spread_qps ? static_cast<double>(rng() % 1000) * 0.25 : qps[rng() % std::size(qps)];
  };
  std::vector<Candidate> universe(1 + rng() % max_pool);
  for (std::size_t i = 0; i < universe.size(); ++i) {
    universe[i].instance = static_cast<InstanceIndex>(i);
    random_load(universe[i]);
  }
  std::unique_ptr<Strategy> reference = LexicographicLeastLoad();
  std::unique_ptr<Strategy> indexed = LexicographicLeastLoad();
  IndexedSelect* index = indexed->Indexed();
  REQUIRE(index != nullptr);
  std::vector<Candidate> candidates;
  auto choose_alive = [&] {
    candidates.clear();
    const double alive = chance(0.5) ? 1.0 : 0.5;
    for (const Candidate& c : universe)
      if (chance(alive)) candidates.push_back(c);
    if (candidates.empty()) candidates.push_back(universe[rng() % universe.size()]);
    index->Reset(candidates);
  };
  choose_alive();
  std::map<std::string, int> reasons;
  for (int d = 0; d < decisions; ++d) {
    if (chance(0.03)) choose_alive();
    for (auto changes = chance(0.5) ? rng() % 4 : 0; changes > 0; --changes) {
      const std::size_t slot = rng() % candidates.size();
      random_load(candidates[slot]);
      index->Update(candidates, slot);
    }
    const Choice want = reference->Select(candidates, {});
    const Choice got = index->SelectIndexed(candidates, {});
    INFO("seed ", seed, ", decision ", d, ", ", candidates.size(), " candidates");
    REQUIRE(got.index == want.index);
    REQUIRE(got.reason == want.reason);
    REQUIRE(got.passed_over_unknown == want.passed_over_unknown);
    ++reasons[std::string(want.reason)];
    // Like a replay: the chosen Instance's known inflight counts the request.
    if (candidates[want.index].inflight && chance(0.7)) {
      ++*candidates[want.index].inflight;
      index->Update(candidates, want.index);
    }
  }
  return reasons;
}

TEST_CASE("least_load L1: indexed decisions equal Select's on random pools") {
  std::map<std::string, int> reasons;
  // Pools of up to 12 (a scan decides), and up to 600, whose lists cross
  // the size from which the index decides as the alive set changes.
  for (std::uint64_t seed = 1; seed <= 400; ++seed)
    for (const auto& [reason, n] : Compare(seed, seed % 4 ? 600 : 12, 80)) reasons[reason] += n;
  // Every way the rule decides was compared.
  CHECK(reasons["least"] > 1000);
  CHECK(reasons["tie"] > 1000);
  CHECK(reasons["fallback"] > 1000);
}

TEST_CASE("least_load L1: indexed ties rotate in pool order through thousands of equal loads") {
  std::vector<Candidate> pool(5000);
  for (std::size_t i = 0; i < pool.size(); ++i) {
    pool[i].instance = static_cast<InstanceIndex>(i);
    pool[i].inflight = i % 2 ? std::optional<std::int64_t>(0) : std::nullopt;
  }
  std::unique_ptr<Strategy> ll = LexicographicLeastLoad();
  IndexedSelect& index = *ll->Indexed();
  index.Reset(pool);
  // The tier: the 2,500 odd positions at inflight 0, in pool order.
  for (std::size_t k = 0; k < 3000; ++k) {
    const Choice c = index.SelectIndexed(pool, {});
    REQUIRE(c.index == 2 * (k % 2500) + 1);
    REQUIRE(c.reason == "tie");
    REQUIRE(c.passed_over_unknown);
  }
}

}  // namespace
}  // namespace lbsim
