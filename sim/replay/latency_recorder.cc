#include "sim/replay/latency_recorder.h"

#include <algorithm>

namespace lbsim {
namespace {

// The nearest-rank percentile `p` (an integer percent) of `v`, which is
// partially sorted in place.
double NearestRank(std::vector<double>& v, std::uint64_t p) {
  const std::uint64_t n = v.size();
  const std::uint64_t rank = (p * n + 99) / 100;  // ceil(p * n / 100), >= 1
  auto nth = v.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(v.begin(), nth, v.end());
  return *nth;
}

}  // namespace

void LatencyRecorder::Record(InstanceIndex i, double wait, double latency, double arrival) {
  if (instances_.size() <= i) instances_.resize(i + 1);
  PerInstance& r = instances_[i];
  r.latencies.push_back(latency);
  r.waits.push_back(wait);
  if (keep_arrivals_) r.arrivals.push_back(arrival);
  r.wait_sum += wait;
  r.latency_sum += latency;
}

LatencySummary LatencyRecorder::Summarize(std::vector<double> v, std::vector<double> w,
                                          double wait_sum, double latency_sum) {
  LatencySummary s;
  s.served = v.size();
  if (v.empty()) return s;
  const auto n = static_cast<double>(v.size());
  s.mean = latency_sum / n;
  s.mean_wait = wait_sum / n;
  s.max = *std::max_element(v.begin(), v.end());
  s.p50 = NearestRank(v, 50);
  s.p90 = NearestRank(v, 90);
  s.p99 = NearestRank(v, 99);
  s.wait_max = *std::max_element(w.begin(), w.end());
  s.wait_p50 = NearestRank(w, 50);
  s.wait_p90 = NearestRank(w, 90);
  s.wait_p99 = NearestRank(w, 99);
  return s;
}

LatencySummary LatencyRecorder::Of(InstanceIndex i) const {
  if (i >= instances_.size()) return {};
  const PerInstance& r = instances_[i];
  return Summarize(r.latencies, r.waits, r.wait_sum, r.latency_sum);
}

LatencySummary LatencyRecorder::Overall() const {
  std::vector<double> all, waits;
  std::size_t n = 0;
  for (const PerInstance& r : instances_) n += r.latencies.size();
  all.reserve(n);
  waits.reserve(n);
  double wait_sum = 0.0, latency_sum = 0.0;
  for (const PerInstance& r : instances_) {
    all.insert(all.end(), r.latencies.begin(), r.latencies.end());
    waits.insert(waits.end(), r.waits.begin(), r.waits.end());
    wait_sum += r.wait_sum;
    latency_sum += r.latency_sum;
  }
  return Summarize(std::move(all), std::move(waits), wait_sum, latency_sum);
}

std::vector<LatencySummary> LatencyRecorder::ByWindow(
    const std::function<std::size_t(double)>& window_of, std::size_t windows) const {
  struct Bucket {
    std::vector<double> latencies, waits;
    double wait_sum = 0.0, latency_sum = 0.0;
  };
  std::vector<Bucket> buckets(windows);
  // Instance by Instance, each in the order it served: sums add in the same
  // order on every run.
  for (const PerInstance& r : instances_) {
    for (std::size_t k = 0; k < r.arrivals.size(); ++k) {
      const std::size_t w = window_of(r.arrivals[k]);
      if (w >= windows) continue;
      Bucket& b = buckets[w];
      b.latencies.push_back(r.latencies[k]);
      b.waits.push_back(r.waits[k]);
      b.wait_sum += r.waits[k];
      b.latency_sum += r.latencies[k];
    }
  }
  std::vector<LatencySummary> out;
  out.reserve(windows);
  for (Bucket& b : buckets)
    out.push_back(Summarize(std::move(b.latencies), std::move(b.waits), b.wait_sum,
                            b.latency_sum));
  return out;
}

std::vector<double> LatencyRecorder::Quantiles(const std::vector<std::uint32_t>& per_mille) const {
  std::vector<double> all;
  for (const PerInstance& r : instances_) all.insert(all.end(), r.latencies.begin(), r.latencies.end());
  if (all.empty()) return {};
  std::sort(all.begin(), all.end());
  const std::uint64_t n = all.size();
  std::vector<double> out;
  for (std::uint32_t q : per_mille) {
    const std::uint64_t rank = std::max<std::uint64_t>(1, (q * n + 999) / 1000);
    out.push_back(all[std::min(rank, n) - 1]);
  }
  return out;
}

}  // namespace lbsim
