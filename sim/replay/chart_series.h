#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strategies/hint.h"

namespace lbsim {

// One strategy run over time, for charts, in a bounded number of buckets
// whatever the length of the trace: decisions by reason, picks per
// Instance, the decisions of herding runs, and the area under each
// Instance's outstanding-request level. Bucket k covers
// [Start(k), Start(k + 1)) of trace time and is `base` x 10^e wide; e starts
// at `finest` and grows by one (ten buckets merge into one) whenever the
// run would need more than MaxBuckets() buckets. Memory stays under
// MaxBuckets() x (Instances x 16 + kMaxReasons x 8) bytes, never more with
// more arrivals.
class ChartSeries {
 public:
  struct Bucket {
    std::uint64_t decisions = 0;  // no_instances and refused ones included
    std::uint64_t herded = 0;     // decisions inside herding runs
    std::uint64_t other_reasons = 0;  // decisions for words past kMaxReasons
    std::vector<std::uint64_t> by_reason;   // parallel to reasons(); may be short
    std::vector<std::uint64_t> selections;  // by InstanceIndex; may be short
    std::vector<double> inflight_area;      // by InstanceIndex; may be short
  };

  // The longest herding run: consecutive picks of one Instance, more of
  // them than there were candidates (at least two), as RunMetrics counts.
  struct HerdingRun {
    InstanceIndex instance = 0;
    std::uint64_t length = 0;
    double first = 0.0;  // time of its first and last decision
    double last = 0.0;
  };

  // At most this many buckets, and at most kMaxCells / Instances (but at
  // least kMinBuckets): a pool of thousands keeps fewer, wider buckets.
  static constexpr std::size_t kMaxBuckets = 1000;
  static constexpr std::size_t kMinBuckets = 100;
  static constexpr std::size_t kMaxCells = std::size_t{1} << 22;
  // Reason words counted one by one; later new words count as "other".
  static constexpr std::size_t kMaxReasons = 16;

  // `base` > 0: the bucket width at exponent 0; `finest`: the smallest
  // exponent used (0 for a --window width, below 0 for the trace unit).
  ChartSeries(double base, int finest);

  // The run's first event is at `t` (>= 0); call before anything else.
  void Begin(double t);
  // A decision at `t` for `reason`, among `candidates` Instances; `chosen`
  // is nullptr when it routed nothing (no_instances, refused).
  void Decision(double t, const InstanceIndex* chosen, std::string_view reason,
                std::size_t candidates);
  // Adds `level` x the part of [from, to) inside each bucket to Instance
  // `i`'s area.
  void AddArea(InstanceIndex i, double from, double to, double level);
  // The run ended at `t`: closes the current run of picks and makes the
  // buckets reach `t`.
  void End(double t);

  bool begun() const { return begun_; }
  double base() const { return base_; }
  int exponent() const { return exponent_; }
  // The width of every bucket, base x 10^exponent.
  double width() const { return width_; }
  // Buckets are numbered from 0 at trace time 0: buckets()[j] is bucket
  // first() + j.
  std::int64_t first() const { return first_; }
  double Start(std::int64_t k) const {
    // As Boundary computes it, with 10^|exponent| kept.
    const auto x = static_cast<double>(k);
    return exponent_ >= 0 ? x * width_ : x * base_ / scale_;
  }
  // Where bucket `k` of buckets `base` x 10^`exponent` wide starts: the
  // double nearest k x base x 10^exponent.
  static double Boundary(double base, int exponent, std::int64_t k);
  const std::vector<Bucket>& buckets() const { return buckets_; }
  // Reason words in the order they first came.
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::optional<HerdingRun>& longest_herding_run() const { return longest_; }
  // The most buckets kept now (kMaxBuckets, fewer for a large pool).
  std::size_t MaxBuckets() const { return max_buckets_; }

 private:
  // The current run of picks of one Instance, with its decisions per
  // bucket (the buckets it spans, in order).
  struct OpenRun {
    InstanceIndex instance = 0;
    std::uint64_t length = 0;
    std::size_t max_candidates = 0;
    double first = 0.0;
    double last = 0.0;
    std::vector<std::pair<std::int64_t, std::uint64_t>> per_bucket;
  };

  // The bucket number holding `t`: Start(k) <= t < Start(k + 1).
  std::int64_t IndexOf(double t) const;
  // IndexOf, answered from the bucket last found when `t` is in it (times
  // mostly move forward a little at a time).
  std::int64_t Find(double t) {
    if (t >= found_start_ && t < found_end_) return found_;
    found_ = IndexOf(t);
    found_start_ = Start(found_);
    found_end_ = Start(found_ + 1);
    return found_;
  }
  // Sets the exponent and what follows from it, and forgets Find's bucket.
  void SetExponent(int exponent);
  // Recomputes limit_, the first time the buckets cannot reach.
  void SetLimit() { limit_ = Start(first_ + static_cast<std::int64_t>(max_buckets_)); }
  // Widens the buckets until [first bucket, t] takes at most MaxBuckets(),
  // makes the buckets reach `t` and returns the number of the one holding it.
  std::int64_t Reach(double t);
  // Makes bucket `k` (>= first_) exist.
  Bucket& Make(std::int64_t k);
  // Widens the buckets while [first bucket, t] would take more than
  // MaxBuckets().
  void Fit(double t);
  // Merges every ten buckets into one.
  void Coarsen();
  // Grows per-Instance counts to hold Instance `i`, which may lower
  // MaxBuckets().
  void See(InstanceIndex i);
  std::size_t ReasonSlot(std::string_view reason);
  void CloseRun();

  double base_;
  int exponent_;
  double scale_ = 1.0;  // 10^|exponent_|
  double width_ = 0.0;  // base_ x 10^exponent_
  std::size_t max_buckets_ = kMaxBuckets;
  double limit_ = 0.0;  // times from here on need wider buckets
  std::int64_t found_ = 0;  // Find's last bucket and its span
  double found_start_ = 0.0;
  double found_end_ = 0.0;
  bool begun_ = false;
  std::int64_t first_ = 0;
  std::vector<Bucket> buckets_;
  std::vector<std::string> reasons_;
  std::size_t last_reason_ = 0;  // the slot last looked up
  std::size_t instances_ = 0;    // 1 + the largest InstanceIndex seen
  OpenRun run_;
  std::optional<HerdingRun> longest_;
};

}  // namespace lbsim
