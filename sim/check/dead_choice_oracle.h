#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/decision_recorder.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Checks recorded decisions against a second reading of their trace: it
// tracks which Instances are alive with its own bookkeeping (up, down,
// remove; not the simulator's Pool) and counts the decisions that chose an
// Instance that was down or not registered at that arrival. Feed it the
// same trace the decisions were recorded from.
class DeadChoiceOracle final : public TraceVisitor {
 public:
  // What the oracle found for one strategy.
  struct Finding {
    std::uint64_t violations = 0;
    std::uint64_t chose = 0;  // decisions that chose an Instance
    std::optional<RecordedDecision> first;  // the first violation
  };

  // `recorders`: one per strategy, each holding every decision of the run.
  explicit DeadChoiceOracle(const std::vector<DecisionRecorder>& recorders)
      : recorders_(recorders), findings_(recorders.size()) {}

  void OnHeader(const TraceHeader& header, const InstanceTable& table) override;
  void OnEvent(const TraceEvent& event) override;

  // Parallel to the recorders.
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  const std::vector<DecisionRecorder>& recorders_;
  std::vector<Finding> findings_;
  std::map<std::string, bool, std::less<>> alive_;  // registered Instances
  std::uint64_t arrivals_ = 0;
};

}  // namespace lbsim
