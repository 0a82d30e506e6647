#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "traces/decision_log.h"

namespace lbsim {

// One decision kept in memory: the DecisionRecord with owned strings.
struct RecordedDecision {
  std::uint64_t seq = 0;
  TraceTime t;
  std::string request;
  std::optional<std::string> instance;  // nullopt: no_instances
  std::string reason;
  std::size_t candidates = 0;
};

// A DecisionSink that keeps every decision of one strategy in memory, for
// checks that compare decisions. Memory grows with the number of arrivals.
class DecisionRecorder final : public DecisionSink {
 public:
  void Write(const DecisionRecord& record) override;

  // In arrival order: decisions()[k].seq == k + 1.
  const std::vector<RecordedDecision>& decisions() const { return decisions_; }

 private:
  std::vector<RecordedDecision> decisions_;
};

}  // namespace lbsim
