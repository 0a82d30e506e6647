#include "base/did_you_mean.h"

#include <algorithm>

namespace lbsim {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::optional<std::string> DidYouMean(std::string_view word,
                                      const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const std::string& c : candidates) {
    const std::size_t d = EditDistance(word, c);
    if (d < best_distance && 2 * d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace lbsim
