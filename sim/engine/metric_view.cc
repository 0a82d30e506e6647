#include "sim/engine/metric_view.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/seed_mix.h"

namespace lbsim {
namespace {

// A uniform number in [0, 1) determined by (seed, snapshot, instance) alone.
double Unit(std::uint64_t seed, std::uint64_t snapshot, std::uint64_t instance) {
  return UnitInterval(SplitMix64(SplitMix64(SplitMix64(seed) ^ snapshot) ^ instance));
}

}  // namespace

MetricView::MetricView(double interval, double delay, double jitter, std::uint64_t seed,
                       SnapshotLimits limits)
    : interval_(interval), delay_(delay), jitter_(jitter), seed_(seed), limits_(limits) {}

void MetricView::Start(double t) {
  started_ = true;
  start_ = t;
  Push(t, Event{true, 1, kAllInstances});
}

void MetricView::Push(double time, const Event& e) {
  queue_.Push(EventKey{time, EventClass::kMetric, seq_++}, e);
}

std::optional<EventKey> MetricView::NextKey() const {
  if (queue_.empty()) return std::nullopt;
  return queue_.top().key;
}

std::optional<InstanceIndex> MetricView::RunNext(std::span<const std::int64_t> counters) {
  const auto item = queue_.top();
  queue_.Pop();
  if (item.payload.snapshot) {
    TakeSnapshot(item.payload.number, item.key.time, counters);
    return std::nullopt;
  }
  Publish(item.payload);
  return item.payload.instance;
}

void MetricView::TakeSnapshot(std::uint64_t number, double time,
                              std::span<const std::int64_t> counters) {
  const std::uint64_t values = std::max<std::uint64_t>(counters.size(), 1);
  if (taken_ + values > limits_.taken)
    throw UsageError(fmt::format(
        "--stale-interval {}: the run needs more than {} snapshot values (snapshots x "
        "Instances, the limit of one replay, shared by its strategy runs); choose a longer "
        "interval",
        interval_, limits_.taken));
  if (pending_ + values > limits_.pending)
    throw UsageError(fmt::format(
        "--stale-interval {}: more than {} snapshot values would wait to be published at once "
        "(the limit of one replay, shared by its strategy runs); choose a longer interval or a "
        "shorter --stale-delay and --stale-jitter",
        interval_, limits_.pending));
  const double next = start_ + static_cast<double>(number) * interval_;
  if (!(next > time))
    throw UsageError(fmt::format(
        "--stale-interval {}: too short for the trace's times (around {}), where it no longer "
        "moves the time of the next snapshot; choose a longer interval",
        interval_, time));
  taken_ += values;
  pending_ += values;
  Snapshot s{number, {counters.begin(), counters.end()}, 0};
  if (jitter_ > 0.0) {
    for (InstanceIndex i = 0; i < s.values.size(); ++i)
      Push(time + delay_ + jitter_ * Unit(seed_, number, i), Event{false, number, i});
    s.pending = s.values.size();
  } else {
    Push(time + delay_, Event{false, number, kAllInstances});
    s.pending = 1;
  }
  snapshots_.push_back(std::move(s));
  // Computed from the anchor, not accumulated, so times do not drift.
  Push(next, Event{true, number + 1, kAllInstances});
}

void MetricView::Publish(const Event& e) {
  Snapshot& s = snapshots_[e.number - snapshots_.front().number];
  if (seen_.size() < s.values.size()) {
    seen_.resize(s.values.size(), -1);
    seen_snapshot_.resize(s.values.size(), 0);
  }
  auto apply = [&](InstanceIndex i) {
    // With jitter an older snapshot can arrive after a newer one: keep the newer.
    if (seen_snapshot_[i] >= s.number) return;
    seen_[i] = s.values[i];
    seen_snapshot_[i] = s.number;
  };
  if (e.instance == kAllInstances) {
    for (InstanceIndex i = 0; i < s.values.size(); ++i) apply(i);
  } else {
    apply(e.instance);
  }
  --s.pending;
  while (!snapshots_.empty() && snapshots_.front().pending == 0) {
    pending_ -= std::max<std::uint64_t>(snapshots_.front().values.size(), 1);
    snapshots_.pop_front();
  }
}

std::optional<std::int64_t> MetricView::Seen(InstanceIndex i) const {
  if (i >= seen_.size() || seen_snapshot_[i] == 0 || seen_[i] < 0) return std::nullopt;
  return seen_[i];
}

}  // namespace lbsim
