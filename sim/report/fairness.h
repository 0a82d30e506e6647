#pragma once

#include <optional>
#include <span>

namespace lbsim {

// Fairness of a selection distribution. A value that is undefined (no
// Instances, a zero sum, mean or minimum) is std::nullopt, never NaN.
struct Fairness {
  std::optional<double> jain;            // (sum x)^2 / (n * sum x^2) of counts
  std::optional<double> jain_eligible;   // the same over count / candidate decisions
  std::optional<double> cv;              // population std deviation / mean
  std::optional<double> max_min_ratio;
  std::optional<double> max_mean_ratio;
  std::optional<double> gini;            // Gini coefficient of the counts
};

// `counts`: selections of each Instance that was a candidate at least once;
// `rates`: the same Instances' counts divided by their candidate decisions.
Fairness ComputeFairness(std::span<const double> counts,
                         std::span<const double> rates);

// Jain's index of `x`; nullopt when empty or all zero.
std::optional<double> JainIndex(std::span<const double> x);

}  // namespace lbsim
