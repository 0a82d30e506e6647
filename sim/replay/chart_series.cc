#include "sim/replay/chart_series.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/replay/run_metrics.h"

namespace lbsim {
namespace {

// 10^n, exact up to n = 22.
double Pow10(int n) {
  double x = 1.0;
  for (int k = 0; k < n; ++k) x *= 10.0;
  return x;
}

// `t` as a bucket sees it: a time past the largest double (an arrival
// plus a duration can overflow to infinity) is the largest double, so
// every bucket number stays finite.
double Finite(double t) { return std::min(t, std::numeric_limits<double>::max()); }

template <typename T>
void AddInto(std::vector<T>& into, const std::vector<T>& from) {
  if (into.size() < from.size()) into.resize(from.size(), T{});
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

}  // namespace

ChartSeries::ChartSeries(double base, int finest) : base_(base), exponent_(finest) {
  SetExponent(finest);
}

void ChartSeries::SetExponent(int exponent) {
  exponent_ = exponent;
  scale_ = Pow10(exponent >= 0 ? exponent : -exponent);
  width_ = exponent >= 0 ? base_ * scale_ : base_ / scale_;
  found_start_ = found_end_ = 0.0;  // no time is in [0, 0)
}

double ChartSeries::Boundary(double base, int exponent, std::int64_t k) {
  const auto x = static_cast<double>(k);
  // Below exponent 0 a boundary is (k x base) / 10^n: for base 1 the double
  // nearest the decimal boundary (k x 10^-n would round twice).
  return exponent >= 0 ? x * (base * Pow10(exponent)) : x * base / Pow10(-exponent);
}

std::int64_t ChartSeries::IndexOf(double t) const {
  // Division can land one off at a boundary; settle it against Start().
  auto k = static_cast<std::int64_t>(std::floor(t / width_));
  while (Start(k + 1) <= t) ++k;
  while (Start(k) > t) --k;
  return k;
}

void ChartSeries::Begin(double t) {
  t = Finite(t);
  begun_ = true;
  // Bucket numbers stay exact integers in a double.
  while (t / width_ >= 0x1p52) SetExponent(exponent_ + 1);
  first_ = IndexOf(t);
  buckets_.assign(1, Bucket{});
  SetLimit();
}

void ChartSeries::Fit(double t) {
  if (t < limit_ && buckets_.size() <= max_buckets_) return;  // the common case
  // Compared as doubles: a time far past the buckets must not overflow a
  // bucket number before the buckets are widened.
  while (std::floor(t / width_) - static_cast<double>(first_) >=
             static_cast<double>(max_buckets_) ||
         buckets_.size() > max_buckets_)
    Coarsen();
  SetLimit();
}

void ChartSeries::Coarsen() {
  // Times are >= 0, so bucket numbers are too: / 10 rounds down.
  const std::int64_t first = first_ / 10;
  const std::int64_t last = (first_ + static_cast<std::int64_t>(buckets_.size()) - 1) / 10;
  std::vector<Bucket> merged(static_cast<std::size_t>(last - first + 1));
  for (std::size_t j = 0; j < buckets_.size(); ++j) {
    const Bucket& from = buckets_[j];
    Bucket& into = merged[static_cast<std::size_t>((first_ + static_cast<std::int64_t>(j)) / 10 - first)];
    into.decisions += from.decisions;
    into.herded += from.herded;
    into.other_reasons += from.other_reasons;
    AddInto(into.by_reason, from.by_reason);
    AddInto(into.selections, from.selections);
    AddInto(into.inflight_area, from.inflight_area);
  }
  buckets_ = std::move(merged);
  first_ = first;
  SetExponent(exponent_ + 1);
  // The open run's buckets merge the same way.
  std::vector<std::pair<std::int64_t, std::uint64_t>> spans;
  for (const auto& [k, n] : run_.per_bucket) {
    if (!spans.empty() && spans.back().first == k / 10) spans.back().second += n;
    else spans.emplace_back(k / 10, n);
  }
  run_.per_bucket = std::move(spans);
}

ChartSeries::Bucket& ChartSeries::Make(std::int64_t k) {
  if (k < first_) throw std::logic_error("chart series: time went backwards");
  const auto j = static_cast<std::size_t>(k - first_);
  if (buckets_.size() <= j) buckets_.resize(j + 1);
  return buckets_[j];
}

std::int64_t ChartSeries::Reach(double t) {
  Fit(t);
  const std::int64_t k = Find(t);
  Make(k);
  return k;
}

void ChartSeries::See(InstanceIndex i) {
  if (i < instances_) return;
  instances_ = static_cast<std::size_t>(i) + 1;
  max_buckets_ = std::clamp(kMaxCells / instances_, kMinBuckets, kMaxBuckets);
  SetLimit();
  if (buckets_.size() > max_buckets_) Fit(Start(first_));
}

std::size_t ChartSeries::ReasonSlot(std::string_view reason) {
  if (last_reason_ < reasons_.size() && reasons_[last_reason_] == reason) return last_reason_;
  for (std::size_t i = 0; i < reasons_.size(); ++i)
    if (reasons_[i] == reason) return last_reason_ = i;
  if (reasons_.size() == kMaxReasons) return kMaxReasons;
  reasons_.emplace_back(reason);
  return last_reason_ = reasons_.size() - 1;
}

void ChartSeries::Decision(double t, const InstanceIndex* chosen, std::string_view reason,
                           std::size_t candidates) {
  t = Finite(t);
  if (chosen) See(*chosen);
  const std::int64_t k = Reach(t);
  Bucket& b = Make(k);
  ++b.decisions;
  const std::size_t slot = ReasonSlot(reason);
  if (slot == kMaxReasons) {
    ++b.other_reasons;
  } else {
    if (b.by_reason.size() <= slot) b.by_reason.resize(slot + 1, 0);
    ++b.by_reason[slot];
  }
  if (!chosen) {
    CloseRun();
    return;
  }
  if (b.selections.size() <= *chosen) b.selections.resize(*chosen + 1, 0);
  ++b.selections[*chosen];

  if (run_.length == 0 || run_.instance != *chosen) {
    CloseRun();
    run_.instance = *chosen;
    run_.first = t;
  }
  ++run_.length;
  run_.last = t;
  run_.max_candidates = std::max(run_.max_candidates, candidates);
  if (!run_.per_bucket.empty() && run_.per_bucket.back().first == k) ++run_.per_bucket.back().second;
  else run_.per_bucket.emplace_back(k, 1);
}

void ChartSeries::CloseRun() {
  if (run_.length == 0) return;
  RunMetrics::Run run;
  run.instance = run_.instance;
  run.length = run_.length;
  run.max_candidates = run_.max_candidates;
  if (RunMetrics::Herds(run)) {
    for (const auto& [k, n] : run_.per_bucket) Make(k).herded += n;
    if (!longest_ || run_.length > longest_->length)
      longest_ = HerdingRun{run_.instance, run_.length, run_.first, run_.last};
  }
  run_.length = 0;
  run_.max_candidates = 0;
  run_.per_bucket.clear();
}

void ChartSeries::AddArea(InstanceIndex i, double from, double to, double level) {
  from = Finite(from);
  to = Finite(to);
  if (!(to > from) || level == 0.0) return;
  See(i);
  Fit(to);
  const std::int64_t last = Find(to);
  // Mostly the stretch lies within the bucket `to` is in.
  const std::int64_t first = from >= found_start_ ? last : IndexOf(from);
  for (std::int64_t k = first; k <= last; ++k) {
    const double lo = std::max(from, Start(k));
    const double hi = std::min(to, Start(k + 1));
    if (!(hi > lo)) continue;
    Bucket& b = Make(k);
    if (b.inflight_area.size() <= i) b.inflight_area.resize(i + 1, 0.0);
    b.inflight_area[i] += level * (hi - lo);
  }
}

void ChartSeries::End(double t) {
  t = Finite(t);
  CloseRun();
  Fit(t);
  std::int64_t k = IndexOf(t);
  if (Start(k) == t && k > first_) --k;  // ends on a boundary: no empty bucket after it
  Make(k);
}

}  // namespace lbsim
