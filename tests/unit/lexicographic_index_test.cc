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
  // Per run, inflight from 4 values or 40 (tiers of a few candidates).
  const std::uint64_t inflights = chance(0.3) ? 40 : 4;
  auto random_qps = [&](Candidate& c) {
    static const double qps[] = {0.0, -0.0, 1.0, 2.5, 100.0, 0.3, 1e308};
    c.qps_1m = std::nullopt;
    if (chance(known_qps))
      c.qps_1m = spread_qps ? static_cast<double>(rng() % 1000) * 0.25 : qps[rng() % std::size(qps)];
  };
  auto random_load = [&](Candidate& c) {
    c.inflight = std::nullopt;
    if (chance(known_inflight)) c.inflight = static_cast<std::int64_t>(rng() % inflights);
    random_qps(c);
  };
  // A change of one field, as a replay makes them: a request routed or
  // completed (inflight +-1), or a new qps_1m alone.
  auto random_change = [&](Candidate& c) {
    if (chance(0.4)) return random_load(c);
    if (c.inflight && chance(0.5)) return void(*c.inflight += chance(0.5) ? 1 : -1);
    random_qps(c);
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
      random_change(candidates[slot]);
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


TEST_CASE("least_load L1: indexed decisions follow qps_1m changes within one large tier") {
  // Every candidate at inflight 0 with a qps_1m of its own, one or two of
  // them changing before each decision and the chosen one routing its
  // request: the lowest moves through the index's groups of a large tier,
  // each leaving and joining anywhere.
  std::mt19937_64 rng(5);
  std::vector<Candidate> pool(700);
  auto qps = [&] { return static_cast<double>(rng() % 100000) / 8; };
  for (std::size_t i = 0; i < pool.size(); ++i) {
    pool[i].instance = static_cast<InstanceIndex>(i);
    pool[i].inflight = 0;
    pool[i].qps_1m = qps();
  }
  std::unique_ptr<Strategy> reference = LexicographicLeastLoad();
  std::unique_ptr<Strategy> ll = LexicographicLeastLoad();
  IndexedSelect& index = *ll->Indexed();
  index.Reset(pool);
  for (int d = 0; d < 20000; ++d) {
    for (int changes = 1 + static_cast<int>(rng() % 2); changes > 0; --changes) {
      const std::size_t slot = rng() % pool.size();
      pool[slot].qps_1m = qps();
      index.Update(pool, slot);
    }
    const Choice want = reference->Select(pool, {});
    const Choice got = index.SelectIndexed(pool, {});
    INFO("decision ", d);
    REQUIRE(got.index == want.index);
    REQUIRE(got.reason == want.reason);
    // The chosen one routes the request (it leaves the tier: the heap's
    // first group goes); a random one with requests completes one.
    ++*pool[want.index].inflight;
    index.Update(pool, want.index);
    const std::size_t done = rng() % pool.size();
    if (*pool[done].inflight > 0 && rng() % 4 != 0) {
      --*pool[done].inflight;
      index.Update(pool, done);
    }
  }
}

}  // namespace
}  // namespace lbsim
