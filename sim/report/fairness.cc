#include "sim/report/fairness.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lbsim {

std::optional<double> JainIndex(std::span<const double> x) {
  double sum = 0.0, squares = 0.0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  if (x.empty() || squares == 0.0) return std::nullopt;
  return sum * sum / (static_cast<double>(x.size()) * squares);
}

Fairness ComputeFairness(std::span<const double> counts,
                         std::span<const double> rates) {
  Fairness f;
  if (counts.empty()) return f;
  const double n = static_cast<double>(counts.size());
  f.jain = JainIndex(counts);
  f.jain_eligible = JainIndex(rates);

  double sum = 0.0;
  for (double v : counts) sum += v;
  const double mean = sum / n;
  const auto [min_it, max_it] = std::minmax_element(counts.begin(), counts.end());
  if (mean > 0.0) {
    double var = 0.0;
    for (double v : counts) var += (v - mean) * (v - mean);
    f.cv = std::sqrt(var / n) / mean;
    f.max_mean_ratio = *max_it / mean;
    // Gini = sum_i sum_j |x_i - x_j| / (2 n^2 mean), computed over the
    // ascending order as sum_i (2i - n - 1) x_i / (n * sum): exact for
    // integer counts, so equal counts give exactly 0.
    std::vector<double> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end());
    double numerator = 0.0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      numerator += (2.0 * static_cast<double>(i + 1) - n - 1.0) * sorted[i];
    f.gini = numerator / (n * sum);
  }
  if (*min_it > 0.0) f.max_min_ratio = *max_it / *min_it;
  return f;
}

}  // namespace lbsim
