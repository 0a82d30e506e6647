// least_load: the lowest known load score wins; ties and the all-unknown
// fallback both pick by one shared round-robin counter that advances on
// every decision. An unknown score is never treated as 0.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "sim/errors.h"
#include "strategies/load_score.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

class LeastLoad final : public Strategy {
 public:
  explicit LeastLoad(const LoadWeights& weights) : weights_(weights) {}

  std::string_view Name() const override { return "least_load"; }

  Choice Select(std::span<const Candidate> candidates,
                const Hint& hint) override {
    scores_.clear();
    bool any_known = false, any_unknown = false;
    double lowest = 0.0;
    for (const Candidate& c : candidates) {
      std::optional<double> s = LoadScore(c, hint.QueueFor(c.instance), weights_);
      scores_.push_back(s);
      if (!s) {
        any_unknown = true;
      } else if (!any_known) {
        lowest = *s;
        any_known = true;
      } else if (*s < lowest) {  // keeps the first of equals, like min()
        lowest = *s;
      }
    }

    if (!any_known) {
      Choice choice{static_cast<std::size_t>(counter_ % candidates.size()),
                    "fallback"};
      ++counter_;
      return choice;
    }

    ties_.clear();
    for (std::size_t i = 0; i < scores_.size(); ++i)
      if (scores_[i] && *scores_[i] == lowest) ties_.push_back(i);
    if (ties_.empty())  // only when a score is NaN (inf - inf in a hint)
      throw InputError(fmt::format(
          "least_load: a load score is not a number (infinite hint values of "
          "both signs); the Proxy would fail this decision too"));

    Choice choice{ties_[counter_ % ties_.size()],
                  ties_.size() == 1 ? "least" : "tie", any_unknown};
    ++counter_;
    return choice;
  }

 private:
  LoadWeights weights_;
  std::uint64_t counter_ = 0;
  std::vector<std::optional<double>> scores_;  // reused buffers
  std::vector<std::size_t> ties_;
};

}  // namespace

StrategyInfo LeastLoadInfo() {
  std::span<const ParamSpec> weights = LoadWeightParams();
  return {
      .name = "least_load",
      .aliases = {"ll", "least-load"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Chooses the alive Instance with the lowest known load score; "
          "round-robin among ties and when every load is unknown.",
      .params = {weights.begin(), weights.end()},
      .reasons = {"least", "tie", "fallback"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<LeastLoad>(LoadWeights::FromParams(p));
      },
  };
}

}  // namespace lbsim
