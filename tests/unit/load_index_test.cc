// least_load's and kv_aware's indexed decisions (IndexedSelect over a
// LoadIndex) against their plain Select, which scores every candidate: on
// random pools, loads, hints, prefixes, list changes, policies, thresholds
// and weights, every decision must pick the same candidate with the same
// reason and unknown_excluded flag.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/errors.h"
#include "candidates.h"
#include "replay_fixture.h"
#include "strategies/load_index.h"
#include "strategies/proxy_profile.h"
#include "strategies/registry.h"
#include "strategies/strategy.h"

namespace lbsim {
namespace {

using testing::Request;

// The strategies with an indexed decision.
enum class Indexed { kLeastLoad, kKvAware };

// One random configuration of `strategy`: least_load's policy, or
// kv_aware's thresholds and cache size; the weights.
std::string RandomSpec(std::mt19937_64& rng, bool extreme, Indexed strategy) {
  static const char* const policies[] = {"exclude", "zero", "max"};
  static const char* const components[] = {
      "inflight", "queue_depth", "active_prepare", "active_ready", "prepare_queue_depth",
      "ready_queue_depth", "pending_prefill_count", "active_decode_count",
      "predicted_total_backlog_ms", "qps_1m"};
  static const double weights[] = {0.0, 0.5, 1.0, 2.0, 0.01, 0.1, 3.0};
  // Small thresholds, so that imbalance comes and goes.
  static const double abs_thresholds[] = {0.0, 0.5, 1.0, 2.0, 64.0};
  static const double rel_thresholds[] = {1.0, 1.5, 2.0, 4.0};
  std::string spec =
      strategy == Indexed::kLeastLoad
          ? fmt::format("ll:unknown={}", policies[rng() % 3])
          : fmt::format("kv:abs_threshold={}:rel_threshold={}:cache_blocks={}",
                        abs_thresholds[rng() % std::size(abs_thresholds)],
                        rel_thresholds[rng() % std::size(rel_thresholds)], 1 + rng() % 6);
  for (const char* component : components) {
    const auto roll = rng() % 4;
    if (roll == 0) continue;  // default weight
    const double w = extreme && roll == 1 ? 1e300 : weights[rng() % std::size(weights)];
    spec += fmt::format(":{}={}", component, w);
  }
  return spec;
}

// Drives a reference strategy (Select) and an indexed one (Reset, Update,
// SelectIndexed) through the same random decisions and compares them.
class Comparison {
 public:
  // `proxy`: the strategy as that Proxy runs it (its weights' defaults and
  // its Python's sum()); the spec's otherwise.
  Comparison(std::uint64_t seed, std::size_t max_pool,
             std::optional<ProxyRun> proxy = std::nullopt,
             Indexed strategy = Indexed::kLeastLoad)
      : rng_(seed), extreme_(rng_() % 8 == 0), spec_(RandomSpec(rng_, extreme_, strategy)),
        prefixes_(strategy == Indexed::kKvAware),
        reference_(Bound(spec_, proxy).Make()), indexed_(Bound(spec_, proxy).Make()) {
    REQUIRE(indexed_->Indexed() != nullptr);
    const std::size_t pool = 1 + rng_() % max_pool;
    known_inflight_ = Chance(0.2) ? 1.0 : Chance(0.3) ? 0.0 : Fraction();
    known_qps_ = Chance(0.3) ? 0.0 : Fraction();
    // Instances with scattered indices, some never alive (hints may name them).
    std::vector<InstanceIndex> indices(4 * pool + 8);
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<InstanceIndex>(i);
    std::shuffle(indices.begin(), indices.end(), rng_);
    indices.resize(pool + rng_() % (pool + 1));
    for (InstanceIndex i : indices) {
      universe_.push_back(Candidate{i, "", 1.0, std::nullopt, std::nullopt, 0});
      RandomLoad(universe_.back());
    }
    ChooseAlive();
  }

  // The decisions compared so far, by reason.
  const std::map<std::string, int>& reasons() const { return reasons_; }

