#include "strategies/lowest_score.h"

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

void FindLowestScore(std::string_view strategy,
                     std::span<const std::optional<double>> scores,
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
  if (!any_known) return;

  for (std::size_t i : examined)
    if (scores[i] && *scores[i] == lowest) out.ties.push_back(i);
  if (out.ties.empty())  // only when a score is NaN (inf - inf in a hint)
    throw InputError(fmt::format(
        "{}: a load score is not a number (infinite hint values of "
        "both signs); the Proxy would fail this decision too",
        strategy));
}

}  // namespace lbsim
