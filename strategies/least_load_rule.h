#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/load_index.h"
#include "strategies/load_score.h"
#include "strategies/lowest_score.h"
#include "strategies/strategy.h"
#include "strategies/unknown_load.h"

namespace lbsim {

// least_load's decision rule as a part other strategies can hold: load
// scores under an unknown-load policy; the lowest known score wins (as
// Python's min() finds it); ties, and the fallback when no score is known,
// pick by ONE internal round-robin counter that advances on every decision
// it makes. A first known score that is NaN refuses the decision, as the
// Proxy's select() raises, and leaves the counter as it was.
class LeastLoadRule {
 public:
  LeastLoadRule(const LoadWeights& weights, UnknownLoad unknown);

  // Scores every candidate of a decision (the policy applied); indexed like
  // `candidates`. Call once per decision before Pick or PickAmong.
  std::span<const std::optional<double>> Score(std::span<const Candidate> candidates,
                                               const Hint& hint);

  // The decision among all candidates last scored: reason `least` (one
  // lowest), `tie` (several; the counter picks among them in pool order),
  // `fallback` (none known; the counter picks among all) or a refusal.
  Choice Pick();

  // The same decision restricted to the candidate indices `subset`, which
  // is non-empty and in pool order.
  Choice PickAmong(std::span<const std::size_t> subset);

  // The same decision among `candidates` candidates when `index` has found
  // their lowest score (`lowest`): the counter picks exactly as Pick would.
  Choice PickIndexed(std::size_t candidates, const LoadIndex& index,
                     const LoadIndex::Lowest& lowest) {
    const std::uint64_t counter = counter_++;
    if (lowest.ties == 0) return {counter % candidates, "fallback"};
    if (lowest.ties == 1)  // no division: the only tie
      return {index.TieAt(0), "least", lowest.passed_over_unknown};
    return {index.TieAt(counter % lowest.ties), "tie", lowest.passed_over_unknown};
  }

 private:
  LoadWeights weights_;
  UnknownLoad unknown_;
  std::uint64_t counter_ = 0;
  std::vector<std::optional<double>> scores_;  // reused buffers
  std::vector<std::size_t> all_;
  LowestScore lowest_;
};

}  // namespace lbsim
