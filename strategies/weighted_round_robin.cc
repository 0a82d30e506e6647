// weighted_round_robin: smooth weighted round robin (nginx's algorithm) over
// the Instance `weight` the pool carries.
//
// Each candidate keeps a current weight, starting at 0. A decision adds
// every candidate's weight to its current weight, picks the highest current
// weight (the first in pool order among equals) and subtracts the sum of all
// weights from the pick. With integer weights on a stable pool the picks
// repeat with period S = sum(weights) and every window of S consecutive
// decisions picks each Instance exactly `weight` times, spread out rather
// than in bursts.
//
// Pool changes: the state belongs to one candidate set. When the candidates
// differ from the previous decision's (an Instance went down, came up, was
// added or removed, a weight changed, or pool order changed), every current
// weight restarts at 0, so the new pool starts a fresh period and its exact
// shares hold again from that decision on.

#include <memory>
#include <vector>

#include "strategies/registry.h"

namespace lbsim {
namespace {

class WeightedRoundRobin final : public Strategy {
 public:
  std::string_view Name() const override { return "weighted_round_robin"; }
  bool ReadsQueueLoads() const override { return false; }

  Choice Select(std::span<const Candidate> candidates, const Hint&) override {
    if (!SamePool(candidates)) Restart(candidates);
    double total = 0.0;
    std::size_t best = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      current_[i] += candidates[i].weight;
      total += candidates[i].weight;
      if (current_[i] > current_[best]) best = i;
    }
    current_[best] -= total;
    return {best, "weighted_round_robin"};
  }

 private:
  struct Member {
    InstanceIndex instance;
    double weight;
    friend bool operator==(const Member&, const Member&) = default;
  };

  bool SamePool(std::span<const Candidate> candidates) const {
    if (candidates.size() != pool_.size()) return false;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (pool_[i] != Member{candidates[i].instance, candidates[i].weight}) return false;
    return true;
  }

  void Restart(std::span<const Candidate> candidates) {
    pool_.clear();
    for (const Candidate& c : candidates) pool_.push_back({c.instance, c.weight});
    current_.assign(candidates.size(), 0.0);
  }

  std::vector<Member> pool_;     // the candidate set the state belongs to
  std::vector<double> current_;  // parallel to pool_
};

}  // namespace

StrategyInfo WeightedRoundRobinInfo() {
  return {
      .name = "weighted_round_robin",
      .aliases = {"wrr", "weighted-round-robin"},
      .status = StrategyStatus::kExperimental,
      .description =
          "Smooth weighted round robin over Instance weights; restarts its "
          "cycle when the alive set changes.",
      .params = {},
      .reasons = {"weighted_round_robin"},
      .make = [](const ParamValues&) -> std::unique_ptr<Strategy> {
        return std::make_unique<WeightedRoundRobin>();
      },
  };
}

}  // namespace lbsim
