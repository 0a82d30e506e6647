// kv_aware: routes a request to the Instance most likely to hold its prompt
// prefix in KV cache, unless the pool is imbalanced.
//
// State: an approximate KV cache per Instance (InstanceBlockCaches: LRU,
// `cache_blocks` blocks each, emptied when the Instance is registered anew)
// holding the `prefix_blocks` of the requests this strategy routed there,
// and a LeastLoadRule (least_load's score, weights, unknown exclusion and
// round-robin counter).
//
// A decision:
// 1. Imbalance: over the candidates with a known load score, if
//    max - min > abs_threshold AND max > rel_threshold * min, pick by
//    least_load among all candidates. Reason `imbalance`.
// 2. Otherwise find each candidate's match: the number of leading blocks of
//    the request's prefix_blocks its cache holds. When the longest match is
//    0 (no candidate holds the first block, or the request has no
//    prefix_blocks), pick by least_load among all. Reason `cache_miss`.
// 3. Otherwise pick by least_load among the candidates with the longest
//    match (in pool order). Reason `cache_hit`.
// Then the request's blocks are cached on the chosen Instance.
// In a replay, step 1 and a miss in step 2 read a LoadIndex kept over the
// World's candidates (IndexedSelect) instead of scoring every candidate;
// the choices are Select's.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "strategies/block_cache.h"
#include "strategies/least_load_rule.h"
#include "strategies/load_indexed_select.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

class KvAware final : public Strategy, public LoadIndexedSelect {
 public:
  explicit KvAware(const ParamValues& p)
      : KvAware(p, LoadWeights::FromParams(p)) {}

  std::string_view Name() const override { return "kv_aware"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    return Cached(candidates, hint, Decide(candidates, hint));
  }

  IndexedSelect* Indexed() override { return this; }

  Choice SelectIndexed(std::span<const Candidate> candidates, const Hint& hint) override {
    LoadIndex::Lowest lowest;
    // The index declines the rare decisions with a NaN score.
    if (!index().FindLowest(candidates, hint, lowest)) return Select(candidates, hint);
    return Cached(candidates, hint, DecideIndexed(candidates, hint, lowest));
  }

 private:
  KvAware(const ParamValues& p, const LoadWeights& weights)
      : LoadIndexedSelect(weights, UnknownLoad::kExclude),
        caches_(static_cast<std::size_t>(p.Number("cache_blocks"))),
        abs_threshold_(p.Number("abs_threshold")),
        rel_threshold_(p.Number("rel_threshold")),
        rule_(weights, UnknownLoad::kExclude) {}

  // `choice`, after caching the request's blocks on the chosen Instance.
  Choice Cached(std::span<const Candidate> candidates, const Hint& hint, Choice choice) {
    if (choice.refused) return choice;
    const Candidate& chosen = candidates[choice.index];
    caches_.For(chosen.instance, chosen.registration).Insert(hint.prefix_blocks);
    return choice;
  }

  Choice Decide(std::span<const Candidate> candidates, const Hint& hint) {
    if (Imbalanced(rule_.Score(candidates, hint))) return Relabel(rule_.Pick(), "imbalance");

    // No blocks: every candidate matches none of them.
    if (hint.prefix_blocks.empty()) return Relabel(rule_.Pick(), "cache_miss");
    if (!LongestMatches(candidates, hint)) return Relabel(rule_.Pick(), "cache_miss");
    return Relabel(rule_.PickAmong(best_), "cache_hit");
  }

  // Decide, the lowest score and its ties found by index() (`lowest`):
  // least_load among all candidates through the index, among the best
  // matches by scoring them all.
  Choice DecideIndexed(std::span<const Candidate> candidates, const Hint& hint,
                       const LoadIndex::Lowest& lowest) {
    const auto pick = [&] { return rule_.PickIndexed(candidates.size(), index(), lowest); };
    if (lowest.ties > 0 && Imbalanced(lowest.score, index().HighestScore()))
      return Relabel(pick(), "imbalance");
    if (hint.prefix_blocks.empty()) return Relabel(pick(), "cache_miss");
    if (!LongestMatches(candidates, hint)) return Relabel(pick(), "cache_miss");
    rule_.Score(candidates, hint);
    return Relabel(rule_.PickAmong(best_), "cache_hit");
  }

  // Puts in best_ the candidates (in pool order) whose caches hold the
  // longest prefix of the request's blocks; false when that is none.
  bool LongestMatches(std::span<const Candidate> candidates, const Hint& hint) {
    std::size_t longest = 0;
    matches_.clear();
    for (const Candidate& c : candidates) {
      matches_.push_back(caches_.For(c.instance, c.registration).MatchPrefix(hint.prefix_blocks));
      longest = std::max(longest, matches_.back());
    }
    if (longest == 0) return false;
    best_.clear();
    for (std::size_t i = 0; i < matches_.size(); ++i)
      if (matches_[i] == longest) best_.push_back(i);
    return true;
  }

  bool Imbalanced(std::span<const std::optional<double>> scores) const {
    std::optional<double> low, high;
    for (const std::optional<double>& s : scores) {
      if (!s) continue;
      if (!low || *s < *low) low = s;
      if (!high || *s > *high) high = s;
    }
    return high && Imbalanced(*low, *high);
  }

  // The imbalance test on the lowest and highest known scores.
  bool Imbalanced(double low, double high) const {
    return high - low > abs_threshold_ && high > rel_threshold_ * low;
  }

  static Choice Relabel(Choice choice, std::string_view reason) {
    if (!choice.refused) choice.reason = reason;
    return choice;
  }

  InstanceBlockCaches caches_;
  double abs_threshold_;
  double rel_threshold_;
  LeastLoadRule rule_;
  std::vector<std::size_t> matches_, best_;  // reused buffers
};

std::vector<ParamSpec> Params() {
  std::vector<ParamSpec> params = {
      {.name = "cache_blocks",
       .kind = ParamKind::kInteger,
       .default_text = "4096",  // kDefaultCacheBlocks
       .description = "KV-cache capacity of each Instance, in blocks (LRU)",
       .min = 1},
      {.name = "abs_threshold",
       .kind = ParamKind::kNumber,
       .default_text = "64",
       .description = "imbalanced when max load - min load exceeds this...",
       .min = 0},
      {.name = "rel_threshold",
       .kind = ParamKind::kNumber,
       .default_text = "1.5",
       .description = "...and max load exceeds this times min load",
       .min = 1},
  };
  std::span<const ParamSpec> weights = LoadWeightParams();
  params.insert(params.end(), weights.begin(), weights.end());
  return params;
}

}  // namespace

StrategyInfo KvAwareInfo() {
  return {
      .name = "kv_aware",
      .aliases = {"kv", "kv-aware"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Chooses the Instance whose KV cache holds the longest prefix of the "
          "request; least_load when none matches or the pool is imbalanced.",
      .params = Params(),
      .reasons = {"cache_hit", "cache_miss", "imbalance"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<KvAware>(p);
      },
  };
}

}  // namespace lbsim
