#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/metric_view.h"
#include "sim/pool.h"
#include "sim/run_metrics.h"
#include "strategies/candidate.h"
#include "strategies/load_index.h"
#include "strategies/strategy.h"
#include "traces/instance_table.h"

namespace lbsim {

// One World's candidates, kept from one decision to the next: the alive
// Instances in pool order, with the load fields that World's strategy sees.
// The list is rebuilt only when the alive set changes; otherwise only the
// Instances marked as changed are refreshed, so a decision does no
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

  // Brings the list up to date with `pool` (ids from `table`).
  void Sync(const Pool& pool, const InstanceTable& table);

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
  Candidate Make(InstanceIndex i, const Pool& pool, const InstanceTable& table) const;
  void Rebuild(const Pool& pool, const InstanceTable& table);
  // Refreshes candidates_[slot], Instance `i`, from `pool` and the seen
  // inflight value.
  void Refresh(InstanceIndex i, std::uint32_t slot, const Pool& pool);
  // Refresh's rarer part: a load signal appeared or vanished.
  void SignalChanged(InstanceIndex i, bool load_signal);

  const std::vector<std::int64_t>& inflight_;
  RunMetrics& metrics_;
  IndexedSelect* index_;  // may be null
  LoadIndex* loads_;      // index_'s LoadIndex, updated directly; may be null
  const MetricView* view_ = nullptr;
  std::vector<Candidate> candidates_;
  std::vector<std::uint32_t> slot_;  // by InstanceIndex
  std::optional<std::uint64_t> pool_version_;
  std::vector<InstanceIndex> changed_;
  std::size_t mark_limit_ = 64;  // candidates_.size() + 64: more marks refresh all
  bool all_changed_ = false;
};

}  // namespace lbsim
