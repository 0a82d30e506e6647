// How a load score's terms add up (proxy-versions.md "Summation"): plain
// left-to-right additions (spec, Python 3.11) or Python 3.12's sum(), the
// first term exactly and then Neumaier's compensated summation. Expected
// values are what each interpreter's sum() answers.

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <limits>

#include "strategies/summation.h"

namespace lbsim {
namespace {

double Sum(Summation rule, std::initializer_list<double> terms) {
  TermSum sum(rule);
  for (double x : terms) sum.Add(x);
  return sum.Total();
}

constexpr Summation kPlain = Summation::kLeftToRight;
constexpr Summation kNeumaier = Summation::kNeumaier;

TEST_CASE("summation: which rule each interpreter follows") {
  CHECK(SummationOf(PythonVersion::k311) == kPlain);
  CHECK(SummationOf(PythonVersion::k312) == kNeumaier);
}

TEST_CASE("summation: 0.1 + 0.2 + 0.3 ties with 0.6 under 3.12 only") {
  CHECK(Sum(kPlain, {0.1, 0.2, 0.3}) == 0.6000000000000001);
  CHECK(Sum(kNeumaier, {0.1, 0.2, 0.3}) == 0.6);
  CHECK(Sum(kPlain, {0.6}) == 0.6);
  CHECK(Sum(kNeumaier, {0.6}) == 0.6);
}

TEST_CASE("summation: compensation keeps what cancellation loses") {
  CHECK(Sum(kPlain, {1e16, 1.0, -1e16}) == 0.0);
  CHECK(Sum(kNeumaier, {1e16, 1.0, -1e16}) == 1.0);
  CHECK(Sum(kNeumaier, {1.0, 1e100, 1.0, -1e100}) == 2.0);
  CHECK(Sum(kPlain, {1.0, 1e100, 1.0, -1e100}) == 0.0);
}

TEST_CASE("summation: no terms is 0, one term is itself, two terms agree") {
  CHECK(Sum(kPlain, {}) == 0.0);
  CHECK(Sum(kNeumaier, {}) == 0.0);
  CHECK(Sum(kNeumaier, {-2.5}) == -2.5);
  // A compensated sum of two terms rounds back to their plain sum: the
  // least_load index adds inflight and qps_1m parts without a rule.
  for (double a : {0.1, 3.0, 1e16, -7.25, 1e308})
    for (double b : {0.2, 1.0, -1e16, 0.001, 1e308}) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK(Sum(kNeumaier, {a, b}) == Sum(kPlain, {a, b}));
    }
}

TEST_CASE("summation: infinities stay infinite, never NaN from the compensation") {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  CHECK(Sum(kNeumaier, {1.0, kInf, 2.0}) == kInf);
  CHECK(Sum(kNeumaier, {1e308, 1e308}) == kInf);  // overflow: the compensation is dropped
  CHECK(Sum(kNeumaier, {-kInf, 3.0}) == -kInf);
  CHECK(std::isnan(Sum(kNeumaier, {kInf, -kInf})));
  CHECK(std::isnan(Sum(kPlain, {kInf, 1.0, -kInf})));
  CHECK(std::isnan(Sum(kNeumaier, {std::nan(""), 1.0})));
}

}  // namespace
}  // namespace lbsim
