// Fairness figures (trace-format.md "Report", `fairness`): jain,
// jain_eligible, cv, max_min_ratio, max_mean_ratio and gini; undefined
// values are std::nullopt, never NaN or infinity. Expected values were
// computed independently (Python, by the textbook definitions: gini as
// sum |x_i - x_j| / (2 n^2 mean)).

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "sim/report/fairness.h"

namespace lbsim {
namespace {

using Values = std::vector<double>;

doctest::Approx Near(double x) { return doctest::Approx(x).epsilon(1e-12); }

Fairness Of(const Values& counts) { return ComputeFairness(counts, counts); }

// Every figure of `f` is either nullopt or a finite number.
bool AllFiniteOrNull(const Fairness& f) {
  for (const std::optional<double>& v :
       {f.jain, f.jain_eligible, f.cv, f.max_min_ratio, f.max_mean_ratio, f.gini})
    if (v && !std::isfinite(*v)) return false;
  return true;
}

// Every figure of `f` is nullopt.
bool AllUndefined(const Fairness& f) {
  for (const std::optional<double>& v :
       {f.jain, f.jain_eligible, f.cv, f.max_min_ratio, f.max_mean_ratio, f.gini})
    if (v) return false;
  return true;
}

TEST_CASE("fairness: counts 1, 2, 3") {
  Fairness f = Of({1, 2, 3});
  REQUIRE(f.jain);
  CHECK(*f.jain == Near(0.8571428571428571));  // 36 / (3 * 14)
  REQUIRE(f.cv);
  CHECK(*f.cv == Near(0.408248290463863));  // sqrt(2/3) / 2
  CHECK(f.max_min_ratio == 3.0);
  CHECK(f.max_mean_ratio == 1.5);
  REQUIRE(f.gini);
  CHECK(*f.gini == Near(0.2222222222222222));  // 8 / 36
}

TEST_CASE("fairness: the order of the counts does not matter") {
  Fairness a = Of({5, 3, 0, 7, 7});
  Fairness b = Of({7, 0, 7, 3, 5});
  REQUIRE(a.gini);
  CHECK(*a.gini == Near(0.3272727272727272));
  CHECK(*a.gini == Near(*b.gini));
  CHECK(*a.jain == Near(0.7333333333333333));
  CHECK(*a.cv == Near(0.6030226891555273));
  CHECK(*a.max_mean_ratio == Near(1.5909090909090908));
  CHECK(*b.max_mean_ratio == Near(1.5909090909090908));
}

TEST_CASE("fairness: equal counts, and a single Instance, are perfectly fair, exactly") {
  for (const Values& counts : {Values{4, 4, 4}, Values{5}}) {
    CAPTURE(counts.size());
    Fairness f = Of(counts);
    CHECK(f.jain == 1.0);
    CHECK(f.jain_eligible == 1.0);
    CHECK(f.cv == 0.0);
    CHECK(f.max_min_ratio == 1.0);
    CHECK(f.max_mean_ratio == 1.0);
    CHECK(f.gini == 0.0);
  }
}

TEST_CASE("fairness: one Instance takes everything") {
  Fairness f = Of({0, 0, 0, 10});
  CHECK(f.jain == 0.25);
  REQUIRE(f.cv);
  CHECK(*f.cv == Near(1.7320508075688774));  // sqrt(3)
  CHECK_FALSE(f.max_min_ratio.has_value());  // zero minimum: undefined
  CHECK(f.max_mean_ratio == 4.0);
  CHECK(f.gini == 0.75);
}

TEST_CASE("fairness: a zero minimum leaves max_min_ratio undefined, the rest defined") {
  Fairness f = Of({0, 2});
  CHECK(f.jain == 0.5);
  CHECK(f.cv == 1.0);
  CHECK_FALSE(f.max_min_ratio.has_value());
  CHECK(f.max_mean_ratio == 2.0);
  CHECK(f.gini == 0.5);
  CHECK(AllFiniteOrNull(f));
}

TEST_CASE("fairness: no decisions (all counts 0) leaves every figure undefined, not NaN") {
  Fairness f = Of({0, 0, 0});
  CHECK(AllUndefined(f));
}

TEST_CASE("fairness: no Instances leaves every figure undefined") {
  Fairness f = ComputeFairness({}, {});
  CHECK(AllUndefined(f));
}

TEST_CASE("fairness: jain_eligible is Jain's index of the per-candidacy rates") {
  // Equal counts, but b was a candidate twice as often as a.
  Fairness f = ComputeFairness(Values{2, 2}, Values{1.0, 0.5});
  CHECK(f.jain == 1.0);
  REQUIRE(f.jain_eligible);
  CHECK(*f.jain_eligible == Near(0.9));  // 1.5^2 / (2 * 1.25)
}

TEST_CASE("fairness: JainIndex on its own") {
  CHECK_FALSE(JainIndex(Values{}).has_value());
  CHECK_FALSE(JainIndex(Values{0, 0}).has_value());
  CHECK(*JainIndex(Values{3, 0, 0}) == Near(1.0 / 3.0));
  CHECK(JainIndex(Values{1, 1, 1, 1}) == 1.0);
}

TEST_CASE("fairness: huge counts stay finite") {
  Fairness f = Of({1e15, 3e15, 0});
  CHECK(AllFiniteOrNull(f));
  REQUIRE(f.max_mean_ratio);
  CHECK(*f.max_mean_ratio == Near(2.25));  // 3e15 / (4e15 / 3)
}

}  // namespace
}  // namespace lbsim
