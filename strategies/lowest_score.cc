#include "strategies/lowest_score.h"

namespace lbsim {

void FindLowestScore(std::span<const std::optional<double>> scores,
                     std::span<const std::size_t> examined, LowestScore& out) {
  out.ties.clear();
  bool any_known = false, any_unknown = false;
  double lowest = 0.0;
  for (std::size_t i : examined) {
    const std::optional<double>& s = scores[i];
    if (!s) {
      any_unknown = true;
    } else if (!any_known) {
      lowest = *s;
      any_known = true;
    } else if (*s < lowest) {  // keeps the first of equals, like min()
      lowest = *s;
    }
  }
  out.passed_over_unknown = any_known && any_unknown;
  if (!any_known) {
    out.not_a_number = false;
    return;
  }
  for (std::size_t i : examined)
    if (scores[i] && *scores[i] == lowest) out.ties.push_back(i);
  out.not_a_number = out.ties.empty();  // only when the first known is NaN
}

}  // namespace lbsim
