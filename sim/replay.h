#pragma once

#include <string>
#include <vector>

#include "sim/decision_log.h"
#include "sim/run_metrics.h"
#include "strategies/registry.h"
#include "traces/instance_table.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Everything a replay produced, ready for reporting.
struct ReplayResult {
  std::string trace_path;
  TraceHeader header;
  TraceCounts counts;
  InstanceTable instances;          // every Instance ever registered
  std::vector<StrategyRequest> requests;
  std::vector<RunMetrics> metrics;  // parallel to requests
};

// Replays the trace at `path` through every request in ONE pass over the
// trace: each strategy has its own World (its decisions move only its own
// inflight counters), all fed the same events. `logs`, when not empty, is
// parallel to `requests` and receives each strategy's decisions (entries may
// be nullptr). Throws InputError for bad input.
ReplayResult Replay(const std::string& path, TraceEncoding encoding,
                    const std::vector<StrategyRequest>& requests,
                    const std::vector<DecisionLogWriter*>& logs = {});

}  // namespace lbsim
