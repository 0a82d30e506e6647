// random: a uniform pick among the candidates from a seeded generator
// (SeededRandom), one draw per decision. The same seed gives the same picks
// on every platform. Loads and weights are not used.

#include <cstdint>
#include <memory>

#include "strategies/registry.h"
#include "strategies/seeded_random.h"

namespace lbsim {
namespace {

class Random final : public Strategy {
 public:
  explicit Random(std::uint64_t seed) : random_(seed) {}

  std::string_view Name() const override { return "random"; }
  bool ReadsQueueLoads() const override { return false; }

  Choice Select(std::span<const Candidate> candidates, const Hint&) override {
    return {random_.Index(candidates.size()), "random"};
  }

 private:
  SeededRandom random_;
};

}  // namespace

StrategyInfo RandomInfo() {
  return {
      .name = "random",
      .aliases = {"rand"},
      .status = StrategyStatus::kExperimental,
      .description = "Picks an alive Instance uniformly at random (seeded, reproducible).",
      .params = {SeedParam()},
      .reasons = {"random"},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        return std::make_unique<Random>(static_cast<std::uint64_t>(p.Number("seed")));
      },
  };
}

}  // namespace lbsim
