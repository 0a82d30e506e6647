#pragma once

#include <cmath>

#include "strategies/python_version.h"

namespace lbsim {

// How a load score's terms are added up.
enum class Summation : unsigned char {
  // Plain double additions left to right, from 0.0 (the spec profile, and
  // Python's sum() of floats before 3.12).
  kLeftToRight,
  // Python 3.12's sum() of floats: the first term exactly, then Neumaier's
  // compensated summation over the rest.
  kNeumaier,
};

// The rule Python's built-in sum() of floats follows on `python`.
constexpr Summation SummationOf(PythonVersion python) {
  return python == PythonVersion::k311 ? Summation::kLeftToRight : Summation::kNeumaier;
}

// Adds terms one at a time under a Summation rule; Total() is what the rule
// gives for the terms added so far (0.0 for none).
class TermSum {
 public:
  explicit TermSum(Summation rule) : rule_(rule) {}

  void Add(double x) {
    if (rule_ == Summation::kLeftToRight || !started_) {
      sum_ += x;  // from 0.0: the first term exactly, as 0 + x is
      started_ = true;
      return;
    }
    const double t = sum_ + x;
    // CPython's `(sum - t) + x` or `(x - t) + sum`, by the larger
    // magnitude: chosen by selects, as which one it is changes from term to
    // term (a branch mispredicted often).
    const bool sum_larger = std::fabs(sum_) >= std::fabs(x);
    const double larger = sum_larger ? sum_ : x;
    const double smaller = sum_larger ? x : sum_;
    compensation_ += (larger - t) + smaller;
    sum_ = t;
  }

  double Total() const {
    // CPython adds the compensation back only when it is non-zero and
    // finite, so an infinite or overflowed sum never turns into NaN.
    if (compensation_ != 0.0 && std::isfinite(compensation_)) return sum_ + compensation_;
    return sum_;
  }

 private:
  Summation rule_;
  bool started_ = false;
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}  // namespace lbsim
