#include "sim/run_metrics.h"

namespace lbsim {
namespace {

bool LoadUnknown(const Candidate& c, const Hint& hint) {
  if (c.inflight || c.qps_1m) return false;
  const QueueLoad* q = hint.QueueFor(c.instance);
  return !(q && q->AnyKnown());
}

}  // namespace

RunMetrics::RunMetrics(std::span<const std::string_view> reasons)
    : reasons_(reasons.begin(), reasons.end()) {
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

std::size_t RunMetrics::ReasonSlot(std::string_view reason) {
  std::size_t i = ReasonIndex(reason);
  if (i != static_cast<std::size_t>(-1)) return i;
  // An undeclared word: keep it, before "no_instances".
  reasons_.insert(reasons_.end() - 1, std::string(reason));
  reason_counts_.insert(reason_counts_.end() - 1, 0);
  for (InstanceTally& t : instances_)
    if (!t.by_reason.empty()) t.by_reason.insert(t.by_reason.end() - 1, 0);
  return reasons_.size() - 2;
}

RunMetrics::InstanceTally& RunMetrics::Tally(InstanceIndex i) {
  if (instances_.size() <= i) instances_.resize(i + 1);
  InstanceTally& t = instances_[i];
  if (t.by_reason.size() != reasons_.size()) t.by_reason.resize(reasons_.size(), 0);
  return t;
}

void RunMetrics::RecordNoInstances(std::uint64_t) {
  ++decisions_;
  ++reason_counts_.back();
  CloseRun();
}

void RunMetrics::RecordDecision(std::uint64_t seq,
                                std::span<const Candidate> candidates,
                                const Hint& hint, const Choice& choice) {
  ++decisions_;
  std::size_t reason = ReasonSlot(choice.reason);
  ++reason_counts_[reason];
  if (choice.passed_over_unknown) ++unknown_excluded_;
  unknown_.clear();
  bool any_known = false;
  for (const Candidate& c : candidates) {
    unknown_.push_back(LoadUnknown(c, hint));
    any_known = any_known || !unknown_.back();
  }
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    InstanceTally& t = Tally(candidates[k].instance);
    ++t.candidate_decisions;
    const bool contested = any_known && unknown_[k];
    if (contested) ++t.unknown_while_others_known;
    if (k == choice.index) {
      ++t.selections;
      ++t.by_reason[reason];
      if (contested) ++t.chosen_while_unknown;
    }
  }

  InstanceIndex chosen = candidates[choice.index].instance;
  if (current_.length > 0 && current_.instance != chosen) CloseRun();
  if (current_.length == 0) current_ = Run{chosen, 0, seq, 0};
  ++current_.length;
  if (candidates.size() > current_.max_candidates)
    current_.max_candidates = candidates.size();
}

void RunMetrics::CloseRun() {
  if (current_.length == 0) return;
  if (current_.length > longest_.length) longest_ = current_;
  if (current_.max_candidates >= 2 && current_.length > current_.max_candidates)
    herded_ += current_.length;
  current_ = Run{};
}

void RunMetrics::Finish() { CloseRun(); }

}  // namespace lbsim