  // Runs `decisions` decisions with random changes between them.
  void Run(int decisions) {
    for (int d = 0; d < decisions; ++d) {
      if (Chance(0.03)) ChooseAlive();
      const auto changes = Chance(0.5) ? rng_() % 4 : 0;
      for (std::size_t k = 0; k < changes; ++k) {
        const std::size_t slot = rng_() % candidates_.size();
        RandomLoad(candidates_[slot]);
        indexed_->Indexed()->Update(candidates_, slot);
      }
      const Hint hint = Chance(0.5) ? RandomHint() : Hint{};
      std::optional<Choice> chosen = Decide(hint, d);
      // Like a replay: the chosen Instance's known inflight counts the
      // routed request.
      if (chosen && candidates_[chosen->index].inflight && Chance(0.7)) {
        ++*candidates_[chosen->index].inflight;
        InflightMoved(chosen->index);
      }
      // Like a completion: a known inflight value above 0 drops by one.
      if (Chance(0.3)) {
        const std::size_t slot = rng_() % candidates_.size();
        std::optional<std::int64_t>& inflight = candidates_[slot].inflight;
        if (inflight && *inflight > 0) {
          --*inflight;
          InflightMoved(slot);
        }
      }
    }
  }

 private:
  // Tells the index that the known inflight value of candidates_[slot]
  // moved, as a replay does: mostly through LoadIndex::InflightMoved.
  void InflightMoved(std::size_t slot) {
    LoadIndex* loads = indexed_->Indexed()->Loads();
    if (loads && Chance(0.8)) loads->InflightMoved(slot, *candidates_[slot].inflight);
    else indexed_->Indexed()->Update(candidates_, slot);
  }

  static StrategyRequest Bound(const std::string& spec, const std::optional<ProxyRun>& proxy) {
    return proxy ? BindToProxy(Request(spec), *proxy) : Request(spec);
  }

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  double Fraction() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  // Small loads, so that many scores tie exactly.
  void RandomLoad(Candidate& c) {
    c.inflight = std::nullopt;
    c.qps_1m = std::nullopt;
    if (Chance(known_inflight_)) c.inflight = static_cast<std::int64_t>(rng_() % 4);
    if (Chance(known_qps_)) {
      static const double qps[] = {0.0, 1.0, 2.5, 100.0, 0.3};
      c.qps_1m = qps[rng_() % std::size(qps)];
      if (extreme_ && Chance(0.05)) c.qps_1m = Chance(0.5) ? 1e308 : std::nan("");
    }
  }

  // A new alive set (a random subset of the universe, never empty, in
  // universe order), handed to the index as a new list.
  void ChooseAlive() {
    candidates_.clear();
    const double alive = Chance(0.5) ? 1.0 : Fraction();
    for (const Candidate& c : universe_)
      if (Chance(alive)) candidates_.push_back(c);
    if (candidates_.empty()) candidates_.push_back(universe_[rng_() % universe_.size()]);
    indexed_->Indexed()->Reset(candidates_);
  }

  double RandomQueueValue() {
    static const double values[] = {0.0, 1.0, 2.0, 3.0, 0.5, -0.0, -1.0, 40.0};
    if (extreme_ && Chance(0.1)) {
      const double inf = std::numeric_limits<double>::infinity();
      return Chance(0.5) ? inf : -inf;
    }
    return values[rng_() % std::size(values)];
  }

  // Queue values for a random set of Instances: alive or not, repeated
  // (the first entry counts), with some or no numeric values.
  Hint RandomHint() {
    Hint hint;
    if (prefixes_ && Chance(0.3)) {
      // Blocks only: kv_aware matches them, the scores stay the base ones.
      for (std::size_t b = rng_() % 4; b > 0; --b) hint.prefix_blocks.push_back(rng_() % 4);
      return hint;
    }
    const std::size_t n = universe_.size();
    const std::size_t entries = Chance(0.7) ? rng_() % 5 : Chance(0.7) ? rng_() % (n / 2 + 1)
                                                                        : rng_() % (n + 4);
    for (std::size_t e = 0; e < entries; ++e) {
      Hint::Entry entry{Chance(0.05) ? static_cast<InstanceIndex>(10 * n + e)
                                     : universe_[rng_() % n].instance,
                        {}};
      const double density = Chance(0.2) ? 0.0 : Fraction();
      for (std::size_t i = 0; i < kQueueFields.size(); ++i) {
        // A value the hint does not hold as a number (absent, a string)
        // stays unknown.
        if (!Chance(density)) continue;
        entry.load.known[i] = true;
        entry.load.value[i] = RandomQueueValue();
      }
      hint.queues.push_back(entry);
    }
    // Short prefixes over a few blocks: caches that hold some of them.
    if (prefixes_ && Chance(0.7)) {
      const std::size_t blocks = rng_() % 5;
      for (std::size_t b = 0; b < blocks; ++b) hint.prefix_blocks.push_back(rng_() % 4);
    }
    return hint;
  }

