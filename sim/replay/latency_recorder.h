#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// Summary of a set of served requests. Percentiles are exact nearest-rank
// values: the p-th percentile of n sorted values is the one at 1-based
// rank ceil(p * n / 100).
struct LatencySummary {
  std::uint64_t served = 0;  // when 0, every other field is 0 and meaningless
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
  double mean = 0.0;       // mean latency
  double mean_wait = 0.0;  // mean queue wait
  // Queue-wait percentiles and maximum.
  double wait_p50 = 0.0;
  double wait_p90 = 0.0;
  double wait_p99 = 0.0;
  double wait_max = 0.0;
};

// Every served request's queue wait and latency, by the Instance that
// served it, and with `keep_arrivals` its arrival time (for per-window
// summaries). Percentiles must be exact, so each value is kept: 16 bytes
// per served request (24 with arrivals), plus as much again while a summary
// over several Instances is computed.
class LatencyRecorder {
 public:
  explicit LatencyRecorder(bool keep_arrivals = false) : keep_arrivals_(keep_arrivals) {}

  // A request that arrived at `arrival` was served by `i` after waiting
  // `wait`, `latency` after it arrived.
  void Record(InstanceIndex i, double wait, double latency, double arrival = 0.0);

  std::size_t size() const { return instances_.size(); }
  LatencySummary Of(InstanceIndex i) const;
  LatencySummary Overall() const;
  // One summary per window, over the requests whose arrival `window_of`
  // maps to that window (an index below `windows`; others are left out).
  // Needs keep_arrivals.
  std::vector<LatencySummary> ByWindow(const std::function<std::size_t(double)>& window_of,
                                       std::size_t windows) const;
  // The nearest-rank quantiles of every latency recorded, one per entry of
  // `per_mille` (each <= 1000; 0 gives the smallest): the latency at
  // 1-based rank max(1, ceil(q x n / 1000)) of the n sorted ones. Empty
  // when nothing was served. Sorts a copy of every latency.
  std::vector<double> Quantiles(const std::vector<std::uint32_t>& per_mille) const;

 private:
  struct PerInstance {
    std::vector<double> latencies;
    std::vector<double> waits;
    std::vector<double> arrivals;  // with keep_arrivals only
    double wait_sum = 0.0;
    double latency_sum = 0.0;
  };
  static LatencySummary Summarize(std::vector<double> latencies, std::vector<double> waits,
                                  double wait_sum, double latency_sum);
  bool keep_arrivals_;
  std::vector<PerInstance> instances_;
};

}  // namespace lbsim
