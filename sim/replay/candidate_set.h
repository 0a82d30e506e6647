#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/replay/metric_view.h"
#include "sim/replay/pool.h"
#include "sim/replay/run_metrics.h"
#include "strategies/candidate.h"
#include "strategies/load_index.h"
#include "strategies/strategy.h"
#include "traces/instance_table.h"

namespace lbsim {

// Where candidates' standing queue loads come from (Candidate::queue): the
// Proxy queue model.
class StandingQueueLoads {
 public:
  virtual ~StandingQueueLoads() = default;
  // The standing load of Instance `i` now, or null; valid until the next
  // call for `i`.
  virtual const QueueLoad* StandingLoad(InstanceIndex i) const = 0;
};

// One World's candidates, kept from one decision to the next: the alive
// Instances in pool order, with the load fields that World's strategy sees.
// The list is rebuilt only when the alive set changes; otherwise only the
// Instances marked as changed are refreshed (in a plain replay, those whose
// inflight counter moves are refreshed right away), so a decision does no
// pool-sized work. Every change is reported to the run's metrics and to the
// strategy's index, when it keeps one.
class CandidateSet {
 public:
  // `inflight`: the World's inflight counters by InstanceIndex (-1:
  // unknown), which the strategy sees unless a stale-metrics view is set.
  // Changes are reported to `metrics` and to `index` (may be null); both
  // must outlive the set.
  CandidateSet(const std::vector<std::int64_t>& inflight, RunMetrics& metrics,
               IndexedSelect* index)
      : inflight_(inflight), metrics_(metrics), index_(index),
        loads_(index ? index->Loads() : nullptr) {}

  // Makes the strategy see `view`'s published inflight values instead.
  void SetView(const MetricView* view) { view_ = view; }
  // Gives each candidate its standing queue load from `loads` (not owned;
  // may be null); a change of one is reported with MarkChanged.
  void SetStandingLoads(const StandingQueueLoads* loads) { standing_ = loads; }

  // The load fields of `i` (inflight, qps_1m) may have changed.
  void MarkChanged(InstanceIndex i) {
    if (all_changed_) return;
    // Many marks between two decisions: refreshing everything is as cheap,
    // and memory stays bounded.
    if (changed_.size() >= mark_limit_) MarkAllChanged();
    else changed_.push_back(i);
  }
  // Those of every Instance may have.
  void MarkAllChanged() {
    all_changed_ = true;
    changed_.clear();
  }

  // Plain replays only (the strategy sees the counters, no view): a
  // completion moved the inflight counter of `i` from inflight + 1 down to
  // `inflight` (>= 0). Refreshes that one field now instead of marking the
  // candidate, which ends in the same state at the next Sync: refreshes of
  // one Instance commute with the others', and the load signal stays. When
  // the candidate still shows inflight + 1, only that field differs from
  // what a refresh would leave (a qps_1m change is marked and refreshed at
  // Sync); when it shows something else, a SetInflight since the last Sync
  // marked it. Nothing to do when the list is behind `pool`: the next Sync
  // rebuilds it.
  void CompletionDropped(InstanceIndex i, std::int64_t inflight, const Pool& pool) {
    if (pool_version_ != pool.version() || i >= slot_.size()) return;
    const std::uint32_t slot = slot_[i];
    if (slot == kNoSlot) return;
    std::optional<std::int64_t>& seen = candidates_[slot].inflight;
    if (!seen || *seen != inflight + 1) return;
    *seen = inflight;
    InflightMoved(slot, inflight);
  }
  // Plain replays only, right after a decision that chose candidates()[slot]:
  // its inflight counter, known, moved to `inflight` (its other fields are
  // as Sync left them). A refresh of that one field, without look-ups.
  void ChosenInflightChanged(std::size_t slot, std::int64_t inflight) {
    candidates_[slot].inflight = inflight;  // known before and after: same signal
    InflightMoved(slot, inflight);
  }