  std::optional<Choice> Decide(const Hint& hint, int d) {
    std::optional<Choice> want, got;
    std::string want_error, got_error;
    try {
      want = reference_->Select(candidates_, hint);
    } catch (const InputError& e) {
      want_error = e.what();
    }
    try {
      got = indexed_->Indexed()->SelectIndexed(candidates_, hint);
    } catch (const InputError& e) {
      got_error = e.what();
    }
    INFO("spec ", spec_, ", decision ", d, ", ", candidates_.size(), " candidates, ",
         hint.queues.size(), " hint entries");
    REQUIRE(got_error == want_error);
    REQUIRE(got.has_value() == want.has_value());
    if (!want) return std::nullopt;
    CHECK(got->index == want->index);
    CHECK(got->reason == want->reason);
    CHECK(got->passed_over_unknown == want->passed_over_unknown);
    ++reasons_[std::string(want->reason)];
    return want;
  }

  std::mt19937_64 rng_;
  bool extreme_;  // infinite hint values, NaN and overflowing scores
  std::string spec_;
  bool prefixes_;  // hints carry prefix_blocks
  std::map<std::string, int> reasons_;  // the decisions compared, by reason
  std::unique_ptr<Strategy> reference_, indexed_;
  double known_inflight_ = 1.0, known_qps_ = 0.0;
  std::vector<Candidate> universe_;
  std::vector<Candidate> candidates_;
};

TEST_CASE("least_load: indexed decisions equal Select's on random pools and hints") {
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    CAPTURE(seed);
    Comparison(seed, 300).Run(40);
  }
}

TEST_CASE("least_load: indexed decisions equal Select's on small pools over long runs") {
  for (std::uint64_t seed = 1000; seed < 1100; ++seed) {
    CAPTURE(seed);
    Comparison(seed, 6).Run(400);
  }
}

TEST_CASE("least_load: indexed decisions equal Select's on large pools") {
  // Thousands of candidates over a few distinct loads: score groups of
  // hundreds to thousands of slots, kept in SlotSet's dense form.
  for (std::uint64_t seed = 3000; seed < 3012; ++seed) {
    CAPTURE(seed);
    Comparison(seed, 6000).Run(250);
  }
}

TEST_CASE("least_load: indexed decisions equal Select's under a Proxy's compensated sum()") {
  // The latest Proxy on Python 3.12 adds the score's terms with Neumaier's
  // compensation; on 3.11 left to right, with its own weight defaults.
  for (std::uint64_t seed = 2000; seed < 2300; ++seed) {
    CAPTURE(seed);
    const PythonVersion python = seed % 2 ? PythonVersion::k311 : PythonVersion::k312;
    Comparison(seed, seed % 3 ? 20 : 300, ProxyRun{&LatestProxyProfile(), python}).Run(60);
  }
}

TEST_CASE("kv_aware: indexed decisions equal Select's on random pools, hints and prefixes") {
  // Every path: imbalance (the index's lowest and highest scores), a miss
  // without blocks or without a match, a hit among the longest matches, a
  // refusal.
  std::map<std::string, int> reasons;
  for (std::uint64_t seed = 4000; seed < 4400; ++seed) {
    CAPTURE(seed);
    Comparison comparison(seed, seed % 4 ? 20 : 300, std::nullopt, Indexed::kKvAware);
    comparison.Run(60);
    for (const auto& [reason, n] : comparison.reasons()) reasons[reason] += n;
  }
  CHECK(reasons["imbalance"] > 1000);
  CHECK(reasons["cache_miss"] > 1000);
  CHECK(reasons["cache_hit"] > 1000);
  CHECK(reasons["refused"] > 0);  // a NaN score: the index declines, Select refuses
  CHECK(reasons.size() == 4);
}

TEST_CASE("least_load: indexed ties rotate in pool order through thousands of equal loads") {
  // Every candidate at load 0: the k-th decision takes the k-th candidate
  // while the counter walks the one big tie.
  std::vector<Candidate> pool;
  for (InstanceIndex i = 0; i < 5000; ++i)
    pool.push_back(Candidate{i, "", 1.0, std::int64_t{0}, std::nullopt, 0});
  std::unique_ptr<Strategy> ll = Request("ll").Make();
  IndexedSelect& index = *ll->Indexed();
  index.Reset(pool);
  for (std::size_t k = 0; k < 3000; ++k) {
    const Choice c = index.SelectIndexed(pool, {});
    REQUIRE(c.index == k);
    REQUIRE(c.reason == "tie");
  }
  // A hint lifts candidate 3000 above the rest: the counter (3000) now
  // lands on the next of the remaining ties in pool order.
  Hint hint;
  hint.queues.push_back({3000, testing::Queue({{"active_ready", 1.0}})});
  CHECK(index.SelectIndexed(pool, hint).index == 3001);
}

}  // namespace
}  // namespace lbsim
