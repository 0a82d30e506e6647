#include "sim/report/expected_share.h"

#include <algorithm>

namespace lbsim {

ExpectedShares::ExpectedShares(std::vector<std::uint64_t> candidate_decisions,
                               std::vector<double> weights, std::vector<double> speeds)
    : candidate_decisions_(std::move(candidate_decisions)),
      weights_(std::move(weights)),
      speeds_(std::move(speeds)) {
  for (std::uint64_t n : candidate_decisions_) ever_candidates_ += n > 0;
  weight_totals_ = Sum(weights_);
  if (!speeds_.empty()) speed_totals_ = Sum(speeds_);
}

ExpectedShares::Totals ExpectedShares::Sum(const std::vector<double>& x) const {
  Totals t;
  for (std::size_t j = 0; j < candidate_decisions_.size(); ++j) {
    if (candidate_decisions_[j] == 0) continue;
    t.run += static_cast<double>(candidate_decisions_[j]) * x[j];
    t.plain += x[j];
  }
  return t;
}

double ExpectedShares::RunShare(const std::vector<double>& x, std::size_t i) const {
  const double total = &x == &weights_ ? weight_totals_.run : speed_totals_.run;
  if (!(total > 0.0) || candidate_decisions_[i] == 0) return 0.0;
  return static_cast<double>(candidate_decisions_[i]) * x[i] / total;
}

double ExpectedShares::OfRun(std::size_t i) const {
  const double by_weight = RunShare(weights_, i);
  return speeds_.empty() ? by_weight : std::max(by_weight, RunShare(speeds_, i));
}

double ExpectedShares::Among(const std::vector<double>& x, const std::vector<std::size_t>& members,
                             std::size_t candidates) const {
  double mine = 0.0, others = &x == &weights_ ? weight_totals_.plain : speed_totals_.plain;
  std::size_t other_count = ever_candidates_;
  for (std::size_t j : members) {
    mine += x[j];
    if (candidate_decisions_[j] > 0) {
      others -= x[j];
      --other_count;
    }
  }
  if (other_count == 0 || candidates <= members.size()) return 1.0;
  const double rest = static_cast<double>(candidates - members.size()) * others /
                      static_cast<double>(other_count);
  return mine / (mine + rest);
}

double ExpectedShares::AmongCandidates(const std::vector<std::size_t>& members,
                                       std::size_t candidates) const {
  const double by_weight = Among(weights_, members, candidates);
  return speeds_.empty() ? by_weight : std::max(by_weight, Among(speeds_, members, candidates));
}

}  // namespace lbsim
