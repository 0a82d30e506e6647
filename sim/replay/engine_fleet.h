#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/replay/engine_config.h"
#include "sim/replay/engine_log.h"
#include "sim/replay/engine_stats.h"
#include "sim/replay/slo.h"
#include "sim/replay/internal_event.h"
#include "sim/replay/llm_engine.h"
#include "sim/replay/pool.h"
#include "sim/replay/response_listener.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// The queue state an engine publishes under the hint keys least_load reads,
// in kQueueFields order from active_prepare (index 1) to
// predicted_total_backlog_ms (index 7); see docs/engine.md for each key.
struct EngineSignals {
  static constexpr std::size_t kFirstKey = 1;  // kQueueFields[1]: active_prepare
  std::array<double, 7> value{};
};

// What an engine serves of an arrival.
struct EngineArrival {
  std::uint64_t seq = 0;  // the arrival's number, for the engine log
  double t = 0.0;         // when the engine gets it
  double client_arrival = 0.0;  // when it reached the Proxy (t, without the Proxy's queue)
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::span<const std::uint64_t> prefix_blocks;
  std::uint64_t tag = 0;  // handed back to the ResponseListener
};

// One strategy run's LLM engines, one per Instance routed to (docs/
// engine.md): admits the requests the World routes, runs the engines'
// events (which it schedules on the World's internal events), tells the
// World when a request completes, and keeps the run's figures. Requests
// live in a slab whose slots are reused, so memory follows the requests in
// the engines, not the run's length.
class EngineFleet {
 public:
  EngineFleet(std::shared_ptr<const EngineConfig> config, InternalEvents& events, double window,
              std::uint64_t max_window_cells);

  // The trace's time unit ("s" or "ms") and prefix_block_tokens (null: the
  // engine's block size). Throws FieldError when the prefix unit is not a
  // multiple of the engine's block size.
  void SetTrace(const std::string& time_unit, std::optional<std::uint64_t> prefix_block_tokens);
  // Writes the engine log of strategy `strategy` to `log` (may be nullptr).
  void set_log(EngineLog* log, std::string strategy) {
    log_ = log;
    strategy_ = std::move(strategy);
  }

  // Reports each request's first token and end to `listener` instead of
  // scheduling its completion on the World's events (may be nullptr).
  void set_listener(ResponseListener* listener) { listener_ = listener; }
  // Checks every served request against `slo` (bounds resolved at SetTrace).
  void set_slo(const SloOptions& slo) { slo_ = slo; }

  // Throws FieldError unless `arrival` has both token counts and, when it
  // fits the KV cache, needs at most kMaxEngineRequestSteps steps, and the
  // arrivals checked so far at most kMaxEngineRunSteps together.
  void RequireTokens(const TraceEvent& arrival);
  // `arrival`, routed to Instance `i` (registration `registration`, speed
  // `speed`). False when the engine rejects it at once (too long for its
  // KV cache: the caller completes it now); otherwise the fleet schedules
  // its completion (or tells the listener).
  bool Admit(const EngineArrival& arrival, InstanceIndex i, std::uint64_t registration,
             double speed, const InstanceTable& table);
  // The arrival number `seq` at its own time, as above; throws FieldError
  // when it has no token counts.
  bool Admit(const TraceEvent& arrival, std::uint64_t seq, InstanceIndex i,
             std::uint64_t registration, double speed, const InstanceTable& table);
  // Runs an engine event (not a completion) due at `time`; speeds come
  // from `pool`.
  void Run(const InternalEvent& event, double time, const Pool& pool);
  // The signals of every Instance below pool.size() at this moment.
  void Signals(std::vector<EngineSignals>& out, const Pool& pool) const;

  // The run started / ended at `t`.
  void Begin(double t) { stats_->Begin(t); }
  void Close(double t) { stats_->Close(t); }
  std::shared_ptr<const EngineStats> TakeStats() { return std::move(stats_); }
  const EngineConfig& config() const { return *config_; }

 private:
  // The engine of `i`, made when missing.
  InstanceEngine& EngineOf(InstanceIndex i);
  std::uint32_t NewRequest();
  void Enqueue(InstanceIndex i, std::uint32_t r, double time);
  void StartStep(InstanceIndex i, double time, double speed);
  void EndStep(InstanceIndex i, double time);
  // A served request completes at `end`, when its last token reaches the
  // client; `post` is alpha[2] at its step's speed, in the trace's unit.
  void Served(InstanceIndex i, std::uint32_t r, double end, double post);
  void LogStep(InstanceIndex i, double end);
  void LogRequest(InstanceIndex i, const EngineRequest& r, double first_token, double end,
                  bool rejected);

  // Per Instance: the engine, the current step's start and speed, the
  // step count, and the counts behind its signals.
  struct Slot {
    std::unique_ptr<InstanceEngine> engine;
    double step_start = 0.0;
    double step_speed = 1.0;
    std::uint64_t steps = 0;
    std::uint64_t preparing = 0;         // in pre-processing
    std::uint64_t preparing_tokens = 0;  // their prompt tokens
    std::uint64_t pending_prefill = 0;   // routed, no token yet, not finished
    std::uint64_t decoding = 0;          // a token made, not finished
  };

  std::shared_ptr<const EngineConfig> config_;
  InternalEvents& events_;
  double us_ = 1e-6;  // time units per microsecond
  SloOptions slo_;
  SloLimits limits_;  // slo_ in the trace's unit
  std::uint64_t unit_tokens_;
  std::vector<Slot> slots_;
  std::vector<EngineRequest> requests_;
  std::vector<std::uint32_t> free_;
  std::uint64_t run_steps_ = 0;  // RequireTokens' sum of request-steps
  std::shared_ptr<EngineStats> stats_;
  const InstanceTable* table_ = nullptr;
  EngineLog* log_ = nullptr;
  ResponseListener* listener_ = nullptr;
  std::string strategy_;
  std::string line_;
};

}  // namespace lbsim
