// The service model: slots, FIFO waiting, speed, waits and latencies.

#include <doctest/doctest.h>

#include "sim/replay/service_model.h"

namespace lbsim {
namespace {

TEST_CASE("service model: a free slot starts a request at once, the rest wait FIFO") {
  ServiceModel m(1);
  auto first = m.Admit(0, 0.0, 2.0, 1.0, 7);
  REQUIRE(first);
  CHECK(first->end == 2.0);
  CHECK(first->registration == 7);
  CHECK_FALSE(m.Admit(0, 0.5, 3.0, 1.0, 7));  // waits
  CHECK_FALSE(m.Admit(0, 1.0, 1.0, 1.0, 8));  // waits behind it
  CHECK(m.Waiting(0) == 2);

  auto second = m.Release(0, 2.0, 1.0);  // the one that arrived at 0.5
  REQUIRE(second);
  CHECK(second->end == 5.0);
  auto third = m.Release(0, 5.0, 1.0);
  REQUIRE(third);
  CHECK(third->end == 6.0);
  CHECK(third->registration == 8);
  CHECK_FALSE(m.Release(0, 6.0, 1.0));

  // Waits 0, 1.5, 4; latencies 2, 4.5, 5.
  LatencySummary s = m.latencies().Of(0);
  CHECK(s.served == 3);
  CHECK(s.mean_wait == doctest::Approx(5.5 / 3));
  CHECK(s.p50 == 4.5);
  CHECK(s.max == 5.0);
  m.CloseAt(6.0);
  CHECK(m.busy().Area(0) == 6.0);
  CHECK(m.busy().Peak(0) == 1);
}

TEST_CASE("service model: K slots run K requests at once") {
  ServiceModel m(3);
  CHECK(m.Admit(0, 0.0, 1.0, 1.0, 1));
  CHECK(m.Admit(0, 0.0, 1.0, 1.0, 1));
  CHECK(m.Admit(0, 0.0, 1.0, 1.0, 1));
  CHECK_FALSE(m.Admit(0, 0.0, 1.0, 1.0, 1));
  CHECK(m.Admit(1, 0.0, 1.0, 1.0, 1));  // another Instance has its own slots
  CHECK(m.busy().Peak(0) == 3);
}

TEST_CASE("service model: speed divides the duration, at the speed in force when service starts") {
  ServiceModel m(1);
  auto a = m.Admit(0, 0.0, 4.0, 2.0, 1);
  REQUIRE(a);
  CHECK(a->end == 2.0);
  CHECK_FALSE(m.Admit(0, 1.0, 4.0, 2.0, 1));
  auto b = m.Release(0, 2.0, 4.0);  // the Instance got faster meanwhile
  REQUIRE(b);
  CHECK(b->end == 3.0);
  LatencySummary s = m.latencies().Of(0);
  CHECK(s.max == 2.0);  // 2 (0 wait + 4/2) and 2 (1 wait + 4/4)
  CHECK(s.mean_wait == 0.5);
}

TEST_CASE("latency percentiles are exact nearest-rank values") {
  LatencyRecorder r;
  for (int i = 1; i <= 200; ++i) r.Record(i % 2, 0.0, static_cast<double>(i));
  LatencySummary all = r.Overall();
  CHECK(all.served == 200);
  CHECK(all.p50 == 100.0);  // rank ceil(0.5 * 200) = 100
  CHECK(all.p90 == 180.0);
  CHECK(all.p99 == 198.0);
  CHECK(all.max == 200.0);
  CHECK(all.mean == 100.5);

  LatencyRecorder small;
  for (double x : {5.0, 1.0, 3.0}) small.Record(0, 0.0, x);
  LatencySummary s = small.Of(0);
  CHECK(s.p50 == 3.0);  // rank ceil(1.5) = 2
  CHECK(s.p90 == 5.0);  // rank ceil(2.7) = 3
  CHECK(small.Of(1).served == 0);
}

}  // namespace
}  // namespace lbsim
