// The chart series of a run: decisions, reasons, picks, herding and load
// in a bounded number of buckets that widen tenfold as the run grows.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "sim/replay/chart_series.h"
#include "sim/replay/run_metrics.h"

namespace lbsim {
namespace {

std::uint64_t TotalDecisions(const ChartSeries& s) {
  std::uint64_t n = 0;
  for (const ChartSeries::Bucket& b : s.buckets()) n += b.decisions;
  return n;
}

std::uint64_t TotalHerded(const ChartSeries& s) {
  std::uint64_t n = 0;
  for (const ChartSeries::Bucket& b : s.buckets()) n += b.herded;
  return n;
}

double TotalArea(const ChartSeries& s, InstanceIndex i) {
  double a = 0.0;
  for (const ChartSeries::Bucket& b : s.buckets())
    if (i < b.inflight_area.size()) a += b.inflight_area[i];
  return a;
}

TEST_CASE("chart series: buckets of 10^k trace units from the finest that fits") {
  ChartSeries s(1.0, -2);  // buckets of 0.01
  s.Begin(0.5);
  const InstanceIndex a = 0;
  s.Decision(0.5, &a, "least", 2);
  s.Decision(0.519, &a, "least", 2);
  s.End(1.0);
  CHECK(s.exponent() == -2);
  CHECK(s.first() == 50);
  REQUIRE(s.buckets().size() == 50);  // [0.5, 1.0): ends on a boundary
  CHECK(s.buckets()[0].decisions == 1);
  CHECK(s.buckets()[1].decisions == 1);
  CHECK(s.Start(51) == 0.51);  // 51 / 100, the double nearest 0.51
}

TEST_CASE("chart series: a long run widens the buckets tenfold and keeps every count") {
  ChartSeries s(1.0, -6);
  s.Begin(0.0);
  const InstanceIndex picks[] = {0, 1, 2};
  for (int k = 0; k < 30000; ++k)
    s.Decision(k * 0.01, &picks[k % 3], k % 7 == 0 ? "fallback" : "least", 3);
  s.End(300.0);
  CHECK(s.buckets().size() <= ChartSeries::kMaxBuckets);
  CHECK(s.exponent() == 0);  // 300 s in 1 s buckets: 300 of them
  CHECK(s.buckets().size() == 300);
  CHECK(TotalDecisions(s) == 30000);
  REQUIRE(s.reasons().size() == 2);
  CHECK(s.reasons()[0] == "fallback");
  std::uint64_t fallback = 0;
  for (const ChartSeries::Bucket& b : s.buckets()) fallback += b.by_reason[0];
  CHECK(fallback == (30000 + 6) / 7);
  // Every 1 s bucket holds 100 decisions, a third of them per Instance
  // (k x 0.01 may round to either side of a boundary: give or take one).
  CHECK(s.buckets()[10].decisions >= 99);
  CHECK(s.buckets()[10].decisions <= 101);
  CHECK(s.buckets()[10].selections[1] >= 32);
}

TEST_CASE("chart series: the outstanding level's area is split across buckets") {
  ChartSeries s(10.0, 0);  // a --window of 10: buckets of 10, 100, ...
  s.Begin(25.0);
  s.AddArea(2, 25.0, 47.0, 3.0);
  s.End(60.0);
  CHECK(s.first() == 2);
  REQUIRE(s.buckets().size() == 4);
  CHECK(s.buckets()[0].inflight_area[2] == 15.0);
  CHECK(s.buckets()[1].inflight_area[2] == 30.0);
  CHECK(s.buckets()[2].inflight_area[2] == 21.0);
  CHECK(TotalArea(s, 2) == 66.0);
}

TEST_CASE("chart series: herding runs are counted as RunMetrics counts them") {
  ChartSeries s(1.0, 0);
  s.Begin(0.0);
  const InstanceIndex a = 0, b = 1;
  // a x3 among 2 candidates (herds), b x2 among 2 (does not), a x5 among
  // 3 candidates at first and 6 later (5 <= 6: does not herd)...
  double t = 0.0;
  for (int k = 0; k < 3; ++k) s.Decision(t++, &a, "least", 2);
  for (int k = 0; k < 2; ++k) s.Decision(t++, &b, "least", 2);
  for (int k = 0; k < 5; ++k) s.Decision(t++, &a, "least", k < 2 ? 3 : 6);
  // ...then b x4 among 2, cut by a no_instances decision: a closed run of 4.
  for (int k = 0; k < 4; ++k) s.Decision(t++, &b, "least", 2);
  s.Decision(t++, nullptr, "no_instances", 0);
  s.End(t);
  CHECK(TotalHerded(s) == 3 + 4);
  REQUIRE(s.longest_herding_run());
  CHECK(s.longest_herding_run()->instance == b);
  CHECK(s.longest_herding_run()->length == 4);
  CHECK(s.longest_herding_run()->first == 10.0);
  CHECK(s.longest_herding_run()->last == 13.0);
  // The run's decisions land in the buckets they happened in.
  CHECK(s.buckets()[0].herded == 1);
  CHECK(s.buckets()[3].herded == 0);
  CHECK(s.buckets()[13].herded == 1);
  CHECK(s.buckets()[14].herded == 0);
}

TEST_CASE("chart series: an open run's buckets merge with the buckets") {
  ChartSeries s(1.0, 0);
  s.Begin(0.0);
  const InstanceIndex a = 0;
  // One run of a among 2 candidates that outlives a widening of the buckets.
  for (int k = 0; k < 2500; ++k) s.Decision(k, &a, "least", 2);
  s.End(2500.0);
  CHECK(s.exponent() == 1);
  CHECK(s.buckets().size() == 250);
  CHECK(TotalHerded(s) == 2500);
  CHECK(s.buckets()[0].herded == 10);
}

TEST_CASE("chart series: a large pool keeps fewer buckets") {
  ChartSeries s(1.0, 0);
  s.Begin(0.0);
  const InstanceIndex big = 50000;  // kMaxCells / 50001 < kMinBuckets
  const InstanceIndex small = 0;
  for (int k = 0; k < 900; ++k) s.Decision(k, &small, "least", 2);
  CHECK(s.buckets().size() == 900);
  s.Decision(900, &big, "least", 2);
  CHECK(s.MaxBuckets() == ChartSeries::kMinBuckets);
  CHECK(s.buckets().size() <= ChartSeries::kMinBuckets);
  CHECK(TotalDecisions(s) == 901);
}

TEST_CASE("chart series: reason words past the limit count as other words") {
  ChartSeries s(1.0, 0);
  s.Begin(0.0);
  const InstanceIndex a = 0;
  std::vector<std::string> words;
  for (std::size_t k = 0; k < ChartSeries::kMaxReasons + 3; ++k)
    words.push_back("word" + std::to_string(k));
  for (const std::string& w : words) s.Decision(0.5, &a, w, 1);
  s.End(1.0);
  CHECK(s.reasons().size() == ChartSeries::kMaxReasons);
  CHECK(s.buckets()[0].other_reasons == 3);
  CHECK(s.buckets()[0].decisions == ChartSeries::kMaxReasons + 3);
}

TEST_CASE("chart series: a time far past the buckets widens them without overflow") {
  ChartSeries s(1.0, -6);
  s.Begin(0.0);
  const InstanceIndex a = 0;
  s.Decision(0.0, &a, "least", 1);
  s.Decision(1e300, &a, "least", 1);
  s.End(1e300);
  CHECK(s.buckets().size() <= ChartSeries::kMaxBuckets);
  CHECK(TotalDecisions(s) == 2);
}

TEST_CASE("chart series: an infinite time (a duration that overflows) is the largest double") {
  ChartSeries s(1.0, -6);
  s.Begin(0.0);
  const InstanceIndex a = 0;
  s.Decision(1.7976931348623157e308, &a, "least", 1);
  s.AddArea(a, 0.0, std::numeric_limits<double>::infinity(), 1.0);
  s.End(std::numeric_limits<double>::infinity());
  CHECK(s.buckets().size() <= ChartSeries::kMaxBuckets);
  CHECK(std::isfinite(s.width()));
  CHECK(TotalDecisions(s) == 1);
  CHECK(TotalArea(s, a) == std::numeric_limits<double>::max());
}

TEST_CASE("chart series: bucket boundaries below exponent 0 are k / 10^n") {
  CHECK(ChartSeries::Boundary(1.0, -1, 3) == 0.3);
  CHECK(ChartSeries::Boundary(1.0, 2, 3) == 300.0);
  CHECK(ChartSeries::Boundary(0.25, 1, 3) == 7.5);
}

}  // namespace
}  // namespace lbsim
