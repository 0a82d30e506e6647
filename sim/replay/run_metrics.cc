#include "sim/replay/run_metrics.h"

#include <algorithm>

namespace lbsim {

RunMetrics::RunMetrics(std::span<const std::string_view> reasons)
    : declared_(reasons.begin(), reasons.end()), reasons_(reasons.begin(), reasons.end()) {
  reasons_.push_back("no_instances");
  reason_counts_.assign(reasons_.size(), 0);
}

std::size_t RunMetrics::ReasonIndex(std::string_view reason) const {
  for (std::size_t i = 0; i < reasons_.size(); ++i)
    if (reasons_[i] == reason) return i;
  return static_cast<std::size_t>(-1);
}

std::uint64_t RunMetrics::ReasonCount(std::string_view reason) const {
  std::size_t i = ReasonIndex(reason);
  return i == static_cast<std::size_t>(-1) ? 0 : reason_counts_[i];
}

std::size_t RunMetrics::TextReasonSlot(std::string_view reason) {
  std::size_t i = ReasonIndex(reason);
  if (i != static_cast<std::size_t>(-1)) return i;
  // An undeclared word: keep it, before "no_instances".
  reasons_.insert(reasons_.end() - 1, std::string(reason));
  reason_counts_.insert(reason_counts_.end() - 1, 0);
  // Every Instance's row of picks_ takes a 0 for it, before "no_instances".
  const std::size_t stride = reasons_.size();
  const std::size_t old_stride = stride - 1;
  const std::size_t rows = picks_.size() / old_stride;
  std::vector<std::uint64_t> picks(rows * stride, 0);
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t r = 0; r + 1 < old_stride; ++r)
      picks[row * stride + r] = picks_[row * old_stride + r];
    picks[row * stride + stride - 1] = picks_[row * old_stride + old_stride - 1];
  }
  picks_ = std::move(picks);
  return reasons_.size() - 2;
}

RunMetrics::InstanceTally& RunMetrics::GrowTally(InstanceIndex i) {
  instances_.resize(i + 1);
  return instances_[i];
}

std::uint64_t& RunMetrics::GrowPicks(InstanceIndex i, std::size_t reason) {
  picks_.resize((std::size_t{i} + 1) * reasons_.size(), 0);
  return picks_[std::size_t{i} * reasons_.size() + reason];
}

RunMetrics::CandidateState& RunMetrics::GrowState(InstanceIndex i) {
  states_.resize(i + 1);
  return states_[i];
}

void RunMetrics::CandidateJoined(InstanceIndex i, bool load_signal) {
  CandidateState& s = State(i);
  s = CandidateState{true, load_signal, candidate_decisions_, contested_decisions_, 0};
  if (load_signal) ++signalled_candidates_;
}

void RunMetrics::CandidateLeft(InstanceIndex i) {
  CloseIntervals(i);
  CandidateState& s = State(i);
  if (s.load_signal) --signalled_candidates_;
  s.candidate = false;
}

void RunMetrics::LoadSignalChanged(InstanceIndex i, bool load_signal) {
  CandidateState& s = State(i);
  if (s.load_signal == load_signal) return;
  CloseIntervals(i);
  s.load_signal = load_signal;
  if (load_signal) ++signalled_candidates_;
  else --signalled_candidates_;
}

void RunMetrics::CloseIntervals(InstanceIndex i) {
  CandidateState& s = State(i);
  if (!s.candidate) return;
  InstanceTally& t = Tally(i);
  t.candidate_decisions += candidate_decisions_ - s.since;
  if (!s.load_signal) t.unknown_while_others_known += contested_decisions_ - s.unknown_since - s.hinted;
  s.since = candidate_decisions_;
  s.unknown_since = contested_decisions_;
  s.hinted = 0;
}

void RunMetrics::RecordNoInstances(std::uint64_t seq) {
  ++decisions_;
  ++reason_counts_.back();
  CloseRun(seq);
}

void RunMetrics::RecordRefused(std::uint64_t seq) {
  ++decisions_;
  ++reason_counts_[TextReasonSlot("refused")];
  CloseRun(seq);
}

[[gnu::noinline]] void RunMetrics::RecordHintedDecision(std::uint64_t seq,
                                                        std::span<const Candidate> candidates,
                                                        const Hint& hint, const Choice& choice) {
  const std::size_t reason = CountDecision(choice);
  hinted_.clear();
  CollectHinted(hint);
  const bool any_known = signalled_candidates_ > 0 || !hinted_.empty();
  if (any_known) {
    ++contested_decisions_;
    for (InstanceIndex i : hinted_) ++states_[i].hinted;
  }
  const Candidate& chosen = candidates[choice.index];
  const bool chosen_unknown = !HasLoadSignal(chosen) &&
      std::find(hinted_.begin(), hinted_.end(), chosen.instance) == hinted_.end();
  CountPick(seq, chosen.instance, reason, any_known && chosen_unknown, candidates.size());
}

void RunMetrics::CollectHinted(const Hint& hint) {
  for (const Hint::Entry& e : hint.queues) {
    if (e.instance >= states_.size() || !e.load.AnyKnown()) continue;
    const CandidateState& s = states_[e.instance];
    if (s.candidate && !s.load_signal) hinted_.push_back(e.instance);
  }
}

void RunMetrics::CountLongRun(const Run& run) {
  herded_ += run.length;
  Stretches& s = long_runs_[LongRunKey{run.instance, run.max_candidates, run.length}];
  if (s.count++ == 0) s.first_seq = run.first_seq;
}

void RunMetrics::CountAlternation(std::uint64_t seq, std::size_t candidates) {
  if (candidates < 4 || pair_a_ == kNoInstance || 4 * pair_switches_ < pair_length_) return;
  const InstanceIndex low = pair_a_ < pair_b_ ? pair_a_ : pair_b_;
  const InstanceIndex high = pair_a_ < pair_b_ ? pair_b_ : pair_a_;
  Stretches& s = alternations_[AlternationKey{low, high, candidates, pair_length_}];
  if (s.count++ == 0) s.first_seq = seq - pair_length_;
}

void RunMetrics::Finish() {
  for (InstanceIndex i = 0; i < states_.size(); ++i) CloseIntervals(i);
  CloseRun(decisions_ + 1);  // as if before one more decision
  const std::size_t stride = reasons_.size();
  const std::size_t rows = picks_.size() / stride;
  if (instances_.size() < rows) instances_.resize(rows);
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    InstanceTally& t = instances_[i];
    t.by_reason.assign(stride, 0);
    if (i >= rows) continue;
    t.selections = 0;
    for (std::size_t r = 0; r < stride; ++r) {
      t.by_reason[r] = picks_[i * stride + r];
      t.selections += t.by_reason[r];
    }
  }
}

}  // namespace lbsim
