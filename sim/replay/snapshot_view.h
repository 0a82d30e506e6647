#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "base/seed_mix.h"
#include "sim/replay/event_queue.h"
#include "strategies/hint.h"

namespace lbsim {

// How much one view may take, in snapshot values (one per Instance and
// snapshot): in the whole run, and taken but not yet published at once.
struct SnapshotLimits {
  std::uint64_t taken = ~std::uint64_t{0};
  std::uint64_t pending = ~std::uint64_t{0};
};

// Throws a UsageError naming `option` (the interval's flag) when taking
// `values` more snapshot values would pass `limits`, given `taken` and
// `pending` so far, or when the next snapshot time `next` no longer passes
// `time` (an interval below the times' resolution).
void CheckSnapshot(std::string_view option, double interval, const SnapshotLimits& limits,
                   std::uint64_t taken, std::uint64_t pending, std::uint64_t values, double time,
                   double next);

// Throws the UsageError of CheckSnapshot's `pending` limit before a run,
// when each snapshot waiting `delay + jitter` to be published every
// `interval` would alone hold `pending` values or more at once, whatever
// the trace.
void CheckSnapshotBacklog(std::string_view option, double interval, double delay, double jitter,
                          std::uint64_t pending);

// What strategies see of per-Instance values published late (stale
// metrics, engine signals): snapshot k of every Instance's value is taken
// at start + k * interval (after the completions due then, before the trace
// events then) and each Instance's value is published delay + u * jitter
// later, u uniform in [0, 1) drawn from (seed, k, Instance) alone, so every
// strategy of a run sees the same publication times. Strategies see, per
// Instance, the newest snapshot published so far; before its first
// publication, nothing. Memory holds the snapshots not yet fully
// published: about Instances x (delay + jitter) / interval values, and
// never more than its SnapshotLimits: the snapshot that would pass one
// throws a UsageError naming `option`, before it is taken.
template <typename Value>
class SnapshotView {
 public:
  // What a RunNext changed in what strategies see: one Instance's value,
  // or every Instance's (kEveryInstance).
  static constexpr InstanceIndex kEveryInstance = ~InstanceIndex{0};

  SnapshotView(double interval, double delay, double jitter, std::uint64_t seed,
               SnapshotLimits limits = {}, std::string_view option = "--stale-interval")
      : interval_(interval), delay_(delay), jitter_(jitter), seed_(seed), limits_(limits),
        option_(option) {}

  // Anchors the snapshots at `t`, the time of the run's first event.
  void Start(double t) {
    started_ = true;
    start_ = t;
    Push(t, Event{true, 1, kEveryInstance});
  }
  bool started() const { return started_; }
  // The key of the next snapshot or publication (class kMetric); nullopt
  // before Start().
  std::optional<EventKey> NextKey() const {
    if (queue_.empty()) return std::nullopt;
    return queue_.top().key;
  }

  // Runs that event: takes a snapshot of the values `fill` writes into the
  // vector it is given (by InstanceIndex), or publishes values of an
  // earlier one. Returns the Instance whose seen value it may have changed
  // (kEveryInstance: all of them), or nullopt when it changed none (a
  // snapshot).
  template <typename Fill>
  std::optional<InstanceIndex> RunNext(Fill fill) {
    const auto item = queue_.top();
    queue_.Pop();
    if (item.payload.snapshot) {
      Snapshot s{item.payload.number, {}, 0};
      fill(s.values);
      TakeSnapshot(std::move(s), item.key.time);
      return std::nullopt;
    }
    Publish(item.payload);
    return item.payload.instance;
  }

  // The value strategies see for `i`, or nullptr before its first
  // publication.
  const Value* Seen(InstanceIndex i) const {
    if (i >= seen_.size() || seen_snapshot_[i] == 0) return nullptr;
    return &seen_[i];
  }

 private:
  struct Event {
    bool snapshot = false;
    std::uint64_t number = 0;  // snapshots count from 1
    InstanceIndex instance = kEveryInstance;
  };
  struct Snapshot {
    std::uint64_t number = 0;
    std::vector<Value> values;
    std::size_t pending = 0;  // publications not yet run
  };

  // A uniform number in [0, 1) determined by (seed, snapshot, instance) alone.
  static double Unit(std::uint64_t seed, std::uint64_t snapshot, std::uint64_t instance) {
    return UnitInterval(SplitMix64(SplitMix64(SplitMix64(seed) ^ snapshot) ^ instance));
  }

  void Push(double time, const Event& e) {
    queue_.Push(EventKey{time, EventClass::kMetric, seq_++}, e);
  }

  static std::uint64_t Count(const Snapshot& s) {
    return s.values.empty() ? 1 : s.values.size();
  }

  void TakeSnapshot(Snapshot s, double time) {
    // Computed from the anchor, not accumulated, so times do not drift.
    const double next = start_ + static_cast<double>(s.number) * interval_;
    CheckSnapshot(option_, interval_, limits_, taken_, pending_, Count(s), time, next);
    taken_ += Count(s);
    pending_ += Count(s);
    if (jitter_ > 0.0) {
      for (InstanceIndex i = 0; i < s.values.size(); ++i)
        Push(time + delay_ + jitter_ * Unit(seed_, s.number, i), Event{false, s.number, i});
      s.pending = s.values.size();
    } else {
      Push(time + delay_, Event{false, s.number, kEveryInstance});
      s.pending = 1;
    }
    const std::uint64_t number = s.number;
    snapshots_.push_back(std::move(s));
    Push(next, Event{true, number + 1, kEveryInstance});
  }

  void Publish(const Event& e) {
    Snapshot& s = snapshots_[e.number - snapshots_.front().number];
    if (seen_.size() < s.values.size()) {
      seen_.resize(s.values.size(), Value{});
      seen_snapshot_.resize(s.values.size(), 0);
    }
    auto apply = [&](InstanceIndex i) {
      // With jitter an older snapshot can arrive after a newer one: keep the newer.
      if (seen_snapshot_[i] >= s.number) return;
      seen_[i] = s.values[i];
      seen_snapshot_[i] = s.number;
    };
    if (e.instance == kEveryInstance) {
      for (InstanceIndex i = 0; i < s.values.size(); ++i) apply(i);
    } else {
      apply(e.instance);
    }
    --s.pending;
    while (!snapshots_.empty() && snapshots_.front().pending == 0) {
      pending_ -= Count(snapshots_.front());
      snapshots_.pop_front();
    }
  }

  double interval_, delay_, jitter_;
  std::uint64_t seed_;
  SnapshotLimits limits_;
  std::string_view option_;    // a string literal: the flag named in errors
  std::uint64_t taken_ = 0;    // snapshot values taken so far
  std::uint64_t pending_ = 0;  // of those, the ones in snapshots not fully published
  bool started_ = false;
  double start_ = 0.0;
  EventQueue<Event> queue_;
  std::uint64_t seq_ = 0;
  std::deque<Snapshot> snapshots_;              // unpublished ones, oldest first
  std::vector<Value> seen_;
  std::vector<std::uint64_t> seen_snapshot_;    // 0: none published yet
};

}  // namespace lbsim
