// least_load: the lowest known load score wins; ties and the all-unknown
// fallback both pick by one shared round-robin counter that advances on
// every decision. An unknown score is never treated as 0 unless the
// `unknown` parameter says so (zero or max); the default is the spec's rule.
// In a replay it decides through a LoadIndex kept over the World's
// candidates (IndexedSelect), with the same choices as Select.

#include <memory>

#include "strategies/least_load_rule.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

class LeastLoad final : public Strategy, public IndexedSelect {
 public:
  explicit LeastLoad(const ParamValues& params)
      : rule_("least_load", LoadWeights::FromParams(params), UnknownLoadFromParams(params)),
        index_(LoadWeights::FromParams(params), UnknownLoadFromParams(params)) {}

  std::string_view Name() const override { return "least_load"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    rule_.Score(candidates, hint);
    return rule_.Pick();
  }

  IndexedSelect* Indexed() override { return this; }

  void Reset(std::span<const Candidate> candidates) override { index_.Reset(candidates); }

  void Update(std::span<const Candidate> candidates, std::size_t slot) override {
    index_.Update(candidates, slot);
  }

  LoadIndex* Loads() override { return &index_; }

  Choice SelectIndexed(std::span<const Candidate> candidates, const Hint& hint) override {
    LoadIndex::Lowest lowest;
    // The index declines the rare decisions with a NaN score; Select
    // reproduces the error they raise.
    if (!index_.FindLowest(candidates, hint, lowest)) return Select(candidates, hint);
    return rule_.PickIndexed(candidates.size(), index_, lowest);
  }

 private:
  LeastLoadRule rule_;
  LoadIndex index_;
};

}  // namespace

StrategyInfo LeastLoadInfo() {
  std::span<const ParamSpec> weights = LoadWeightParams();
  std::vector<ParamSpec> params(weights.begin(), weights.end());
  params.push_back(UnknownLoadParam());
  return {
      .name = "least_load",
      .aliases = {"ll", "least-load"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Chooses the alive Instance with the lowest known load score; "
          "round-robin among ties and when every load is unknown.",
      .params = std::move(params),
      .reasons = {"least", "tie", "fallback"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<LeastLoad>(p);
      },
  };
}

}  // namespace lbsim
