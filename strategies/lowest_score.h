#pragma once

#include <cstddef>
#include <optional>
#include <span>
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
  // True when the first known score is not a number (NaN: infinite hint
  // values of both signs, or a hint value "nan"). Python's min() then keeps
  // NaN as the lowest, no score equals it and `ties` is empty: the Proxy's
  // select() raises, and the decision is refused.
  bool not_a_number = false;
};

// Compares `scores[i]` for each candidate index i of `examined` (distinct
// indices, in that order) as Python's min() does: the first known score,
// replaced by each later one that is strictly lower. The ties are the
// known scores equal to it, in that order; a NaN score after the first is
// never the lowest and never a tie.
void FindLowestScore(std::span<const std::optional<double>> scores,
                     std::span<const std::size_t> examined, LowestScore& out);

}  // namespace lbsim
