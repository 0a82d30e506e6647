// round_robin: candidates[c mod n], then c += 1. One global counter, so a
// change of the pool shifts the mapping. Weights are not used.

#include <cstdint>
#include <memory>

#include "strategies/registry.h"

namespace lbsim {
namespace {

class RoundRobin final : public Strategy {
 public:
  std::string_view Name() const override { return "round_robin"; }
  bool ReadsQueueLoads() const override { return false; }

  Choice Select(std::span<const Candidate> candidates, const Hint&) override {
    Choice choice{static_cast<std::size_t>(counter_ % candidates.size()),
                  "round_robin"};
    ++counter_;
    return choice;
  }

 private:
  std::uint64_t counter_ = 0;
};

}  // namespace

StrategyInfo RoundRobinInfo() {
  return {
      .name = "round_robin",
      .aliases = {"rr", "round-robin"},
      .status = StrategyStatus::kDefault,
      .description = "Rotates across alive Instances in pool order.",
      .params = {},
      .reasons = {"round_robin"},
      .make = [](const ParamValues&) -> std::unique_ptr<Strategy> {
        return std::make_unique<RoundRobin>();
      },
      .from_proxy = true,
  };
}

}  // namespace lbsim
