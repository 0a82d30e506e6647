#pragma once

#include <cstdint>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// Summary of a set of served requests. Percentiles are exact nearest-rank
// values: the p-th percentile of n sorted latencies is the one at 1-based
// rank ceil(p * n / 100).
struct LatencySummary {
  std::uint64_t served = 0;  // when 0, every other field is 0 and meaningless
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
  double mean = 0.0;       // mean latency
  double mean_wait = 0.0;  // mean queue wait
};

// Every served request's queue wait and latency, by the Instance that
// served it. Percentiles must be exact, so each latency is kept: 8 bytes per
// served request, plus as much again while the overall summary is computed.
class LatencyRecorder {
 public:
  void Record(InstanceIndex i, double wait, double latency);

  std::size_t size() const { return instances_.size(); }
  LatencySummary Of(InstanceIndex i) const;
  LatencySummary Overall() const;
  // The nearest-rank quantiles of every latency recorded, one per entry of
  // `per_mille` (each <= 1000; 0 gives the smallest): the latency at
  // 1-based rank max(1, ceil(q x n / 1000)) of the n sorted ones. Empty
  // when nothing was served. Sorts a copy of every latency.
  std::vector<double> Quantiles(const std::vector<std::uint32_t>& per_mille) const;

 private:
  struct PerInstance {
    std::vector<double> latencies;
    double wait_sum = 0.0;
    double latency_sum = 0.0;
  };
  static LatencySummary Summarize(std::vector<double> latencies, double wait_sum,
                                  double latency_sum);
  std::vector<PerInstance> instances_;
};

}  // namespace lbsim
