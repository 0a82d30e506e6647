#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/replay/engine_log.h"
#include "sim/replay/engine_stats.h"
#include "sim/replay/load_timeline.h"
#include "sim/replay/request_journeys.h"
#include "sim/replay/run_metrics.h"
#include "sim/replay/service_model.h"
#include "sim/replay/sim_options.h"
#include "strategies/registry.h"
#include "traces/decision_log.h"
#include "traces/instance_table.h"
#include "traces/read_ahead.h"
#include "traces/request_log.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Most strategy runs in one replay: each keeps its own World (and, with a
// decision log, its own scratch file).
inline constexpr std::size_t kMaxStrategyRuns = 64;

// Throws UsageError when `count` strategy runs are more than one replay takes.
void CheckStrategyRunCount(std::size_t count);

// What one strategy run produced beyond its RunMetrics when what-if options
// are on.
struct WhatIfOutcome {
  std::shared_ptr<const LoadTimeline> timeline;
  std::shared_ptr<const ServiceModel> service;  // null without the service model
  std::shared_ptr<const EngineStats> engine;    // null without the engine model
  std::shared_ptr<const ProxyQueueStats> queue; // null without the Proxy queue model
  bool reads_engine_signals = false;  // the run's strategy reads what --signal-interval publishes
};

// Load fields of `up` and `load` events that a pinned Proxy's heartbeat
// does not apply.
struct IgnoredLoadFields {
  // `inflight` keys: every one from 2f1019a on (the Proxy counts requests
  // itself), a null one in df8382d.
  std::uint64_t inflight = 0;
  // `qps_1m: null`: a heartbeat leaves the value as it was.
  std::uint64_t null_qps_1m = 0;
};

// Everything a replay produced, ready for reporting.
struct ReplayResult {
  std::string trace_path;
  TraceHeader header;
  TraceCounts counts;
  InstanceTable instances;          // every Instance ever registered
  ProxyRun proxy;                   // the Proxy replayed
  IgnoredLoadFields ignored;
  // As run: each bound to `proxy` (BindToProxy).
  std::vector<StrategyRequest> requests;
  std::vector<RunMetrics> metrics;  // parallel to requests
  SimOptions options;
  // Parallel to requests when options.timed() (a what-if part or charts
  // on); empty otherwise.
  std::vector<WhatIfOutcome> what_if;
  // By InstanceIndex, as the pool held them at the end: each Instance's
  // weight and service speed (speeds with the --speed overrides).
  std::vector<double> weights;
  std::vector<double> speeds;
  // The time of the trace's last event (0 for a trace without events).
  double last_event_time = 0.0;
};

// Reads one trace into `table` and `visitor`, as ReadTrace does: a trace
// file or an inline trace bound to its input.
using TraceFeed = std::function<TraceCounts(InstanceTable& table, TraceVisitor& visitor)>;

// Reads the same trace into several visitors at once, each with its own
// table, as ReadTraceAhead does with consumers; `threads` of them may run
// at the same time (the CPUs the run may use).
struct ParallelFeed {
  std::function<TraceCounts(std::span<const TraceConsumer> consumers)> read;
  std::size_t threads = 1;
};

// How many groups a replay of `requests` splits its strategy runs into,
// each group visiting the trace on a thread of its own through `parallel`:
// 1 when `parallel` cannot read, there are fewer than three runs or one of
// them runs a program; otherwise about two runs a group, with a thread for
// each group and one for the reading.
std::size_t ReplayGroups(const std::vector<StrategyRequest>& requests,
                         const ParallelFeed& parallel);

// Replays the trace that `feed` reads through every request in ONE pass over
// the trace: each strategy has its own World (its decisions move only its
// own inflight counters), all fed the same events. `display_path` names the
// trace in the report and errors. `logs`, when not empty, is parallel to
// `requests` and receives each strategy's decisions (entries may be
// nullptr). `options` turns on what-if parts; by default none, and the
// replay follows trace format v1 exactly. `engine_logs`, when not empty, is
// parallel to `requests` and receives each run's engine log (with the
// engine model). `request_logs`, likewise, receives each run's request
// log (with the Proxy queue model). With `parallel` able to read, the runs are split into
// ReplayGroups groups read through it at once, each with its own Proxy
// pool; the result, logs and errors are the same as `feed`'s single pass
// would give. Throws InputError for bad input, UsageError for more than
// kMaxStrategyRuns requests.
ReplayResult Replay(const std::string& display_path, const TraceFeed& feed,
                    const std::vector<StrategyRequest>& requests,
                    const std::vector<DecisionSink*>& logs = {},
                    const SimOptions& options = {},
                    const std::vector<EngineLog*>& engine_logs = {},
                    const ParallelFeed& parallel = {},
                    const std::vector<RequestSink*>& request_logs = {});

// Replay of the trace file at `path` ("-": standard input). `progress`,
// when given, hears how far reading got.
ReplayResult Replay(const std::string& path, TraceEncoding encoding,
                    const std::vector<StrategyRequest>& requests,
                    const std::vector<DecisionSink*>& logs = {},
                    const SimOptions& options = {}, TraceProgress* progress = nullptr);

}  // namespace lbsim