  // Brings the list up to date with `pool` (ids from `table`).
  void Sync(const Pool& pool, const InstanceTable& table) {
    // The common case without a call: nothing to do since the last Sync.
    if (pool_version_ == pool.version() && !all_changed_ && changed_.empty()) return;
    SyncChanges(pool, table);
  }

  std::span<const Candidate> candidates() const { return candidates_; }

 private:
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};

  // The inflight value the strategy sees for `i`.
  std::optional<std::int64_t> SeenInflight(InstanceIndex i) const {
    const std::int64_t raw = SeenInflightRaw(i);
    if (raw < 0) return std::nullopt;
    return raw;
  }
  // The same as a counter: -1 when unknown.
  std::int64_t SeenInflightRaw(InstanceIndex i) const {
    if (view_) return view_->Seen(i).value_or(-1);
    return i < inflight_.size() ? inflight_[i] : -1;
  }
  // Sync's work when something changed.
  void SyncChanges(const Pool& pool, const InstanceTable& table);
  Candidate Make(InstanceIndex i, const Pool& pool, const InstanceTable& table) const;
  void Rebuild(const Pool& pool, const InstanceTable& table);
  // Refreshes candidates_[slot], Instance `i`, from `pool` and the seen
  // inflight value.
  void Refresh(InstanceIndex i, std::uint32_t slot, const Pool& pool) {
    Candidate& c = candidates_[slot];
    // Only the load fields change between rebuilds (an id or registration
    // change comes with a new pool version).
    const Pool::Entry& e = pool.at(i);
    // Compared as raw counters (-1: unknown) rather than as optionals: an
    // optional returned by value went through the stack and was read back
    // with a wider load, which stalls on every refresh.
    const std::int64_t inflight = SeenInflightRaw(i);
    const bool had_inflight = c.inflight.has_value();
    // A standing queue load may have changed in place: always rescored.
    const QueueLoad* queue = standing_ ? standing_->StandingLoad(i) : nullptr;
    if (inflight == (had_inflight ? *c.inflight : -1) && e.qps_1m == c.qps_1m &&
        e.weight == c.weight && !queue && !c.queue)
      return;
    c.queue = queue;
    const bool had_signal = had_inflight || c.qps_1m;
    c.inflight.reset();
    if (inflight >= 0) c.inflight = inflight;
    c.qps_1m = e.qps_1m;
    c.weight = e.weight;
    const bool has_signal = inflight >= 0 || e.qps_1m;
    if (has_signal != had_signal) SignalChanged(i, has_signal);
    UpdateIndex(slot);
  }
  // Tells the strategy's index that candidates_[slot] changed.
  void UpdateIndex(std::size_t slot) {
    if (loads_) loads_->Update(candidates_, slot);
    else if (index_) index_->Update(candidates_, slot);
  }
  // UpdateIndex when only the inflight value moved, known before and after.
  void InflightMoved(std::size_t slot, std::int64_t inflight) {
    if (loads_ && !candidates_[slot].queue) loads_->InflightMoved(slot, inflight);
    else UpdateIndex(slot);
  }
  // Refresh's rarer part: a load signal appeared or vanished.
  void SignalChanged(InstanceIndex i, bool load_signal);

  const std::vector<std::int64_t>& inflight_;
  RunMetrics& metrics_;
  IndexedSelect* index_;  // may be null
  LoadIndex* loads_;      // index_'s LoadIndex, updated directly; may be null
  const MetricView* view_ = nullptr;
  const StandingQueueLoads* standing_ = nullptr;
  std::vector<Candidate> candidates_;
  std::vector<std::uint32_t> slot_;  // by InstanceIndex
  std::optional<std::uint64_t> pool_version_;
  std::vector<InstanceIndex> changed_;
  std::uint64_t sync_ = 0;                    // SyncChanges' refreshes so far
  std::vector<std::uint64_t> refreshed_at_;   // by slot: the last sync_ that refreshed it
  std::size_t mark_limit_ = 64;  // candidates_.size() + 64: more marks refresh all
  bool all_changed_ = false;
};

}  // namespace lbsim
