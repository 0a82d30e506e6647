#pragma once

#include <cstdint>
#include <vector>

#include "sim/replay/level_tracker.h"
#include "sim/replay/log_histogram.h"
#include "strategies/hint.h"

namespace lbsim {

// Counts of one Instance's LLM engine over a run.
struct EngineCounters {
  std::uint64_t served = 0;              // requests finished
  std::uint64_t rejected = 0;            // requests too long for the KV cache
  std::uint64_t preemptions = 0;
  std::uint64_t preempted_requests = 0;  // served requests preempted at least once
  std::uint64_t input_tokens = 0;        // prompt tokens of the served requests
  std::uint64_t prefix_hit_tokens = 0;   // of those, found cached at first admission
  std::uint64_t prefill_tokens = 0;      // computed by steps, recomputation included
  std::uint64_t decode_tokens = 0;       // computed by steps
  std::uint64_t output_tokens = 0;       // made
  std::uint64_t steps = 0;
  double busy = 0.0;                     // the steps' summed times
  // With SLOs: served requests within each bound given (a bound not given
  // counts every one; TPOT counts requests of fewer than 2 tokens), within
  // all of them, and the output tokens of those.
  std::uint64_t slo_ttft = 0, slo_tpot = 0, slo_e2e = 0, slo_all = 0;
  std::uint64_t slo_output_tokens = 0;

  void Add(const EngineCounters& o);
};

// Per-request latencies of one Instance's served requests (see
// docs/engine.md): queueing delay, time to first token, time per output
// token, end-to-end latency, and every inter-token gap.
struct EngineLatencies {
  LogHistogram queue_delay, ttft, tpot, e2e, itl;

  void Merge(const EngineLatencies& o);
};

// What one strategy run's engines measured, per Instance: counters,
// latencies, the batch size and held KV blocks over time, and with windows
// the same cut into windows [k x width, (k+1) x width). Memory grows with
// Instances and windows, never with requests.
class EngineStats {
 public:
  // One window of one Instance.
  struct WindowCell {
    std::uint64_t output_tokens = 0;  // made by steps that ended in it
    double batch_area = 0.0;          // batch size x time
    double kv_area = 0.0;             // held KV blocks x time
    double ttft_sum = 0.0;            // of first tokens that reached the client in it
    std::uint64_t ttft_count = 0;
  };

  // `window` > 0 keeps windows, at most `max_cells` window x Instance
  // cells of them (past it, the --window refusal).
  EngineStats(double window, std::uint64_t max_cells) : window_(window), max_cells_(max_cells) {}

  EngineCounters& counters(InstanceIndex i) { return At(counters_, i); }
  EngineLatencies& latencies(InstanceIndex i) { return At(latencies_, i); }
  // The batch size, and the KV blocks held, of Instance `i` from `t` on.
  void SetBatch(InstanceIndex i, double t, std::int64_t level);
  void SetKv(InstanceIndex i, double t, std::int64_t level);
  // `n` output tokens made by a step of `i` ending at `t`.
  void OutputTokens(InstanceIndex i, double t, std::uint64_t n);
  // A first token of `i` reached its client at `t`, `ttft` after arrival.
  void FirstToken(InstanceIndex i, double t, double ttft);
  // The run started at `t` (windows count from there) / ended at `t`.
  void Begin(double t);
  void Close(double t);

  std::size_t size() const { return counters_.size(); }
  const EngineCounters& counters(InstanceIndex i) const;
  const EngineLatencies& latencies(InstanceIndex i) const;
  const LevelTracker& batch() const { return batch_; }
  const LevelTracker& kv() const { return kv_; }
  double window() const { return window_; }
  // Windows by position from the run's first (the one holding Begin's t);
  // each by InstanceIndex, possibly short.
  const std::vector<std::vector<WindowCell>>& windows() const { return windows_; }

 private:
  template <typename T>
  static T& At(std::vector<T>& v, InstanceIndex i) {
    if (v.size() <= i) v.resize(i + 1);
    return v[i];
  }
  WindowCell& Cell(std::int64_t window, InstanceIndex i);
  std::int64_t IndexOf(double t) const;
  // Adds level x the part of [from, to) inside each window.
  void AddArea(InstanceIndex i, const LevelTracker::Stretch& s, double WindowCell::*area);

  double window_;
  std::uint64_t max_cells_;
  std::uint64_t cells_ = 0;  // window x Instance cells made
  std::int64_t first_ = 0;
  std::vector<EngineCounters> counters_;
  std::vector<EngineLatencies> latencies_;
  LevelTracker batch_, kv_;
  std::vector<std::vector<WindowCell>> windows_;
};

}  // namespace lbsim
