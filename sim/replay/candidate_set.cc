#include "sim/replay/candidate_set.h"

namespace lbsim {
namespace {

// Whether the candidate carries a load signal of its own (not from a hint).
bool HasLoadSignal(const Candidate& c) { return c.inflight || c.qps_1m; }

}  // namespace

Candidate CandidateSet::Make(InstanceIndex i, const Pool& pool, const InstanceTable& table) const {
  const Pool::Entry& e = pool.at(i);
  return Candidate{i,
                   table.Id(i),
                   e.weight,
                   SeenInflight(i),
                   e.qps_1m,
                   e.registration,
                   standing_ ? standing_->StandingLoad(i) : nullptr};
}

void CandidateSet::SyncChanges(const Pool& pool, const InstanceTable& table) {
  if (pool_version_ != pool.version()) {
    Rebuild(pool, table);
  } else if (all_changed_) {
    for (std::uint32_t slot = 0; slot < candidates_.size(); ++slot)
      Refresh(candidates_[slot].instance, slot, pool);
  } else {
    // Marks may name Instances that are not candidates, and one Instance
    // more than once: it is refreshed once.
    const std::uint32_t* slots = slot_.data();
    const std::size_t known = slot_.size();
    ++sync_;
    for (InstanceIndex i : changed_) {
      if (i >= known || slots[i] == kNoSlot || refreshed_at_[slots[i]] == sync_) continue;
      refreshed_at_[slots[i]] = sync_;
      Refresh(i, slots[i], pool);
    }
  }
  changed_.clear();
  all_changed_ = false;
}

void CandidateSet::Rebuild(const Pool& pool, const InstanceTable& table) {
  for (const Candidate& c : candidates_) {
    metrics_.CandidateLeft(c.instance);
    slot_[c.instance] = kNoSlot;
  }
  candidates_.clear();
  refreshed_at_.clear();
  for (InstanceIndex i : pool.Alive()) {
    if (slot_.size() <= i) slot_.resize(i + 1, kNoSlot);
    slot_[i] = static_cast<std::uint32_t>(candidates_.size());
    candidates_.push_back(Make(i, pool, table));
    refreshed_at_.push_back(0);
    metrics_.CandidateJoined(i, HasLoadSignal(candidates_.back()));
  }
  pool_version_ = pool.version();
  mark_limit_ = candidates_.size() + 64;
  if (index_) index_->Reset(candidates_);
}

[[gnu::noinline]] void CandidateSet::SignalChanged(InstanceIndex i, bool load_signal) {
  metrics_.LoadSignalChanged(i, load_signal);
}

}  // namespace lbsim
