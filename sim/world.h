#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/decision_log.h"
#include "sim/event_queue.h"
#include "sim/pool.h"
#include "sim/run_metrics.h"
#include "strategies/registry.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// One strategy's own view of a run: its strategy state, the inflight
// counters its own decisions move, its pending completions and its
// metrics. Registration state comes from the shared Pool.
class World {
 public:
  explicit World(const StrategyRequest& request);

  const StrategyRequest& request() const { return request_; }
  RunMetrics& metrics() { return metrics_; }

  // Sends this world's decisions to `log` (not owned; may be nullptr).
  void set_log(DecisionLogWriter* log) { log_ = log; }

  // Runs every pending completion ordered before `key`.
  void RunCompletionsBefore(const EventKey& key, const Pool& pool);
  // Runs every pending completion.
  void RunAllCompletions(const Pool& pool);

  // Sets (or with nullopt, forgets) the inflight counter of `i`.
  void SetInflight(InstanceIndex i, std::optional<std::int64_t> value);
  std::optional<std::int64_t> Inflight(InstanceIndex i) const;

  // Makes the decision for arrival number `seq`.
  void Decide(const TraceEvent& arrival, std::uint64_t seq,
              std::string_view request_id, const Pool& pool,
              const InstanceTable& table);

 private:
  struct Completion {
    InstanceIndex instance;
    std::uint64_t registration;
  };
  void Complete(const Completion& c, const Pool& pool);

  StrategyRequest request_;
  std::unique_ptr<Strategy> strategy_;
  RunMetrics metrics_;
  DecisionLogWriter* log_ = nullptr;
  std::vector<std::int64_t> inflight_;  // -1: unknown
  EventQueue<Completion> completions_;
  std::uint64_t completion_seq_ = 0;
  std::vector<Candidate> candidates_;  // reused per decision
};

}  // namespace lbsim
