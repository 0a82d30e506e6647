#include "sim/candidate_set.h"

namespace lbsim {
namespace {

// Whether the candidate carries a load signal of its own (not from a hint).
bool HasLoadSignal(const Candidate& c) { return c.inflight || c.qps_1m; }

}  // namespace

Candidate CandidateSet::Make(InstanceIndex i, const Pool& pool, const InstanceTable& table) const {
  const Pool::Entry& e = pool.at(i);
  return Candidate{i, table.Id(i), e.weight, SeenInflight(i), e.qps_1m, e.registration};
}

void CandidateSet::Sync(const Pool& pool, const InstanceTable& table, RunMetrics& metrics,
                        IndexedSelect* index) {
  if (pool_version_ != pool.version()) {
    Rebuild(pool, table, metrics, index);
  } else if (all_changed_) {
    for (const Candidate& c : candidates_) Refresh(c.instance, pool, metrics, index);
  } else {
    for (InstanceIndex i : changed_) Refresh(i, pool, metrics, index);
  }
  changed_.clear();
  all_changed_ = false;
}

void CandidateSet::Rebuild(const Pool& pool, const InstanceTable& table, RunMetrics& metrics,
                           IndexedSelect* index) {
  for (const Candidate& c : candidates_) {
    metrics.CandidateLeft(c.instance);
    slot_[c.instance] = kNoSlot;
  }
  candidates_.clear();
  for (InstanceIndex i : pool.Alive()) {
    if (slot_.size() <= i) slot_.resize(i + 1, kNoSlot);
    slot_[i] = static_cast<std::uint32_t>(candidates_.size());
    candidates_.push_back(Make(i, pool, table));
    metrics.CandidateJoined(i, HasLoadSignal(candidates_.back()));
  }
  pool_version_ = pool.version();
  mark_limit_ = candidates_.size() + 64;
  if (index) index->Reset(candidates_);
}

void CandidateSet::Refresh(InstanceIndex i, const Pool& pool, RunMetrics& metrics,
                           IndexedSelect* index) {
  if (i >= slot_.size() || slot_[i] == kNoSlot) return;  // not a candidate
  Candidate& c = candidates_[slot_[i]];
  // Only the load fields change between rebuilds (an id or registration
  // change comes with a new pool version).
  const Pool::Entry& e = pool.at(i);
  // Compared as raw counters (-1: unknown) rather than as optionals: an
  // optional returned by value went through the stack and was read back
  // with a wider load, which stalls on every refresh.
  const std::int64_t inflight = SeenInflightRaw(i);
  const std::int64_t had_inflight = c.inflight ? *c.inflight : -1;
  if (inflight == had_inflight && e.qps_1m == c.qps_1m && e.weight == c.weight) return;
  const bool had_signal = HasLoadSignal(c);
  c.inflight.reset();
  if (inflight >= 0) c.inflight = inflight;
  c.qps_1m = e.qps_1m;
  c.weight = e.weight;
  if (HasLoadSignal(c) != had_signal) metrics.LoadSignalChanged(i, !had_signal);
  if (index) index->Update(candidates_, slot_[i]);
}

}  // namespace lbsim
