// least_load: the lowest known load score wins; ties and the all-unknown
// fallback both pick by one shared round-robin counter that advances on
// every decision. An unknown score is never treated as 0 unless the
// `unknown` parameter says so (zero or max); the default is the spec's rule.

#include <memory>

#include "strategies/least_load_rule.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

class LeastLoad final : public Strategy {
 public:
  explicit LeastLoad(const ParamValues& params)
      : rule_("least_load", LoadWeights::FromParams(params),
              UnknownLoadFromParams(params)) {}

  std::string_view Name() const override { return "least_load"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    rule_.Score(candidates, hint);
    return rule_.Pick();
  }

 private:
  LeastLoadRule rule_;
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
