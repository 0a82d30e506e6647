#include "strategies/least_load_rule.h"

namespace lbsim {

LeastLoadRule::LeastLoadRule(const LoadWeights& weights, UnknownLoad unknown)
    : weights_(weights), unknown_(unknown) {}

std::span<const std::optional<double>> LeastLoadRule::Score(
    std::span<const Candidate> candidates, const Hint& hint) {
  scores_.clear();
  bool any_unknown = false;
  for (const Candidate& c : candidates) {
    scores_.push_back(LoadScore(c, hint.QueueFor(c.instance), weights_));
    any_unknown = any_unknown || !scores_.back();
  }
  if (any_unknown && unknown_ != UnknownLoad::kExclude) {
    const std::optional<double> highest = HighestKnown(scores_);
    for (std::optional<double>& s : scores_) s = ScoreUnder(unknown_, s, highest);
  }
  return scores_;
}

Choice LeastLoadRule::Pick() {
  if (all_.size() != scores_.size()) {
    all_.resize(scores_.size());
    for (std::size_t i = 0; i < all_.size(); ++i) all_[i] = i;
  }
  return PickAmong(all_);
}

Choice LeastLoadRule::PickAmong(std::span<const std::size_t> subset) {
  FindLowestScore(scores_, subset, lowest_);
  if (lowest_.not_a_number) return Choice::Refused();
  Choice choice;
  if (lowest_.ties.empty()) {
    choice = {subset[counter_ % subset.size()], "fallback"};
  } else {
    choice = {lowest_.ties[counter_ % lowest_.ties.size()],
              lowest_.ties.size() == 1 ? "least" : "tie", lowest_.passed_over_unknown};
  }
  ++counter_;
  return choice;
}

}  // namespace lbsim
