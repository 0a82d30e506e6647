// power_of_two: samples `choices` candidates at random and keeps the one
// with the lowest load score (least_load's score, weights and unknown rule).
//
// Sampling: `replacement=distinct` (SGLang) draws min(choices, n) different
// candidates by a partial Fisher-Yates shuffle of the pool-order indices;
// `replacement=with` (Envoy) draws `choices` independent uniform indices, so
// a candidate may be sampled more than once (it still counts once).
// Comparison among the sampled, in sample order: the lowest known score
// wins (`least`); when several sampled candidates share it, the first
// sampled wins (`tie`) -- the sample order is already random, so no counter
// is kept; when no sampled candidate has a known score, the first sampled
// wins (`fallback`), a uniform pick. Under unknown=exclude a sampled
// unknown is passed over while a sampled one is known; under zero it counts
// as 0, under max as the highest known score among ALL candidates.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "strategies/load_score.h"
#include "strategies/lowest_score.h"
#include "strategies/registry.h"
#include "strategies/seeded_random.h"
#include "strategies/unknown_load.h"

namespace lbsim {
namespace {

class PowerOfTwo final : public Strategy {
 public:
  explicit PowerOfTwo(const ParamValues& p)
      : weights_(LoadWeights::FromParams(p)),
        unknown_(UnknownLoadFromParams(p)),
        choices_(static_cast<std::size_t>(p.Number("choices"))),
        with_replacement_(p.Text("replacement") == "with"),
        random_(static_cast<std::uint64_t>(p.Number("seed"))) {}

  std::string_view Name() const override { return "power_of_two"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    Sample(candidates.size());
    // Only the sampled entries are read (FindLowestScore examines them).
    if (scores_.size() != candidates.size()) scores_.assign(candidates.size(), std::nullopt);
    bool any_unknown = false;
    for (std::size_t i : sampled_) {
      scores_[i] = LoadScore(candidates[i], hint.QueueFor(candidates[i].instance), weights_);
      any_unknown = any_unknown || !scores_[i];
    }
    if (any_unknown && unknown_ != UnknownLoad::kExclude) {
      std::optional<double> highest;
      if (unknown_ == UnknownLoad::kMax) highest = HighestKnownOfAll(candidates, hint);
      for (std::size_t i : sampled_) scores_[i] = ScoreUnder(unknown_, scores_[i], highest);
    }

    FindLowestScore(scores_, sampled_, lowest_);
    if (lowest_.not_a_number) return Choice::Refused();
    if (lowest_.ties.empty()) return {sampled_.front(), "fallback"};
    return {lowest_.ties.front(), lowest_.ties.size() == 1 ? "least" : "tie",
            lowest_.passed_over_unknown};
  }

 private:
  // Fills sampled_ with distinct candidate indices in the order drawn.
  void Sample(std::size_t n) {
    sampled_.clear();
    if (with_replacement_) {
      for (std::size_t k = 0; k < choices_; ++k) {
        std::size_t i = random_.Index(n);
        if (std::find(sampled_.begin(), sampled_.end(), i) == sampled_.end())
          sampled_.push_back(i);
      }
      return;
    }
    // The first m steps of a Fisher-Yates shuffle of 0..n-1, undone
    // afterwards so that shuffle_ stays 0..n-1 from one decision to the
    // next: O(m), not O(n), a decision.
    if (shuffle_.size() != n) {
      shuffle_.resize(n);
      std::iota(shuffle_.begin(), shuffle_.end(), std::size_t{0});
    }
    const std::size_t m = std::min(choices_, n);
    swapped_.clear();
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t j = k + random_.Index(n - k);
      std::swap(shuffle_[k], shuffle_[j]);
      swapped_.push_back(j);
      sampled_.push_back(shuffle_[k]);
    }
    for (std::size_t k = m; k-- > 0;) std::swap(shuffle_[k], shuffle_[swapped_[k]]);
  }

  std::optional<double> HighestKnownOfAll(std::span<const Candidate> candidates,
                                          const Hint& hint) {
    all_scores_.clear();
    for (const Candidate& c : candidates)
      all_scores_.push_back(LoadScore(c, hint.QueueFor(c.instance), weights_));
    return HighestKnown(all_scores_);
  }

  LoadWeights weights_;
  UnknownLoad unknown_;
  std::size_t choices_;
  bool with_replacement_;
  SeededRandom random_;
  std::vector<std::size_t> sampled_, shuffle_, swapped_;  // reused buffers
  std::vector<std::optional<double>> scores_, all_scores_;
  LowestScore lowest_;
};

std::vector<ParamSpec> Params() {
  std::vector<ParamSpec> params = {
      {.name = "choices",
       .kind = ParamKind::kInteger,
       .default_text = "2",
       .description = "how many candidates to sample (d), 1 to 1024",
       .min = 1,
       .max = 1024},
      {.name = "replacement",
       .kind = ParamKind::kChoice,
       .default_text = "distinct",
       .description = "sampling: distinct (different candidates, as SGLang) or "
                      "with (independent draws, as Envoy)",
       .choices = {"distinct", "with"}},
      SeedParam(),
  };
  std::span<const ParamSpec> weights = LoadWeightParams();
  params.insert(params.end(), weights.begin(), weights.end());
  params.push_back(UnknownLoadParam());
  return params;
}

}  // namespace

StrategyInfo PowerOfTwoInfo() {
  return {
      .name = "power_of_two",
      .aliases = {"p2c", "power-of-two"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Samples `choices` Instances at random and picks the one with the "
          "lowest least_load score.",
      .params = Params(),
      .reasons = {"least", "tie", "fallback"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<PowerOfTwo>(p);
      },
  };
}

}  // namespace lbsim
