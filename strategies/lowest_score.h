#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lbsim {

// What a least-score comparison found among the candidates it examined.
struct LowestScore {
  // The candidates whose known score equals the lowest one, in the order
  // examined. Empty when no examined candidate had a known score.
  std::vector<std::size_t> ties;
  // True when an examined candidate with an unknown score was passed over
  // because another had a known one.
  bool passed_over_unknown = false;
};

// Compares `scores[i]` for each candidate index i of `examined` (distinct
// indices, in that order). The first of equal lows sets
// the lowest, exactly like least_load. Throws InputError naming `strategy`
// when known scores exist but none is a number (NaN from infinite hint
// values of both signs).
void FindLowestScore(std::string_view strategy,
                     std::span<const std::optional<double>> scores,
                     std::span<const std::size_t> examined, LowestScore& out);

}  // namespace lbsim
