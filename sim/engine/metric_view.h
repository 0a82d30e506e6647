#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/engine/sim_options.h"
#include "strategies/hint.h"

namespace lbsim {

// What strategies see of one run's inflight counters under stale metrics.
// Snapshot k of every counter is taken at start + k * interval (after the
// completions due then, before the trace events then) and each Instance's
// value is published delay + u * jitter later, u uniform in [0, 1) drawn from
// (seed, k, Instance) alone, so every strategy of a run sees the same
// publication times. A strategy sees, per Instance, the newest snapshot
// published so far; before its first publication the load is unknown. An
// unknown counter publishes as unknown. Memory holds the snapshots not yet
// fully published: about Instances x (delay + jitter) / interval values.
// How much one run's view of stale metrics may take, in snapshot values
// (one per Instance and snapshot).
struct SnapshotLimits {
  std::uint64_t taken = kMaxSnapshotValues;           // in the whole run
  std::uint64_t pending = kMaxPendingSnapshotValues;  // not yet published, at once
};

class MetricView {
 public:
  // Past a limit, or when snapshot times no longer advance (an interval
  // below the times' resolution), the snapshot that would go past it
  // throws a UsageError naming the option to change, before it is taken.
  MetricView(double interval, double delay, double jitter, std::uint64_t seed,
             SnapshotLimits limits = {});

  // Anchors the snapshots at `t`, the time of the run's first event.
  void Start(double t);
  bool started() const { return started_; }
  // The key of the next snapshot or publication (class kMetric); nullopt
  // before Start().
  std::optional<EventKey> NextKey() const;
  // What a RunNext changed in what strategies see: one Instance's value,
  // or every Instance's (kEveryInstance).
  static constexpr InstanceIndex kEveryInstance = ~InstanceIndex{0};

  // Runs that event: takes a snapshot of `counters` (by InstanceIndex, -1
  // unknown) or publishes values of an earlier one. Returns the Instance
  // whose seen value it may have changed (kEveryInstance: all of them), or
  // nullopt when it changed none (a snapshot).
  std::optional<InstanceIndex> RunNext(std::span<const std::int64_t> counters);

  // The inflight value strategies see for `i`.
  std::optional<std::int64_t> Seen(InstanceIndex i) const;

 private:
  static constexpr InstanceIndex kAllInstances = kEveryInstance;
  struct Event {
    bool snapshot = false;
    std::uint64_t number = 0;  // snapshots count from 1
    InstanceIndex instance = kAllInstances;
  };
  struct Snapshot {
    std::uint64_t number = 0;
    std::vector<std::int64_t> values;
    std::size_t pending = 0;  // publications not yet run
  };
  void TakeSnapshot(std::uint64_t number, double time,
                    std::span<const std::int64_t> counters);
  void Publish(const Event& e);
  void Push(double time, const Event& e);

  double interval_, delay_, jitter_;
  std::uint64_t seed_;
  SnapshotLimits limits_;
  std::uint64_t taken_ = 0;    // snapshot values taken so far
  std::uint64_t pending_ = 0;  // of those, the ones in snapshots not fully published
  bool started_ = false;
  double start_ = 0.0;
  EventQueue<Event> queue_;
  std::uint64_t seq_ = 0;
  std::deque<Snapshot> snapshots_;  // unpublished ones, oldest first
  std::vector<std::int64_t> seen_;               // -1 unknown
  std::vector<std::uint64_t> seen_snapshot_;     // 0: none published yet
};

}  // namespace lbsim
