#pragma once

#include <algorithm>
#include <vector>

namespace lbsim {

// The median of `values` (not empty): the middle one, or the mean of the
// two middle ones.
inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace lbsim
